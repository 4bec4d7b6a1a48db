//! Argument parsing, dispatch and the error → exit code mapping of the native CLI.

mod assets;
mod bench_ensemble;
mod bench_solver;
mod bench_statistics;
mod bench_train;
mod cell_adopt;
mod cell_extend;
mod cell_merge;
mod cell_plan;
mod cell_status;
mod cell_threads;
mod cells;
mod checkpoints;
mod docs_tables;
mod horizons;
mod interrupt;
mod knobs;
mod output;
mod run_cell;
mod simulate;
mod site_results;
mod size_choice;
mod slopes;
mod slurm;
mod study;
mod study_work;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use unroll_core::study::run::error::StudyError;
use unroll_core::system::simulate::SimulateError;
use unroll_core::train::TrainError;

/// Exit code for bad arguments or files.
const USAGE_ERROR: u8 = 2;
/// The exit code of a run stopped by Ctrl-C (128 + SIGINT), its work kept to resume.
const INTERRUPTED: u8 = 130;

#[derive(Debug, Parser)]
#[command(
    name = "unroll-lab",
    version,
    about = "Unrolled training of neural physics simulators"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate a system with its own solvers and print the trajectory as JSON.
    Simulate(simulate::SimulateArgs),
    /// Train one neural time-stepper (a preset or a config file, with overrides).
    Train(Box<train::TrainArgs>),
    /// Train and evaluate a grid of variants × seeds; print the paper's table. Its subcommands
    /// run a study as independent cells (plan, run-cell, merge, status, slurm).
    Study(Box<study::StudyCommand>),
    /// Network-size convergence slopes of a results file, per architecture and mode.
    Slopes(slopes::SlopesArgs),
    /// The paper's ratios against the error horizon, re-scored exactly from every test.
    Horizons(horizons::HorizonsArgs),
    /// The committed runs' tables in the README and the book: checked, or rewritten (--write).
    DocsTables(docs_tables::DocsTablesArgs),
    /// Write the committed runs as the published page reads them (`scripts/build-site.sh`).
    SiteResults(site_results::SiteResultsArgs),
    /// Make the files the systems ship beside the page (Kolmogorov's spun-up states and frames).
    Assets(assets::AssetsArgs),
    /// Benchmarks.
    Bench {
        #[command(subcommand)]
        target: BenchTarget,
    },
}

#[derive(Debug, Subcommand)]
enum BenchTarget {
    /// A system's solver throughput and training-set generation time (`--system`, default ks:
    /// 36 trajectories × 48 points).
    Solver(bench_solver::BenchSolverArgs),
    /// A system's developed-flow statistics (vorticity rms, integral time scale) and its
    /// solvers' speed and stability (`--system`: a system that has such a bench).
    Statistics(bench_statistics::BenchStatisticsArgs),
    /// Training iterations/s of the six variants at the study's default network (CPU backend).
    Train(bench_train::BenchTrainArgs),
}

/// A bad argument or file (exit code 2), or a failure while running.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Simulate(#[from] SimulateError),
    #[error(transparent)]
    Train(#[from] TrainError),
    #[error(transparent)]
    Study(#[from] StudyError),
    #[error("the study stopped: {0}")]
    Run(String),
    #[error("cannot merge: {0}")]
    Merge(String),
    #[error("cannot read {path}: {message}")]
    File { path: String, message: String },
    #[error("failed to write output: {0}")]
    Output(String),
    /// Stopped by Ctrl-C with what is done kept (exit 130).
    #[error("{0}")]
    Interrupted(String),
}

/// Parses, runs, and maps errors to exit code 2 with a one-line message.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help / --version.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            let rendered = err.to_string();
            let line = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("{line}");
            return ExitCode::from(USAGE_ERROR);
        }
    };
    let result = match cli.command {
        Command::Simulate(args) => simulate::simulate(&args),
        Command::Train(args) => train::train(&args),
        Command::Study(args) => study::dispatch(&args),
        Command::Slopes(args) => slopes::slopes(&args),
        Command::Horizons(args) => horizons::horizons(&args),
        Command::Assets(args) => assets::assets(&args),
        Command::SiteResults(args) => site_results::site_results(&args),
        Command::DocsTables(args) => docs_tables::docs_tables(&args),
        Command::Bench {
            target: BenchTarget::Solver(args),
        } => bench_solver::bench_solver(&args),
        Command::Bench {
            target: BenchTarget::Train(args),
        } => bench_train::bench_train(&args),
        Command::Bench {
            target: BenchTarget::Statistics(args),
        } => bench_statistics::bench_statistics(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Interrupted(what)) => {
            eprintln!("{what}");
            ExitCode::from(INTERRUPTED)
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(USAGE_ERROR)
        }
    }
}

/// `value` as a `usize`, or a usage error naming `--name`.
pub fn non_negative(name: &str, value: i64) -> Result<usize, CliError> {
    usize::try_from(value)
        .map_err(|_| CliError::Usage(format!("--{name} must be non-negative, got {value}")))
}
