//! `unroll-lab study`: a whole grid (modes × modalities × sizes × horizons × seeds) trained,
//! evaluated on the test set and printed in the paper's layout; results JSON and CSV written.
//! The knobs are the browser's (one table, [`super::knobs`]); the trainings run `--jobs` at a
//! time as the page's worker pool runs them ([`super::cell_threads`]), their events drive the progress
//! display, and the results are assembled as the page assembles them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::cell_threads::{Heard, Next};
use super::checkpoints::{period, Checkpoints};
use super::interrupt;
use super::knobs::{experiment, KnobArgs, RunnerArgs};
use super::output::write_results;
use super::run_cell::{parse_seconds, run_into, Cells};
use super::study_work::StudyWork;
use super::{
    cell_adopt, cell_extend, cell_merge, cell_plan, cell_status, output, run_cell, slurm, CliError,
};
use unroll_core::backend;
use unroll_core::study::cells::cost::{calibrate, cost};
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::run::driver::{RunEvent, TrainingFinished};
use unroll_core::study::run::runner::Study;
use unroll_core::system::config::{Preset, StudyConfig};
use unroll_core::system::System;
use unroll_pool::pool::Assembly;
use unroll_report::units::cost_summary;

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
    Plan(cell_plan::PlanArgs),
    /// Run one cell of a plan; its result is written atomically into the output directory.
    RunCell(run_cell::RunCellArgs),
    /// Aggregate the cells of a plan into the results file `study` would have written.
    Merge(cell_merge::MergeArgs),
    /// List the done, missing and failed cells and the array indices to resubmit.
    Status(cell_status::StatusArgs),
    /// Write Slurm batch scripts: a job array over the cells and a merge job after it.
    Slurm(slurm::SlurmArgs),
    /// Take another plan's finished cells that are cells of this plan (same training, same
    /// tests) instead of training them again.
    Adopt(cell_adopt::AdoptArgs),
    /// Write a plan's study with more seeds (the old seeds first), for `adopt` to fill.
    Extend(cell_extend::ExtendArgs),
}

/// Runs `unroll-lab study` or one of its subcommands.
pub fn dispatch(command: &StudyCommand) -> Result<(), CliError> {
    match &command.action {
        None => study(&command.run),
        Some(Action::Plan(args)) => cell_plan::plan(args),
        Some(Action::RunCell(args)) => run_cell::run_cell(args),
        Some(Action::Merge(args)) => cell_merge::merge(args),
        Some(Action::Status(args)) => cell_status::status(args),
        Some(Action::Slurm(args)) => slurm::slurm(args),
        Some(Action::Adopt(args)) => cell_adopt::adopt_cells(args),
        Some(Action::Extend(args)) => cell_extend::extend(args),
    }
}

#[derive(Debug, Args)]
pub struct StudyArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: Preset,
    #[command(flatten)]
    knobs: KnobArgs<false>,
    #[command(flatten)]
    runner: RunnerArgs,
    /// Results JSON (schema unroll-lab/results@1).
    #[arg(long, default_value = "results.json")]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// No progress bar and no estimate.
    #[arg(long)]
    quiet: bool,
    /// The study's work directory: its plan, finished cells and the running trainings'
    /// checkpoints. Run the same command again to resume a stopped or killed study; removed
    /// once the results are written. Default: the --out path with `.cells` appended.
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Seconds between two checkpoints of each running training (a killed study loses at most
    /// that much of each; 0: only when stopped by Ctrl-C).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = parse_seconds)]
    checkpoint_every: f64,
    /// Write the study's data (training trajectories f32, test truths f64, baseline metrics:
    /// `Prepared` JSON, floats as base64) to this file and stop: nothing is trained.
    #[arg(long, value_name = "FILE")]
    data_out: Option<PathBuf>,
}

