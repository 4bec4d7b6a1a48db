//! `unroll-lab train`: one training run from a preset or a config file, with overrides; writes
//! the weights (burn record) and `train.json` to `--out`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::nets::Architecture;
use unroll_lab::numerics::train::data::generate;
use unroll_lab::numerics::train::run::{run_blocking, Progress};
use unroll_lab::numerics::train::trainer::data_solver;
use unroll_lab::numerics::train::{Modality, Mode, Preset, TrainConfig, Trainer};
use unroll_lab::report::training::TrainReport;

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// quick | paper (default quick unless --config is given).
    #[arg(long, conflicts_with = "config")]
    preset: Option<String>,
    /// A JSON training config (as written in train.json's "config").
    #[arg(long)]
    config: Option<PathBuf>,
    /// predict | correct | transition.
    #[arg(long)]
    mode: Option<String>,
    /// α of the transition mode, in [0, 1).
    #[arg(long, allow_negative_numbers = true)]
    alpha: Option<f64>,
    /// one | nog | wig.
    #[arg(long)]
    modality: Option<String>,
    /// resnet | gcn.
    #[arg(long)]
    architecture: Option<String>,
    /// Channels C.
    #[arg(long, allow_negative_numbers = true)]
    channels: Option<i64>,
    /// Residual blocks D.
    #[arg(long, allow_negative_numbers = true)]
    depth: Option<i64>,
    /// Unroll horizon m.
    #[arg(long, allow_negative_numbers = true)]
    horizon: Option<i64>,
    /// Warm-up steps w (detached, outside the loss).
    #[arg(long, allow_negative_numbers = true)]
    warmup: Option<i64>,
    /// Detach interval k (WIG; 0 = never).
    #[arg(long, allow_negative_numbers = true)]
    detach_interval: Option<i64>,
    /// Iterations.
    #[arg(long, allow_negative_numbers = true)]
    iterations: Option<i64>,
    /// Windows per minibatch (ONE uses batch × m).
    #[arg(long, allow_negative_numbers = true)]
    batch: Option<i64>,
    /// Initial learning rate.
    #[arg(long, allow_negative_numbers = true)]
    learning_rate: Option<f64>,
    /// Seed (initial weights and minibatch schedule).
    #[arg(long, allow_negative_numbers = true)]
    seed: Option<i64>,
    /// NOG correction: run the coarse solver as a black box (f64 rustfft reference).
    #[arg(long)]
    black_box_solver: bool,
    /// Output directory (created).
    #[arg(long, default_value = "runs/train")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn usage(message: String) -> CliError {
    CliError::Usage(message)
}

fn count(name: &str, value: Option<i64>) -> Result<Option<usize>, CliError> {
    value.map(|v| super::non_negative(name, v)).transpose()
}

