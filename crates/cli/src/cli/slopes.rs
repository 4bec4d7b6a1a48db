//! `unroll-lab slopes FILE [--skip N]`: the network-size convergence of a results file (the
//! CLI's or the browser's): per architecture, mode and modality the log–log slope of relative
//! error against parameters, over all sizes and without the `N` smallest (default 1), beside the
//! paper's and the numerical schemes' measured orders. `study --preset sizes` prints the same
//! after its table.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use unroll_core::study::data::convergence::{convergence_fits_skipping, ConvergenceFit};
use unroll_core::study::data::results::StudyResults;

#[derive(Debug, Args)]
pub struct SlopesArgs {
    /// A results JSON (schema unroll-lab/results@1).
    file: PathBuf,
    /// Also fit without this many of the smallest sizes of each group.
    #[arg(long, default_value_t = 1)]
    skip: usize,
    /// Re-score at this error horizon first (exact, from the per-test curves; the paper's: 12).
    #[arg(long)]
    horizon: Option<usize>,
}

/// Measured temporal orders of the KS core's order test (`cargo test measured_order`), quoted
/// beside the network convergence slopes.
const SCHEME_ORDERS: [(&str, f64); 2] = [("ETD1", 1.005), ("ETRK2", 1.915)];

pub fn slopes(args: &SlopesArgs) -> Result<(), CliError> {
    let mut results = super::horizons::read_results(&args.file)?;
    if let Some(horizon) = args.horizon {
        results = at_horizon(&results, horizon)?;
        println!("re-scored at H = {horizon}");
    }
    print_slopes_skipping(&results, args.skip);
    Ok(())
}

/// `results` re-scored at `horizon`, or a usage error saying why not.
pub fn at_horizon(results: &StudyResults, horizon: usize) -> Result<StudyResults, CliError> {
    results
        .at_horizon(horizon)
        .map_err(|err| CliError::Usage(format!("--horizon {horizon}: {err}")))
}

/// Least-squares log–log slopes of relative error vs parameters, per architecture, mode and
/// modality: of the seed means, and mean ± std of the per-seed fits; over every size, then
/// without the smallest (with ≥ 3 sizes); the paper's beside them, then the schemes' orders.
pub fn print_slopes(results: &StudyResults) {
    print_slopes_skipping(results, 1);
}

/// [`print_slopes`], the second table without the `skip` smallest sizes (none for 0).
fn print_slopes_skipping(results: &StudyResults, skip: usize) {
    let all = convergence_fits_skipping(results, 0);
    if all.is_empty() {
        println!("convergence: fewer than 2 network sizes, no slope");
    } else {
        println!(
            "convergence, relative error ∝ P^slope (slope of the seed means; mean ± std of the \
             per-seed slopes):"
        );
        print_fits("all sizes", &all);
        let tail = convergence_fits_skipping(results, skip);
        if skip > 0 && !tail.is_empty() {
            let title = match skip {
                1 => "without the smallest size".to_string(),
                n => format!("without the {n} smallest sizes"),
            };
            print_fits(&title, &tail);
        }
    }
    let orders: Vec<String> = SCHEME_ORDERS
        .iter()
        .map(|(name, order)| format!("{name} error ∝ N^−{order:.2} (Δt^{order:.2})"))
        .collect();
    println!(
        "numerical schemes (measured order, KS core): {}",
        orders.join(", ")
    );
}

fn print_fits(title: &str, fits: &[ConvergenceFit]) {
    println!("{title}:");
    println!(
        "{:<10} {:<8} {:<8} {:>13} {:>12} {:>18} {:>7}",
        "arch", "mode", "modality", "parameters", "slope(means)", "slope(seeds)", "paper"
    );
    for fit in fits {
        let (low, high) = (fit.points[0].0, fit.points[fit.points.len() - 1].0);
        println!(
            "{:<10} {:<8} {:<8} {:>13} {:>12} {:>18} {:>7}",
            fit.architecture.name(),
            fit.mode.name(),
            fit.modality.label(),
            format!("{low:.0}–{high:.0}"),
            fit.slope.map_or("—".into(), |s| format!("{s:.3}")),
            fit.slope_text(),
            fit.paper_slope().map_or("—".into(), |s| format!("{s:.3}")),
        );
    }
}