fn study(args: &StudyArgs) -> Result<(), CliError> {
    let experiment = experiment(args.preset, &args.knobs)?;
    let config = experiment.study_config();
    config.validate(config.system.physics())?;
    if let Some(path) = &args.data_out {
        return write_data(config, path);
    }
    output::writable_file(&args.out, "out")?;
    if let Some(csv) = &args.csv {
        output::writable_file(csv, "csv")?;
    }
    args.runner.device().device().map_err(CliError::Usage)?;
    if !args.quiet {
        print_estimate(&config, args.runner.jobs.jobs());
    }
    let plan = StudyPlan::new(config, System::description, None)?;
    let work = StudyWork::open(&args.out, args.work.as_deref(), &plan)?;
    interrupt::install();
    let clock = Instant::now();
    let ran = run_study(&plan, &work, args);
    let before = work.add_seconds(clock.elapsed().as_secs_f64());
    let (times, jobs) = ran.map_err(|err| kept(err, &work))?;
    let left = work.todo(&plan)?.len();
    if left > 0 {
        return Err(CliError::Interrupted(format!(
            "stopped with {} of {} cells done: run the same command again to resume from {}",
            plan.cells.len() - left,
            plan.cells.len(),
            work.dir.display()
        )));
    }
    let mut results = work.merge(&plan)?;
    results.wall_secs = before + clock.elapsed().as_secs_f64();
    write_results(&results, &args.out, args.csv.as_deref(), &[])?;
    work.remove();
    println!(
        "study '{}' with {} seed(s): {:.1} s on {jobs} thread(s); wrote {}",
        results.preset,
        experiment.seeds,
        results.wall_secs,
        args.out.display()
    );
    if !args.quiet {
        eprintln!("{}", times.summary());
    }
    Ok(())
}

/// A study's failure, saying that what finished is kept for a rerun.
fn kept(err: CliError, work: &StudyWork) -> CliError {
    match err {
        CliError::Run(why) => CliError::Run(format!(
            "{why} (the finished cells are kept in {}: a rerun resumes)",
            work.dir.display()
        )),
        other => other,
    }
}

