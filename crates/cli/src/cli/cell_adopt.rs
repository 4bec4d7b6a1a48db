//! `unroll-lab study adopt`: the finished cells of another plan that are cells of this one (the
//! same training evaluated on the same tests: `cells::adopt::twin`) written into this plan's
//! output directory, re-labelled, so they are not trained twice.

use std::path::PathBuf;

use clap::Args;

use super::cells::{read_plan, read_states, result_path, to_json, write_atomic};
use super::{output, CliError};
use unroll_core::study::cells::adopt::{adopt, twin};
use unroll_core::study::cells::merge::CellState;

#[derive(Debug, Args)]
pub struct AdoptArgs {
    /// This plan's file.
    #[arg(long)]
    plan: PathBuf,
    /// The other plan's file.
    #[arg(long)]
    from_plan: PathBuf,
    /// The other plan's cells' directory.
    #[arg(long)]
    from: PathBuf,
    /// This plan's cells' directory (cells already there are left as they are).
    out: PathBuf,
}

/// Writes every adoptable cell, printing each; a plan with no twin cells adopts none.
pub fn adopt_cells(args: &AdoptArgs) -> Result<(), CliError> {
    let (plan, other) = (read_plan(&args.plan)?, read_plan(&args.from_plan)?);
    let theirs = read_states(&other, &args.from)?;
    output::writable_dir(&args.out, "out")?;
    let ours = read_states(&plan, &args.out)?;
    let mut adopted = 0;
    for (index, state) in ours.iter().enumerate() {
        let Some(twin) = twin(&plan, index, &other) else {
            continue;
        };
        let label = &plan.cells[index].label;
        let (CellState::Missing, CellState::Done(result)) = (state, &theirs[twin]) else {
            println!("cell {index} ({label}): not adopted (done here, or not done there)");
            continue;
        };
        let cell = adopt(&plan, index, &other, result).expect("a done twin adopts");
        write_atomic(&result_path(&args.out, index), &to_json(&cell)?)?;
        println!(
            "cell {index} ({label}): adopted cell {twin} of plan {}",
            other.hash
        );
        adopted += 1;
    }
    println!("{adopted} cell(s) adopted");
    Ok(())
}
