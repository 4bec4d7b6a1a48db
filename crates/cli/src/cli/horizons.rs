//! `unroll-lab horizons FILE [--horizons 1,12,24]`: the paper's ratios (P-WIG / C-NOG, NOG / ONE
//! and WIG / ONE per mode, ratio of means) against the error horizon, each horizon re-scored
//! exactly from the per-test curves the results file keeps.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use unroll_core::study::data::results::StudyResults;
use unroll_report::horizons::{default_horizons, horizon_rows, horizon_table};

#[derive(Debug, Args)]
pub struct HorizonsArgs {
    /// A results JSON (schema unroll-lab/results@1) that keeps its per-test curves.
    file: PathBuf,
    /// The horizons, comma-separated (default: 1–16, then every 4th to 40, every 20th to 200).
    #[arg(long, value_delimiter = ',')]
    horizons: Vec<usize>,
}

pub fn horizons(args: &HorizonsArgs) -> Result<(), CliError> {
    let results = read_results(&args.file)?;
    let longest = results.longest_horizon().unwrap_or(0);
    let horizons = if args.horizons.is_empty() {
        default_horizons(longest)
    } else {
        args.horizons.clone()
    };
    let rows = horizon_rows(&results, &horizons)
        .map_err(|err| CliError::Usage(format!("{}: {err}", args.file.display())))?;
    println!(
        "relative error at each horizon H (the paper's: 12), re-scored from every test; ratios \
         to ONE are the ratio of the seeds' means (ks_eval.py)"
    );
    print!("{}", horizon_table(&rows));
    Ok(())
}

/// The results file at `path`, or a message naming it.
pub fn read_results(path: &std::path::Path) -> Result<StudyResults, CliError> {
    let text = std::fs::read_to_string(path).map_err(|err| CliError::File {
        path: path.display().to_string(),
        message: err.to_string(),
    })?;
    StudyResults::from_json(&text).map_err(|err| CliError::File {
        path: path.display().to_string(),
        message: err.to_string(),
    })
}