/// The config named by the arguments: preset or file, then every override, validated.
fn resolve_config(args: &TrainArgs) -> Result<TrainConfig, CliError> {
    let mode = args
        .mode
        .as_deref()
        .map(|name| {
            Mode::parse(name).ok_or_else(|| {
                usage(format!(
                    "unknown mode '{name}' (expected predict, correct or transition)"
                ))
            })
        })
        .transpose()?;
    let modality = args
        .modality
        .as_deref()
        .map(|name| {
            Modality::parse(name).ok_or_else(|| {
                usage(format!(
                    "unknown modality '{name}' (expected one, nog or wig)"
                ))
            })
        })
        .transpose()?;
    let mut config = match &args.config {
        Some(path) => read_config(path)?,
        None => {
            let name = args.preset.as_deref().unwrap_or("quick");
            let preset = Preset::parse(name).ok_or_else(|| {
                usage(format!("unknown preset '{name}' (expected quick or paper)"))
            })?;
            preset.config(
                mode.unwrap_or(Mode::Correct),
                modality.unwrap_or(Modality::Wig),
            )
        }
    };
    if let Some(mode) = mode {
        config.mode = mode;
    }
    if let Some(modality) = modality {
        config.modality = modality;
    }
    if let Some(name) = args.architecture.as_deref() {
        config.net.architecture = Architecture::parse(name).ok_or_else(|| {
            usage(format!(
                "unknown architecture '{name}' (expected resnet or gcn)"
            ))
        })?;
        // The study trained the GCN with 1e-3 (the CNN with 1e-4).
        let paper_preset = args.config.is_none() && args.preset.as_deref() == Some("paper");
        if paper_preset && config.net.architecture == Architecture::Gcn {
            config.optimizer.learning_rate = 1e-3;
        }
    }
    if let Some(alpha) = args.alpha {
        config.alpha = alpha;
    }
    if let Some(v) = count("channels", args.channels)? {
        config.net.channels = v;
    }
    if let Some(v) = count("depth", args.depth)? {
        config.net.depth = v;
    }
    if let Some(v) = count("horizon", args.horizon)? {
        config.unroll.horizon = v;
    }
    if let Some(v) = count("warmup", args.warmup)? {
        config.unroll.warmup = v;
    }
    if let Some(v) = count("detach-interval", args.detach_interval)? {
        config.unroll.detach_interval = v;
    }
    if let Some(v) = count("iterations", args.iterations)? {
        config.iterations = v;
    }
    if let Some(v) = count("batch", args.batch)? {
        config.batch = v;
    }
    if let Some(v) = count("seed", args.seed)? {
        config.seed = v as u64;
    }
    if let Some(lr) = args.learning_rate {
        config.optimizer.learning_rate = lr;
    }
    if args.black_box_solver {
        config.black_box_solver = true;
    }
    config.validate()?;
    Ok(config)
}

fn read_config(path: &Path) -> Result<TrainConfig, CliError> {
    let file_error = |message: String| CliError::File {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|err| file_error(err.to_string()))?;
    serde_json::from_str(&text).map_err(|err| file_error(format!("not a training config ({err})")))
}

fn progress_bar(iterations: usize, quiet: bool, label: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(iterations as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} it  {per_sec}  ETA {eta}  {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(label.to_string());
    bar
}

pub fn train(args: &TrainArgs) -> Result<(), CliError> {
    let config = resolve_config(args)?;
    let output = |err: std::io::Error| CliError::Output(format!("{}: {err}", args.out.display()));
    std::fs::create_dir_all(&args.out).map_err(output)?;
    let data_start = Instant::now();
    let trajectories = generate(&config.data, data_solver(48))?;
    let data_generation_secs = data_start.elapsed().as_secs_f64();
    let mut trainer = Trainer::new(config.clone(), &trajectories, &backend::cpu())?;
    let bar = progress_bar(config.iterations, args.quiet, &config.variant_label());
    let clock = Instant::now();
    let outcome = run_blocking(
        &mut trainer,
        &|| clock.elapsed().as_secs_f64(),
        &mut |progress: Progress| {
            bar.set_position(progress.iteration as u64);
            bar.set_message(format!("loss {:.3e}", progress.loss));
        },
    )?;
    bar.finish();
    let weights_path = args.out.join("weights.bpk");
    trainer
        .net()
        .clone()
        .into_record()
        .save(&weights_path)
        .map_err(|err| CliError::Output(format!("{}: {err}", weights_path.display())))?;
    let report = TrainReport::new(outcome, trainer.net().num_params(), data_generation_secs);
    let json =
        serde_json::to_string_pretty(&report).map_err(|err| CliError::Output(err.to_string()))?;
    std::fs::write(args.out.join("train.json"), json).map_err(output)?;
    match report.outcome.diverged_at {
        Some(k) => eprintln!("{}: diverged at step {k}", config.variant_label()),
        None => eprintln!(
            "{}: {} iterations in {:.1} s ({:.1} it/s), final loss {:.3e}; wrote {}",
            config.variant_label(),
            report.outcome.iterations_done,
            report.outcome.wall_secs,
            report.outcome.iterations_per_sec,
            report
                .outcome
                .loss_history
                .last()
                .copied()
                .unwrap_or(f32::NAN),
            args.out.display()
        ),
    }
    Ok(())
}
