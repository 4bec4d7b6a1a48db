//! `unroll-lab study plan | run-cell | merge | status`: a study as independent cells in an
//! output directory, one file per cell (`cell-00003.json`, or `cell-00003.failed.json` for a
//! failure), each written atomically (temporary file + rename), so any number of machines can
//! run cells into one shared directory and a rerun resumes. `run-cell` takes one cell or a
//! list, run `--jobs` at a time after making the study's data once.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::checkpoints::{checkpoint_holding, held_cells, remove_checkpoint, Checkpoints};
use super::jobs::{list, run_cells, units, Next};
use super::knobs::{DeviceArg, EnsembleArg, JobsArg, KnobArgs};
use super::size_choice::{keep_sizes, parse_sizes, SizeList};
use super::study::{experiment, write_results};
use super::{output, CliError};
use unroll_lab::numerics::backend;
use unroll_lab::numerics::study::cells::cell::{CellCheckpoint, CellFailure, CellResult};
use unroll_lab::numerics::study::cells::cost::calibrate;
use unroll_lab::numerics::study::cells::merge::{self, CellState};
use unroll_lab::numerics::study::cells::plan::StudyPlan;
use unroll_lab::numerics::study::contract::config::Preset;
use unroll_lab::numerics::study::run::driver::RunEvent;
use unroll_lab::numerics::system::System;
use unroll_lab::report::units::{format_flops, format_seconds};

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: Preset,
    #[command(flatten)]
    knobs: KnobArgs<false>,
    /// The plan file to write.
    #[arg(long)]
    out: PathBuf,
    /// Do not measure this machine's FLOP rate (no time estimates in the plan).
    #[arg(long)]
    no_estimate: bool,
    /// Only these of the grid's network sizes, `C×D` comma-separated (e.g. `8x5,8x7`: the
    /// Kolmogorov `paper` preset's two smallest).
    #[arg(long, value_name = "C×D,…", value_parser = parse_sizes)]
    sizes: Option<SizeList>,
}

#[derive(Debug, Args)]
pub struct RunCellArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The cells' indices: one (a job array's task id) or a list with ranges (`0-7,9`).
    #[arg(long, alias = "cells", value_name = "LIST", value_parser = parse_cells)]
    cell: CellList,
    /// The output directory shared by all cells.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    jobs: JobsArg,
    #[command(flatten)]
    device: DeviceArg,
    #[command(flatten)]
    ensemble: EnsembleArg,
    /// Seconds between two checkpoints of a running cell's training (`cell-NNNNN.checkpoint`,
    /// resumed when the cell runs again; 0: none).
    #[arg(long, value_name = "SECS", default_value_t = 600.0, value_parser = parse_seconds)]
    checkpoint_every: f64,
    /// Stop after this many seconds: every cell in training saves its checkpoint and the run
    /// ends (cells making data or evaluating first reach training or finish); no thread starts
    /// a cell after its first. A rerun resumes. For a session's or a cluster job's time limit.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    stop_after: Option<f64>,
}

/// A non-negative, finite number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => Ok(secs),
        _ => Err(format!("{text:?} is not a number of seconds (0 or more)")),
    }
}

/// Cell indices, in the order given, without repeats.
#[derive(Debug, Clone)]
pub struct CellList(Vec<usize>);

/// `3`, `0-7` or `0-3,9,12-13`.
fn parse_cells(text: &str) -> Result<CellList, String> {
    let number = |part: &str| {
        part.trim()
            .parse::<usize>()
            .map_err(|_| format!("cells are whole numbers or ranges like 0-7, got '{text}'"))
    };
    let mut cells = Vec::new();
    for part in text.split(',') {
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if last < first {
            return Err(format!("the range {part} is empty"));
        }
        for cell in first..=last {
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
    }
    Ok(CellList(cells))
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The results JSON to write (schema unroll-lab/results@1).
    #[arg(long)]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Merge what is done and list the missing cells in the results.
    #[arg(long)]
    allow_partial: bool,
    /// The cells' output directory.
    dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The cells' output directory.
    dir: PathBuf,
}

/// The result file of cell `index` in `dir`.
pub fn result_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("cell-{index:05}.json"))
}

