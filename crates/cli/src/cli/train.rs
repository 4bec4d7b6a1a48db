//! `unroll-lab train`: one training run of any system from a preset or a config file, with
//! overrides; writes the weights (burn record) and `train.json` to `--out`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::knobs::KnobArgs;
use super::{output, CliError};
use unroll_core::backend;
use unroll_core::nets::Architecture;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::train::run::{run_blocking, Progress};
use unroll_core::train::{Modality, Mode, TrainConfig};
use unroll_report::experiment::check::check;
use unroll_report::experiment::{Knob, Target, Value};
use unroll_report::training::TrainReport;

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// quick | paper (sizes and horizons train at the quick budget; default quick unless
    /// --config is given).
    #[arg(long, conflicts_with = "config")]
    preset: Option<Preset>,
    /// The system (ks, kolmogorov, burgers, custom with --equation; default ks unless --config
    /// is given): its preset,
    /// through the registry.
    #[arg(long, conflicts_with = "config")]
    system: Option<System>,
    /// A JSON training config (as written in train.json's "config").
    #[arg(long)]
    config: Option<PathBuf>,
    /// predict | correct | transition.
    #[arg(long)]
    mode: Option<Mode>,
    /// one | nog | wig.
    #[arg(long)]
    modality: Option<Modality>,
    #[command(flatten)]
    knobs: KnobArgs<true>,
    /// Windows per minibatch (ONE uses batch × m).
    #[arg(long, allow_negative_numbers = true)]
    batch: Option<i64>,
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

fn count(name: &str, value: Option<i64>) -> Result<Option<usize>, CliError> {
    value.map(|v| super::non_negative(name, v)).transpose()
}

/// The config named by the arguments: preset or file, then every override (the shared knobs
/// checked against the native limits), validated.
fn resolve_config(args: &TrainArgs) -> Result<TrainConfig, CliError> {
    let mut config = match &args.config {
        Some(_) if args.knobs.equation.is_some() => {
            return Err(CliError::Usage(
                "--equation applies with --system custom, not with --config (the config's \
                 system carries its equation)"
                    .into(),
            ))
        }
        Some(path) => read_config(path)?,
        None => {
            let preset = args.preset.unwrap_or(Preset::Quick);
            let system = super::knobs::equation_system(args.system, args.knobs.equation.as_deref())
                .map_err(CliError::Usage)?;
            let system = system.unwrap_or_default().physics();
            let mut config = system.preset(preset, 1).base;
            config.mode = Mode::Correct;
            config.modality = Modality::Wig;
            config
        }
    };
    if let Some(mode) = args.mode {
        config.mode = mode;
    }
    if let Some(modality) = args.modality {
        config.modality = modality;
    }
    let overrides = &args.knobs.overrides;
    // The study trained the GCN with 1e-3 (the CNN with 1e-4).
    if args.preset == Some(Preset::Paper)
        && overrides.get(Knob::Architecture) == Some(&Value::Architecture(Architecture::Gcn))
    {
        config.optimizer.learning_rate = 1e-3;
    }
    for (knob, value) in overrides.iter() {
        check(*knob, value, Target::Native, config.system)
            .map_err(|problem| CliError::Usage(problem.for_cli(*knob, &value.to_string())))?;
        knob.write_train(&mut config, value);
    }
    if let Some(v) = count("batch", args.batch)? {
        config.batch = v;
    }
    if let Some(v) = count("seed", args.seed)? {
        config.seed = v as u64;
    }
    if args.black_box_solver {
        config.black_box_solver = true;
    }
    config.system.physics().validate(&config)?;
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
    output::writable_dir(&args.out, "out")?;
    let data_start = Instant::now();
    let system = config.system.physics();
    let trajectories = system.training_data(&config.data, &config.solver)?;
    let data_generation_secs = data_start.elapsed().as_secs_f64();
    let mut trainer = system.trainer(config.clone(), &trajectories, &backend::cpu())?;
    let label = config.variant_id().label();
    let bar = progress_bar(config.iterations, args.quiet, &label);
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
    let weights = output::save_kept(&args.out.join("weights.bpk"), &[], |path| {
        trainer
            .net()
            .clone()
            .into_record()
            .save(path)
            .map_err(|err| err.to_string())
    });
    let report = TrainReport::new(outcome, trainer.net().num_params(), data_generation_secs);
    let json =
        serde_json::to_string_pretty(&report).map_err(|err| CliError::Output(err.to_string()))?;
    output::write_kept(&args.out.join("train.json"), &json, &[]).and(weights)?;
    match report.outcome.diverged_at {
        Some(k) => eprintln!("{label}: diverged at step {k}"),
        None => eprintln!(
            "{label}: {} iterations in {:.1} s ({:.1} it/s), final loss {:.3e}; wrote {}",
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
