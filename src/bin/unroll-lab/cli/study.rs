//! `unroll-lab study`: a whole grid (modes × modalities × sizes × horizons × seeds) trained,
//! evaluated on the test set and printed in the paper's layout; results JSON and CSV written.
//! The knobs are the browser's (one table, [`super::knobs`]); the study runs through the same
//! driver as the page, its events drive the progress bar.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use super::knobs::KnobArgs;
use super::{cells, slurm, CliError};
use unroll_lab::experiment::{Experiment, Knob, Target, Value};
use unroll_lab::numerics::backend;
use unroll_lab::numerics::study::cost::{calibrate, cost};
use unroll_lab::numerics::study::driver::{
    Driver, RunEvent, TickPolicy, NATIVE_ITERATIONS_PER_TICK,
};
use unroll_lab::numerics::study::Preset;
use unroll_lab::numerics::system::System;
use unroll_lab::report::results::{ResultsText, StudyResults};
use unroll_lab::report::units::cost_summary;

/// `unroll-lab study [flags]` runs a study in this process; its subcommands split one into
/// cells for a cluster.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct StudyCommand {
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    run: StudyArgs,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Write every cell (one training + its evaluation) of a study, with its cost, to a plan.
    Plan(cells::PlanArgs),
    /// Run one cell of a plan; its result is written atomically into the output directory.
    RunCell(cells::RunCellArgs),
    /// Aggregate the cells of a plan into the results file `study` would have written.
    Merge(cells::MergeArgs),
    /// List the done, missing and failed cells and the array indices to resubmit.
    Status(cells::StatusArgs),
    /// Write Slurm batch scripts: a job array over the cells and a merge job after it.
    Slurm(slurm::SlurmArgs),
}

/// Runs `unroll-lab study` or one of its subcommands.
pub fn dispatch(command: &StudyCommand) -> Result<(), CliError> {
    match &command.action {
        None => study(&command.run),
        Some(Action::Plan(args)) => cells::plan(args),
        Some(Action::RunCell(args)) => cells::run_cell(args),
        Some(Action::Merge(args)) => cells::merge(args),
        Some(Action::Status(args)) => cells::status(args),
        Some(Action::Slurm(args)) => slurm::slurm(args),
    }
}

#[derive(Debug, Args)]
pub struct StudyArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: Preset,
    #[command(flatten)]
    knobs: KnobArgs<false>,
    /// Results JSON (schema unroll-lab/results@1).
    #[arg(long, default_value = "results.json")]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// No progress bar and no estimate.
    #[arg(long)]
    quiet: bool,
}

/// The experiment of `preset` with the knobs given on the command line (a bad knob is a usage
/// error naming its flag).
pub fn experiment(preset: Preset, knobs: &KnobArgs<false>) -> Result<Experiment, CliError> {
    let system = match knobs.overrides.get(Knob::System) {
        Some(Value::System(system)) => *system,
        _ => System::default(),
    };
    let mut experiment = Experiment::defaults_for(system, preset, Target::Native);
    experiment
        .apply(&knobs.overrides)
        .map_err(|(knob, problem)| {
            let text = knobs
                .overrides
                .get(knob)
                .map(ToString::to_string)
                .unwrap_or_default();
            CliError::Usage(problem.for_cli(knob, &text))
        })?;
    Ok(experiment)
}

fn study(args: &StudyArgs) -> Result<(), CliError> {
    let experiment = experiment(args.preset, &args.knobs)?;
    let config = experiment.study_config();
    let system = config.system.physics();
    config.validate(system)?;
    let clock = Instant::now();
    let now: Rc<dyn Fn() -> f64> = Rc::new(move || clock.elapsed().as_secs_f64());
    let device = backend::cpu();
    if !args.quiet {
        let rate = pollster::block_on(calibrate(System::default().physics(), &device, &*now)).ok();
        eprintln!("estimate: {}", cost_summary(&cost(&config, system), rate));
    }
    let mut driver = Driver::new(
        config,
        System::physics,
        &device,
        now.clone(),
        TickPolicy::Fixed(NATIVE_ITERATIONS_PER_TICK),
    )?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(1000)
    };
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {percent:>3}%  ETA {eta}  {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut results = None;
    while !driver.stopped() {
        for event in pollster::block_on(driver.tick()) {
            match event {
                RunEvent::Progress(progress) => {
                    bar.set_position((progress.fraction * 1000.0) as u64);
                    bar.set_message(progress.description);
                }
                RunEvent::Losses(_) | RunEvent::DataReady(_) | RunEvent::TrainingFinished(_) => {}
                RunEvent::VariantFinished(done) => bar.println(format!(
                    "{}: relative error {:.3e} ± {:.1e}",
                    done.id.label(),
                    done.metrics.relative_error.mean,
                    done.metrics.relative_error.std
                )),
                RunEvent::Finished { results: r, .. } => results = Some(*r),
                RunEvent::Error(message) => return Err(CliError::Run(message)),
            }
        }
    }
    bar.finish_and_clear();
    let results = results.ok_or_else(|| CliError::Run("the study ended without results".into()))?;
    write_results(&results, &args.out, args.csv.as_deref())?;
    println!(
        "study '{}' with {} seed(s): {:.1} s; wrote {}",
        results.preset,
        experiment.seeds,
        results.wall_secs,
        args.out.display()
    );
    Ok(())
}

/// Writes the results JSON (and its CSV view) and prints the table (and, for a sizes grid, the
/// slopes).
pub fn write_results(
    results: &StudyResults,
    out: &Path,
    csv: Option<&Path>,
) -> Result<(), CliError> {
    write(
        out,
        &serde_json::to_string(results).map_err(|e| CliError::Output(e.to_string()))?,
    )?;
    if let Some(csv) = csv {
        write(csv, &results.to_csv())?;
    }
    println!("{}", results.table());
    if results.preset == Preset::Sizes {
        super::slopes::print_slopes(results);
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|err| CliError::Output(format!("{}: {err}", path.display())))
}