/// The failure record of cell `index` in `dir`.
fn failure_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("cell-{index:05}.failed.json"))
}

/// Reads and checks a plan file (a bad one is a usage error).
pub fn read_plan(path: &Path) -> Result<StudyPlan, CliError> {
    let text = std::fs::read_to_string(path).map_err(|err| CliError::File {
        path: path.display().to_string(),
        message: err.to_string(),
    })?;
    StudyPlan::from_json(&text, System::description)
        .map_err(|err| CliError::Usage(format!("{}: {err}", path.display())))
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename.
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let partial = path.with_file_name(format!(".{name}.partial"));
    let fail = |err: std::io::Error| CliError::Output(format!("{}: {err}", path.display()));
    std::fs::write(&partial, text).map_err(fail)?;
    std::fs::rename(&partial, path).map_err(fail)
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string(value).map_err(|e| CliError::Output(e.to_string()))
}

pub fn plan(args: &PlanArgs) -> Result<(), CliError> {
    let mut config = experiment(args.preset, &args.knobs)?.study_config();
    if let Some(sizes) = &args.sizes {
        keep_sizes(&mut config, sizes)?;
    }
    config.validate(config.system.physics())?;
    let rate = if args.no_estimate {
        None
    } else {
        let clock = Instant::now();
        pollster::block_on(calibrate(
            System::default().physics(),
            &backend::cpu(),
            &|| clock.elapsed().as_secs_f64(),
        ))
        .ok()
    };
    let plan = StudyPlan::new(config, System::description, rate)?;
    std::fs::write(&args.out, to_json(&plan)?)
        .map_err(|err| CliError::Output(format!("{}: {err}", args.out.display())))?;
    let each = plan.cells.iter().map(|c| c.flops).fold(0.0, f64::max);
    let time = |secs: Option<f64>| secs.map_or("not estimated".to_string(), format_seconds);
    println!(
        "plan {}: {} cells, {} in all ({}); the largest cell {} ({})",
        plan.hash,
        plan.cells.len(),
        format_flops(plan.flops),
        time(plan.estimated_secs),
        format_flops(each),
        time(plan.flop_rate.map(|r| each / r)),
    );
    println!(
        "estimates at this machine's measured rate; data generation (every cell makes the study's data) is not included"
    );
    println!("wrote {}", args.out.display());
    Ok(())
}

