//! `unroll-lab study status`: which cells of a plan are done, why the others are not (and where
//! their checkpoints stand), and the Slurm array that resubmits them.

use std::path::PathBuf;

use clap::Args;

use super::cells::{read_plan, read_states};
use super::checkpoints::{checkpoint_holding, checkpoint_note};
use super::CliError;
use unroll_core::study::cells::merge;

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The cells' output directory.
    dir: PathBuf,
}

pub fn status(args: &StatusArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    let states = read_states(&plan, &args.dir)?;
    let problems = merge::problems(&plan, &states);
    let done = plan.cells.len() - problems.len();
    println!(
        "plan {}: {done} of {} cells done",
        plan.hash,
        plan.cells.len()
    );
    for problem in &problems {
        let resumes = match checkpoint_holding(&plan, problem.cell, &args.dir) {
            Ok(Some((holder, checkpoint))) => {
                format!(
                    "; {}",
                    checkpoint_note(&plan, problem.cell, holder, &checkpoint)
                )
            }
            Ok(None) => String::new(),
            Err(why) => format!("; its checkpoint is unusable: {why}"),
        };
        println!(
            "cell {} ({}): {}{resumes}",
            problem.cell, problem.label, problem.reason
        );
    }
    if problems.is_empty() {
        println!(
            "all done: merge with `unroll-lab study merge --plan {} --out results.json {}`",
            args.plan.display(),
            args.dir.display()
        );
        return Ok(());
    }
    let indices: Vec<usize> = problems.iter().map(|p| p.cell).collect();
    let array = super::slurm::array_ranges(&indices);
    println!("to resubmit: --array={array}");
    if let Some(command) = super::slurm::resubmit_command(&args.dir, &array) {
        println!("{command}");
    }
    Ok(())
}
