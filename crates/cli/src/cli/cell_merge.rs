//! `unroll-lab study merge`: the done cells of a plan into one results file (a partial merge
//! lists the missing cells).

use std::path::PathBuf;

use clap::Args;

use super::cells::{read_plan, read_states};
use super::output::write_results;
use super::{output, CliError};
use unroll_core::study::cells::merge;

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The results JSON to write (schema unroll-lab/results@1).
    #[arg(long)]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Merge what is done and list the missing cells in the results.
    #[arg(long)]
    allow_partial: bool,
    /// Re-score at this error horizon (exact, from the per-test curves; default: the plan's,
    /// the paper's 12).
    #[arg(long)]
    horizon: Option<usize>,
    /// The cells' output directory.
    dir: PathBuf,
}

pub fn merge(args: &MergeArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    output::writable_file(&args.out, "out")?;
    if let Some(csv) = &args.csv {
        output::writable_file(csv, "csv")?;
    }
    let states = read_states(&plan, &args.dir)?;
    let results = merge::merge(
        &plan,
        plan.config.system.physics(),
        &states,
        args.allow_partial,
    )
    .map_err(|err| CliError::Merge(err.to_string()))?;
    let results = match args.horizon {
        Some(horizon) => super::slopes::at_horizon(&results, horizon)?,
        None => results,
    };
    write_results(&results, &args.out, args.csv.as_deref(), &[&args.dir])?;
    if !results.missing_cells.is_empty() {
        println!(
            "partial: {} of {} cells missing (listed in the results)",
            results.missing_cells.len(),
            plan.cells.len()
        );
    }
    println!(
        "merged {} cells of plan {} ({:.1} s of cell time); wrote {}",
        plan.cells.len() - results.missing_cells.len(),
        plan.hash,
        results.wall_secs,
        args.out.display()
    );
    Ok(())
}
