//! `unroll-lab study extend`: a plan's study with more seeds, written as a new plan whose
//! first cells' seeds are the old plan's (the old seeds kept in their order, the next ones
//! appended), so `study adopt` takes every finished cell of the old plan and only the added
//! seeds train.

use std::path::PathBuf;

use clap::Args;

use super::cells::{read_plan, to_json, write_atomic};
use super::CliError;
use unroll_core::system::System;
use unroll_report::units::format_seconds;

#[derive(Debug, Args)]
pub struct ExtendArgs {
    /// The plan to extend (left as it is).
    #[arg(long)]
    plan: PathBuf,
    /// The number of seeds of the extended plan (more than the plan has).
    #[arg(long)]
    seeds: usize,
    /// The extended plan's file.
    #[arg(long)]
    out: PathBuf,
}

/// Writes the extended plan and lists its added cells.
pub fn extend(args: &ExtendArgs) -> Result<(), CliError> {
    let old = read_plan(&args.plan)?;
    let plan = old
        .with_seeds(args.seeds, System::description)
        .map_err(|err| CliError::Usage(format!("{}: {err}", args.plan.display())))?;
    write_atomic(&args.out, &to_json(&plan)?)?;
    let added: Vec<usize> = plan
        .cells
        .iter()
        .filter(|cell| !old.config.seeds.contains(&cell.seed))
        .map(|cell| cell.index)
        .collect();
    let seconds: Option<f64> = added.iter().map(|&i| plan.cells[i].estimated_secs).sum();
    println!(
        "plan {} ({} seeds, {} cells) extends plan {} ({} seeds): {} cells to train ({}), cells {}",
        plan.hash,
        plan.config.seeds.len(),
        plan.cells.len(),
        old.hash,
        old.config.seeds.len(),
        added.len(),
        seconds.map_or("not estimated".to_string(), format_seconds),
        super::slurm::array_ranges(&added),
    );
    println!(
        "take the old plan's finished cells with `unroll-lab study adopt --plan {} --from-plan {} --from CELLS OUT`",
        args.out.display(),
        args.plan.display()
    );
    Ok(())
}
