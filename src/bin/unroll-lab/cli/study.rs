//! `unroll-lab study`: a whole grid (modes × modalities × sizes × horizons × seeds) trained,
//! evaluated on the test set and printed in the paper's layout; results JSON and CSV written.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::metrics::log_log_slope;
use unroll_lab::numerics::study::{Phase, Study, StudyPreset};
use unroll_lab::numerics::train::{Modality, Mode};
use unroll_lab::report::results::StudyResults;

#[derive(Debug, Args)]
pub struct StudyArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: String,
    /// Seeds per variant.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
    seeds: i64,
    /// Override the iterations of every variant.
    #[arg(long, allow_negative_numbers = true)]
    iterations: Option<i64>,
    /// Evaluation rollout length for correlation time and stability (study: 750).
    #[arg(long, allow_negative_numbers = true)]
    rollout: Option<i64>,
    /// Restrict the modes, e.g. `correct` or `predict,correct`.
    #[arg(long, value_delimiter = ',')]
    modes: Option<Vec<String>>,
    /// Restrict the modalities, e.g. `one,nog`.
    #[arg(long, value_delimiter = ',')]
    modalities: Option<Vec<String>>,
    /// Results JSON (schema unroll-lab/results@1).
    #[arg(long, default_value = "results.json")]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Measured temporal orders of the KS core's order test (`cargo test measured_order`), quoted
/// beside the network convergence slopes.
const SCHEME_ORDERS: [(&str, f64); 2] = [("ETD1", 1.005), ("ETRK2", 1.915)];

pub fn study(args: &StudyArgs) -> Result<(), CliError> {
    let preset = StudyPreset::parse(&args.preset).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown preset '{}' (expected quick, paper, sizes or horizons)",
            args.preset
        ))
    })?;
    let seeds = super::non_negative("seeds", args.seeds)?;
    if seeds == 0 {
        return Err(CliError::Usage("--seeds must be at least 1".into()));
    }
    let mut config = preset.config(seeds);
    if let Some(iterations) = args.iterations {
        config.base.iterations = super::non_negative("iterations", iterations)?;
    }
    if let Some(rollout) = args.rollout {
        config.eval.rollout_steps = super::non_negative("rollout", rollout)?;
    }
    if let Some(modes) = &args.modes {
        config.modes = modes
            .iter()
            .map(|name| {
                Mode::parse(name).ok_or_else(|| {
                    CliError::Usage(format!(
                        "unknown mode '{name}' (expected predict, correct or transition)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(modalities) = &args.modalities {
        config.modalities = modalities
            .iter()
            .map(|name| {
                Modality::parse(name).ok_or_else(|| {
                    CliError::Usage(format!(
                        "unknown modality '{name}' (expected one, nog or wig)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
    }
    let clock = Instant::now();
    let mut study = Study::new(
        config,
        &backend::cpu(),
        Box::new(move || clock.elapsed().as_secs_f64()),
    )?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(1000)
    };
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {percent:>3}%  ETA {eta}  {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    loop {
        let progress = pollster::block_on(study.advance(20))?;
        bar.set_position((progress.fraction * 1000.0) as u64);
        let phase = match progress.phase {
            Phase::Data => "generating data".to_string(),
            Phase::Training => format!(
                "{} seed {} ({}/{}) it {}/{}",
                progress.variant,
                progress.seed,
                progress.job,
                progress.jobs,
                progress.iteration,
                progress.iterations
            ),
            Phase::Evaluating => format!("evaluating {} seed {}", progress.variant, progress.seed),
            Phase::Done => "done".into(),
        };
        bar.set_message(phase);
        if let Some(done) = &progress.finished_variant {
            bar.println(format!(
                "{}: relative error {:.3e} ± {:.1e}",
                done.label(),
                done.metrics.relative_error.mean,
                done.metrics.relative_error.std
            ));
        }
        if study.finished() {
            break;
        }
    }
    bar.finish_and_clear();
    let results = study.results(clock.elapsed().as_secs_f64());
    write(
        &args.out,
        &serde_json::to_string_pretty(&results).map_err(|e| CliError::Output(e.to_string()))?,
    )?;
    if let Some(csv) = &args.csv {
        write(csv, &results.to_csv())?;
    }
    println!("{}", results.table());
    if preset == StudyPreset::Sizes {
        print_slopes(&results);
    }
    println!(
        "study '{}' with {} seed(s): {:.1} s; wrote {}",
        results.preset,
        seeds,
        results.wall_secs,
        args.out.display()
    );
    Ok(())
}

fn write(path: &PathBuf, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|err| CliError::Output(format!("{}: {err}", path.display())))
}

/// Least-squares log–log slopes of relative error vs parameters, per mode.
fn print_slopes(results: &StudyResults) {
    for mode in ["predict", "correct"] {
        let points: Vec<(f64, f64)> = results
            .variants
            .iter()
            .filter(|v| v.mode == mode)
            .map(|v| (v.params as f64, v.metrics.relative_error.mean))
            .collect();
        match log_log_slope(&points) {
            Some(slope) => {
                println!("{mode}: error ∝ P^{slope:.3} (study: correction −1/3, prediction −1/4)")
            }
            None => println!("{mode}: not enough finite points for a slope"),
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
