//! `unroll-lab study`: a whole grid (modes × modalities × sizes × horizons × seeds) trained,
//! evaluated on the test set and printed in the paper's layout; results JSON and CSV written.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::metrics::log_log_slope;
use unroll_lab::numerics::nets::Architecture;
use unroll_lab::numerics::study::{NetSize, Phase, Study, StudyConfig, StudyPreset};
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
    /// The simulated system: ks (Kuramoto–Sivashinsky; Kolmogorov flow is not available yet).
    #[arg(long, default_value = "ks")]
    system: String,
    /// Network architecture of every variant: resnet | gcn.
    #[arg(long)]
    architecture: Option<String>,
    /// Channels C of every variant (not with --preset sizes, whose grid sets the sizes).
    #[arg(long, allow_negative_numbers = true)]
    channels: Option<i64>,
    /// Residual blocks D of every variant (not with --preset sizes).
    #[arg(long, allow_negative_numbers = true)]
    depth: Option<i64>,
    /// Unroll horizon m (not with --preset horizons, whose grid sets the horizons).
    #[arg(long, allow_negative_numbers = true)]
    horizon: Option<i64>,
    /// Warm-up steps w (detached, outside the loss).
    #[arg(long, allow_negative_numbers = true)]
    warmup: Option<i64>,
    /// Detach interval k of WIG (0 = never cut).
    #[arg(long, visible_alias = "detach", allow_negative_numbers = true)]
    detach_interval: Option<i64>,
    /// α of the transition mode, in [0, 1).
    #[arg(long, allow_negative_numbers = true)]
    alpha: Option<f64>,
    /// Initial learning rate.
    #[arg(long, visible_alias = "lr", allow_negative_numbers = true)]
    learning_rate: Option<f64>,
    /// Training domain scales s (L = 8·s), e.g. `0.9,1,1.1`.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    scales: Option<Vec<f64>>,
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
    apply_overrides(args, preset, &mut config)?;
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
        &serde_json::to_string(&results).map_err(|e| CliError::Output(e.to_string()))?,
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

fn count(name: &str, value: Option<i64>) -> Result<Option<usize>, CliError> {
    value.map(|v| super::non_negative(name, v)).transpose()
}

/// The system, network, unroll, α, learning-rate and domain-size flags, applied to the
/// preset's base config (and to the grid's single size / horizon where the preset does not fix
/// them), as `Experiment::study_config` does in the browser.
fn apply_overrides(
    args: &StudyArgs,
    preset: StudyPreset,
    config: &mut StudyConfig,
) -> Result<(), CliError> {
    if args.system != "ks" {
        return Err(CliError::Usage(format!(
            "unknown system '{}' (expected ks; Kolmogorov flow is not available yet)",
            args.system
        )));
    }
    let base = &mut config.base;
    if let Some(name) = args.architecture.as_deref() {
        base.net.architecture = Architecture::parse(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown architecture '{name}' (expected resnet or gcn)"
            ))
        })?;
    }
    let channels = count("channels", args.channels)?;
    let depth = count("depth", args.depth)?;
    if preset == StudyPreset::Sizes && (channels.is_some() || depth.is_some()) {
        return Err(CliError::Usage(
            "--channels and --depth do not apply to --preset sizes (its grid sets the network sizes)"
                .into(),
        ));
    }
    if channels.is_some() || depth.is_some() {
        base.net.channels = channels.unwrap_or(base.net.channels);
        base.net.depth = depth.unwrap_or(base.net.depth);
        config.sizes = vec![NetSize {
            channels: base.net.channels,
            depth: base.net.depth,
        }];
    }
    if let Some(horizon) = count("horizon", args.horizon)? {
        if preset == StudyPreset::Horizons {
            return Err(CliError::Usage(
                "--horizon does not apply to --preset horizons (its grid sets the horizons)".into(),
            ));
        }
        base.unroll.horizon = horizon;
        config.horizons = vec![horizon];
    }
    if let Some(warmup) = count("warmup", args.warmup)? {
        base.unroll.warmup = warmup;
    }
    if let Some(detach) = count("detach-interval", args.detach_interval)? {
        base.unroll.detach_interval = detach;
    }
    if let Some(alpha) = args.alpha {
        if !(alpha.is_finite() && (0.0..1.0).contains(&alpha)) {
            return Err(CliError::Usage(format!(
                "--alpha must be in [0, 1), got {alpha}"
            )));
        }
        base.alpha = alpha;
    }
    if let Some(lr) = args.learning_rate {
        if !(lr.is_finite() && lr > 0.0) {
            return Err(CliError::Usage(format!(
                "--learning-rate must be a positive number, got {lr}"
            )));
        }
        base.optimizer.learning_rate = lr;
    }
    if let Some(scales) = &args.scales {
        if let Some((_, twice)) = scales
            .iter()
            .enumerate()
            .find(|(i, s)| scales[..*i].contains(s))
        {
            return Err(CliError::Usage(format!("--scales lists {twice} twice")));
        }
        base.data.scales = scales.clone();
    }
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