pub fn run_cell(args: &RunCellArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    for &cell in &args.cell.0 {
        plan.cell(cell)
            .map_err(|err| CliError::Usage(err.to_string()))?;
    }
    output::writable_dir(&args.out, "out")?;
    let mut todo = Vec::new();
    for &cell in &args.cell.0 {
        let path = result_path(&args.out, cell);
        let label = &plan.cells[cell].label;
        let Ok(text) = std::fs::read_to_string(&path) else {
            todo.push(cell);
            continue;
        };
        match CellState::read(&plan, cell, Some(&text), None) {
            CellState::Done(_) => println!("cell {cell} ({label}) is already done: skipped"),
            other => {
                let why = other.problem().unwrap_or_default();
                return Err(CliError::Usage(format!(
                    "{} is in the way ({why}): use another output directory, or remove it",
                    path.display()
                )));
            }
        }
    }
    if todo.is_empty() {
        return Ok(());
    }
    for &cell in &todo {
        eprintln!("cell {cell} ({}): running", plan.cells[cell].label);
    }
    let mut baseline = None;
    let mut finished = Vec::new();
    let mut failed: Option<CliError> = None;
    let fail = |cell: usize, err: CliError, failed: &mut Option<CliError>| {
        let record = CellFailure::new(&plan, cell, &err);
        if let Err(write) =
            to_json(&record).and_then(|t| write_atomic(&failure_path(&args.out, cell), &t))
        {
            eprintln!("could not record the failure of cell {cell}: {write}");
        }
        eprintln!("cell {cell} ({}) failed: {err}", plan.cells[cell].label);
        failed.get_or_insert(err);
    };
    args.device.device.device().map_err(CliError::Usage)?;
    let checkpoints =
        (args.checkpoint_every > 0.0 || args.stop_after.is_some()).then_some(Checkpoints {
            dir: &args.out,
            every_secs: match args.checkpoint_every {
                0.0 => f64::INFINITY,
                secs => secs,
            },
            stop_after_secs: args.stop_after,
        });
    // A cell with a checkpoint resumes with the cells it holds (an ensemble's members); the
    // others of a variant may train together.
    let together = args.ensemble.on(args.device.device);
    let units = units(&plan, &todo, together, |cell| {
        held_cells(&plan, cell, &args.out)
    });
    run_cells(
        &plan,
        &units,
        args.jobs.jobs(),
        args.device.device,
        checkpoints,
        |heard| {
            let cell = heard.cell;
            match heard.event {
                RunEvent::DataReady(prepared) => baseline = Some(*prepared),
                RunEvent::TrainingFinished(training) => {
                    let cell = training.cell;
                    let mut result = CellResult::new(&plan, &training);
                    if let Some(prepared) = &baseline {
                        result.baseline_tests = prepared.baseline_tests.clone();
                        result.samples = prepared.samples.clone();
                    }
                    let path = result_path(&args.out, cell);
                    let written =
                        to_json(&result).and_then(|text| write_or_keep(&path, &text, &args.out));
                    match written {
                        Ok(()) => {
                            finished.push(cell);
                            let _ = std::fs::remove_file(failure_path(&args.out, cell));
                            remove_checkpoint(&args.out, cell);
                            println!(
                            "cell {cell} ({}) done in {:.1} s ({:.1} s of it making the data): wrote {}",
                            result.label,
                            result.wall_secs,
                            result.data_secs,
                            path.display()
                        );
                        }
                        Err(err) => fail(cell, err, &mut failed),
                    }
                }
                RunEvent::Error(message) => fail(cell, CliError::Run(message), &mut failed),
                _ => {}
            }
            Next::Go
        },
    );
    let heard_failing = failed.is_some();
    for cell in todo.into_iter().filter(|c| !finished.contains(c)) {
        if let Some(why) = unfinished(&plan, cell, &args.out, args.stop_after) {
            println!("cell {cell} ({}): {why}", plan.cells[cell].label);
        } else if !heard_failing {
            let why = CliError::Run("not run: the study's data could not be made".into());
            fail(cell, why, &mut failed);
        }
    }
    failed.map_or(Ok(()), Err)
}

/// Writes a cell's result atomically; when that fails the cell fails, and its result is kept as
/// `unroll-lab-kept-<pid>-cell-NNNNN.json` beside the cells (else in the working or temporary
/// folder), never written to `path` by another route (a half-written result must not count).
fn write_or_keep(path: &Path, text: &str, cells: &Path) -> Result<(), CliError> {
    let Err(failed) = write_atomic(path, text) else {
        return Ok(());
    };
    let failed = failed.to_string();
    output::save_kept(path, &[cells], |to| {
        if to == path {
            return Err(failed.clone());
        }
        std::fs::write(to, text).map_err(|err| err.to_string())
    })
}

