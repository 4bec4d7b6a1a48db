//! `unroll-lab bench solver [--system NAME]`: a system's solvers' throughput and the time its
//! training set takes to make. The flags are handed to the system through the registry
//! (`PhysicalSystem::bench_solver`), which fills its own defaults, prints its figures and
//! documents both in its folder; a system without such a bench is refused (exit 2).

use clap::Args;

use super::CliError;
use unroll_core::system::bench::SolverBenchRequest;
use unroll_core::system::System;

#[derive(Debug, Args)]
pub struct BenchSolverArgs {
    /// The system (default ks, today the only one with a solver bench).
    #[arg(long, default_value_t = System::default())]
    system: System,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Learned steps timed per measurement (ks: default 200).
    #[arg(long)]
    steps: Option<usize>,
    /// Frames kept per trajectory for the training-set timing (ks: default 5000, the study's).
    #[arg(long)]
    kept_frames: Option<usize>,
}

/// `unroll-lab bench solver`: the system's own solver bench, printed line by line.
pub fn bench_solver(args: &BenchSolverArgs) -> Result<(), CliError> {
    let request = SolverBenchRequest {
        steps: args.steps,
        kept_frames: args.kept_frames,
        json: args.json,
    };
    let mut emit = |line: &str| println!("{line}");
    args.system.physics().bench_solver(&request, &mut emit)?;
    Ok(())
}
