//! `unroll-lab bench statistics --system NAME`: a system's developed-flow statistics and its
//! solvers' speed. The flags are handed to the system through the registry
//! (`PhysicalSystem::bench_statistics`), which fills its own defaults, prints its figures and
//! documents both in its folder; a system without such a bench is refused (exit 2).

use clap::Args;

use super::CliError;
use unroll_core::system::bench::StatisticsRequest;
use unroll_core::system::System;

#[derive(Debug, Args)]
pub struct BenchStatisticsArgs {
    /// The system (today only kolmogorov has a statistics bench).
    #[arg(long)]
    system: System,
    /// Reynolds number, ν = 1/Re (kolmogorov: default 600).
    #[arg(long, allow_negative_numbers = true)]
    reynolds: Option<f64>,
    /// Spin-up time of the truth from the seeded random field, in time units (kolmogorov:
    /// default 50).
    #[arg(long)]
    spinup_time: Option<f64>,
    /// Truth frames sampled after the spin-up, one per coarse step (kolmogorov: default 1000,
    /// every Δt = 0.02).
    #[arg(long)]
    samples: Option<usize>,
    /// Largest lag of the autocorrelation, in coarse steps (kolmogorov: default 200).
    #[arg(long)]
    max_lag: Option<usize>,
    /// Coarse steps of the coarse solver's run, speed and stability (kolmogorov: default 3000).
    #[arg(long)]
    coarse_steps: Option<usize>,
    /// The coarse solvers' time integrators, comma-separated (kolmogorov: piso | ssp-rk3 |
    /// heun, default piso,ssp-rk3).
    #[arg(long)]
    coarse_scheme: Option<String>,
    /// Print the paper's time-scale estimator on the `paper` preset's test truth per test
    /// start (and the coarse vorticity rms) instead of the run above.
    #[arg(long)]
    paper_tests: bool,
    /// Seed of the random initial field (default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

impl BenchStatisticsArgs {
    /// The flags as the system reads them.
    fn request(&self) -> StatisticsRequest {
        StatisticsRequest {
            reynolds: self.reynolds,
            spinup_time: self.spinup_time,
            samples: self.samples,
            max_lag: self.max_lag,
            coarse_steps: self.coarse_steps,
            coarse_scheme: self.coarse_scheme.clone(),
            paper_tests: self.paper_tests,
            seed: self.seed,
            json: self.json,
        }
    }
}

/// `unroll-lab bench statistics`: the system's own statistics bench, printed line by line.
pub fn bench_statistics(args: &BenchStatisticsArgs) -> Result<(), CliError> {
    let mut emit = |line: &str| println!("{line}");
    args.system
        .physics()
        .bench_statistics(&args.request(), &mut emit)?;
    Ok(())
}