/// Why cell `cell` is left unfinished without failing, if it is: its training is checkpointed,
/// or the time limit came before it started (or before its training could be saved).
fn unfinished(
    plan: &StudyPlan,
    cell: usize,
    dir: &Path,
    stop_after: Option<f64>,
) -> Option<String> {
    match checkpoint_holding(plan, cell, dir) {
        Ok(Some((holder, checkpoint))) => Some(format!(
            "checkpointed at iteration {} of {} after {:.1} s{}: a rerun resumes there",
            checkpoint.training.trainer.iteration,
            plan.cells[cell].config.total_iterations(),
            checkpoint.wall_secs,
            in_ensemble(plan, holder, &checkpoint),
        )),
        _ if stop_after.is_some() => Some(
            "not finished before the time limit, and no checkpoint: a rerun starts it afresh"
                .to_string(),
        ),
        _ => None,
    }
}

/// ` (in the ensemble of cells 3, 4, 5, saved as cell 3)` for an ensemble's checkpoint, else
/// nothing.
fn in_ensemble(plan: &StudyPlan, holder: usize, checkpoint: &CellCheckpoint) -> String {
    match checkpoint.cells(plan) {
        Some(held) if held.len() > 1 => format!(
            " (in the ensemble of cells {}, saved as cell {holder})",
            list(&held)
        ),
        _ => String::new(),
    }
}

/// The state of every cell of `plan` in `dir`.
pub fn read_states(plan: &StudyPlan, dir: &Path) -> Result<Vec<CellState>, CliError> {
    if !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    Ok(plan
        .cells
        .iter()
        .map(|spec| {
            let read = |path: PathBuf| std::fs::read_to_string(path).ok();
            let result = read(result_path(dir, spec.index));
            let failure = read(failure_path(dir, spec.index));
            CellState::read(plan, spec.index, result.as_deref(), failure.as_deref())
        })
        .collect())
}

pub fn merge(args: &MergeArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    output::writable_file(&args.out, "out")?;
    if let Some(csv) = &args.csv {
        output::writable_file(csv, "csv")?;
    }
    let states = read_states(&plan, &args.dir)?;
    let results = merge::merge(
        &plan,
        plan.config.system.physics(),
        &states,
        args.allow_partial,
    )
    .map_err(|err| CliError::Merge(err.to_string()))?;
    write_results(&results, &args.out, args.csv.as_deref(), &[&args.dir])?;
    if !results.missing_cells.is_empty() {
        println!(
            "partial: {} of {} cells missing (listed in the results)",
            results.missing_cells.len(),
            plan.cells.len()
        );
    }
    println!(
        "merged {} cells of plan {} ({:.1} s of cell time); wrote {}",
        plan.cells.len() - results.missing_cells.len(),
        plan.hash,
        results.wall_secs,
        args.out.display()
    );
    Ok(())
}

pub fn status(args: &StatusArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    let states = read_states(&plan, &args.dir)?;
    let problems = merge::problems(&plan, &states);
    let done = plan.cells.len() - problems.len();
    println!(
        "plan {}: {done} of {} cells done",
        plan.hash,
        plan.cells.len()
    );
    for problem in &problems {
        let resumes = match checkpoint_holding(&plan, problem.cell, &args.dir) {
            Ok(Some((holder, checkpoint))) => format!(
                "; checkpointed at iteration {} of {} after {:.1} s{}",
                checkpoint.training.trainer.iteration,
                plan.cells[problem.cell].config.total_iterations(),
                checkpoint.wall_secs,
                in_ensemble(&plan, holder, &checkpoint),
            ),
            Ok(None) => String::new(),
            Err(why) => format!("; its checkpoint is unusable: {why}"),
        };
        println!(
            "cell {} ({}): {}{resumes}",
            problem.cell, problem.label, problem.reason
        );
    }
    if problems.is_empty() {
        println!(
            "all done: merge with `unroll-lab study merge --plan {} --out results.json {}`",
            args.plan.display(),
            args.dir.display()
        );
        return Ok(());
    }
    let indices: Vec<usize> = problems.iter().map(|p| p.cell).collect();
    let array = super::slurm::array_ranges(&indices);
    println!("to resubmit: --array={array}");
    if let Some(command) = super::slurm::resubmit_command(&args.dir, &array) {
        println!("{command}");
    }
    Ok(())
}