/// `--data-out FILE`: makes the study's data and baseline (no training) and writes them to
/// `path` as [`Prepared`](unroll_core::study::data::prepared::Prepared) JSON.
fn write_data(config: StudyConfig, path: &Path) -> Result<(), CliError> {
    output::writable_file(path, "data-out")?;
    let clock = Instant::now();
    let mut study = Study::new(
        config,
        System::physics,
        &backend::cpu(),
        Box::new(move || clock.elapsed().as_secs_f64()),
    )?;
    while !study.data_ready() {
        pollster::block_on(study.advance(1))?;
    }
    let prepared = study
        .prepared()
        .ok_or_else(|| CliError::Run("the data were not made".into()))?;
    let json = serde_json::to_string(&prepared).map_err(|e| CliError::Output(e.to_string()))?;
    output::write_kept(path, &json, &[])?;
    println!(
        "wrote the data of {} training trajectories and {} test sizes to {} ({:.1} s)",
        prepared.training.len(),
        prepared.tests.len(),
        path.display(),
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints the study's counted cost and its time at this machine's measured rate on `jobs`
/// threads.
fn print_estimate(config: &StudyConfig, jobs: usize) {
    let clock = Instant::now();
    let rate = pollster::block_on(calibrate(config.system.physics(), &backend::cpu(), &|| {
        clock.elapsed().as_secs_f64()
    }))
    .ok();
    // The rate is one thread's; `--jobs` trainings run at once, each on its own thread.
    let work = cost(config, config.system.physics());
    let threads = jobs.clamp(1, work.trainings.max(1));
    let rate = rate.map(|rate| rate * threads as f64);
    eprintln!(
        "estimate on {threads} thread(s): {}",
        cost_summary(&work, rate)
    );
}

/// Runs the cells of `plan` not done yet in `work`, `--jobs` at a time, each result written
/// there as it finishes and each training checkpointed: where the cells' time went, and the
/// threads used.
fn run_study(
    plan: &StudyPlan,
    work: &StudyWork,
    args: &StudyArgs,
) -> Result<(CellTimes, usize), CliError> {
    let cells = Cells {
        plan,
        dir: &work.dir,
        runner: &args.runner,
        checkpoints: Some(Checkpoints {
            dir: &work.dir,
            every_secs: period(args.checkpoint_every),
            stop_after_secs: None,
        }),
        say_each: false,
    };
    let todo = work.todo(plan)?;
    let units = cells.units(&todo);
    let jobs = args.runner.jobs.jobs().min(units.len()).max(1);
    let mut run = StudyRun {
        assembly: Assembly::new(plan.clone(), System::description, units.clone()),
        display: JobsDisplay::new(args.quiet, jobs),
        times: CellTimes::default(),
    };
    let ran = run_into(cells, &units, &todo, |heard| run.heard(heard));
    run.display.finish();
    ran.map(|()| (run.times, jobs))
}

/// The progress of a study being run in this process (the results are the cells' merge): the
/// fraction done, the display, the cells' times.
struct StudyRun {
    assembly: Assembly,
    display: JobsDisplay,
    times: CellTimes,
}

impl StudyRun {
    /// Takes in one event of a cell: its progress, or a finished training (its times, a line).
    fn heard(&mut self, heard: &Heard) -> Next {
        match &heard.event {
            RunEvent::Progress(progress) => {
                let fraction = self.assembly.progress(heard.unit, progress.fraction);
                self.display
                    .progress(heard.thread, fraction, &progress.description);
            }
            RunEvent::TrainingFinished(finished) => {
                self.times.add(finished);
                let cell = &self.assembly.plan().cells[finished.cell];
                let secs = finished.wall_secs;
                self.display
                    .println(format!("{} done in {secs:.1} s", cell.label));
            }
            _ => {}
        }
        Next::Go
    }
}

/// Where the cells' time went (summed over cells, so independent of `--jobs`).
#[derive(Debug, Default)]
struct CellTimes {
    cells: f64,
    data: f64,
    training: f64,
}

impl CellTimes {
    fn add(&mut self, finished: &TrainingFinished) {
        let training = &finished.outcome.training;
        self.cells += finished.wall_secs;
        self.data += finished.data_secs;
        self.training += training.iterations_done as f64 / training.iterations_per_sec.max(1e-9);
    }

    /// `cells' time 80.1 s: data 5.0 s, training 60.0 s, evaluation 15.1 s (19 %)`.
    fn summary(&self) -> String {
        let evaluation = (self.cells - self.data - self.training).max(0.0);
        format!(
            "cells' time {:.1} s: data {:.1} s, training {:.1} s, evaluation {:.1} s ({:.0} %)",
            self.cells,
            self.data,
            self.training,
            evaluation,
            100.0 * evaluation / self.cells.max(1e-9)
        )
    }
}

/// The progress display of trainings run at once: one bar for the study and one line per
/// thread (what it runs now); nothing when quiet.
pub struct JobsDisplay {
    bars: MultiProgress,
    study: ProgressBar,
    lines: Vec<ProgressBar>,
}

impl JobsDisplay {
    /// The display of `jobs` threads.
    pub fn new(quiet: bool, jobs: usize) -> Self {
        let bars = if quiet {
            MultiProgress::with_draw_target(ProgressDrawTarget::hidden())
        } else {
            MultiProgress::new()
        };
        let study = bars.add(ProgressBar::new(1000));
        if let Ok(style) =
            ProgressStyle::with_template("[{bar:30}] {percent:>3}%  ETA {eta}  {msg}")
        {
            study.set_style(style.progress_chars("=> "));
        }
        study.set_message(format!("{jobs} training(s) at once"));
        let lines = (0..jobs)
            .map(|_| {
                let line = bars.add(ProgressBar::new_spinner());
                if let Ok(style) = ProgressStyle::with_template("  {msg}") {
                    line.set_style(style);
                }
                line
            })
            .collect();
        Self { bars, study, lines }
    }

    /// The study's `fraction` done; thread `thread` is at `line`.
    pub fn progress(&self, thread: usize, fraction: f64, line: &str) {
        self.study.set_position((fraction * 1000.0) as u64);
        if let Some(bar) = self.lines.get(thread) {
            bar.set_message(format!("{}: {line}", thread + 1));
        }
    }

    /// A line above the bars.
    pub fn println(&self, line: String) {
        let _ = self.bars.println(line);
    }

    /// Clears the display.
    pub fn finish(&self) {
        for line in &self.lines {
            line.finish_and_clear();
        }
        self.study.finish_and_clear();
    }
}
