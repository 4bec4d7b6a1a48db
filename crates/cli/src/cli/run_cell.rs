//! `unroll-lab study run-cell`: one cell of a plan or a list, run `--jobs` at a time after
//! making the study's data once, each result written into the cells' directory as it
//! finishes; cells already done are skipped, trainings are checkpointed and resumed.

use std::path::{Path, PathBuf};

use clap::Args;

use super::cell_threads::{run_cells, units, Heard, Next};
use super::cells::{failure_path, read_plan, result_path, to_json, write_atomic, write_or_keep};
use super::checkpoints::{
    checkpoint_holding, checkpoint_note, held_cells, period, remove_checkpoint, Checkpoints,
};
use super::interrupt;
use super::knobs::RunnerArgs;
use super::{output, CliError};
use unroll_core::study::cells::cell::{CellFailure, CellResult};
use unroll_core::study::cells::merge::CellState;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::prepared::Prepared;
use unroll_core::study::run::driver::{RunEvent, TrainingFinished};

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
    runner: RunnerArgs,
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
pub fn parse_seconds(text: &str) -> Result<f64, String> {
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

pub fn run_cell(args: &RunCellArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    let todo = cells_to_run(&plan, args)?;
    if todo.is_empty() {
        return Ok(());
    }
    for &cell in &todo {
        eprintln!("cell {cell} ({}): running", plan.cells[cell].label);
    }
    args.runner.device().device().map_err(CliError::Usage)?;
    let checkpoints = checkpoints(args);
    if checkpoints.is_some() {
        interrupt::install();
    }
    let cells = Cells {
        plan: &plan,
        dir: &args.out,
        runner: &args.runner,
        checkpoints,
        say_each: true,
    };
    run_into(cells, &cells.units(&todo), &todo, |_| Next::Go)
}

/// Where a run of cells writes and how: the plan, the cells' directory (results, failures,
/// checkpoints), the runner's flags, the checkpoints, and whether each finished cell is named.
#[derive(Clone, Copy)]
pub struct Cells<'a> {
    pub plan: &'a StudyPlan,
    pub dir: &'a Path,
    pub runner: &'a RunnerArgs,
    pub checkpoints: Option<Checkpoints<'a>>,
    pub say_each: bool,
}

impl Cells<'_> {
    /// The units `todo` runs as: a cell with a checkpoint resumes with the cells it holds (an
    /// ensemble's members); the others of a variant may train together.
    pub fn units(&self, todo: &[usize]) -> Vec<Vec<usize>> {
        let together = self.runner.ensembles();
        units(self.plan, todo, together, |cell| {
            held_cells(self.plan, cell, self.dir)
        })
    }
}

/// Runs the cells `todo` (none done yet), as `units` ([`Cells::units`]), `--jobs` at a time
/// into `cells.dir`: each result as it finishes, each failure recorded beside it, the trainings
/// checkpointed and resumed; `also` hears every event first. Says why each unfinished cell is
/// left so; the first failure is the error.
pub fn run_into(
    cells: Cells<'_>,
    units: &[Vec<usize>],
    todo: &[usize],
    mut also: impl FnMut(&Heard) -> Next,
) -> Result<(), CliError> {
    let plan = cells.plan;
    let mut record = Record {
        plan,
        out: cells.dir,
        say_each: cells.say_each,
        baseline: None,
        finished: Vec::new(),
        failed: None,
    };
    run_cells(
        plan,
        units,
        cells.runner.jobs.jobs(),
        cells.runner.device(),
        cells.checkpoints,
        |heard| {
            let next = also(&heard);
            record.heard(heard.cell, heard.event);
            next
        },
    );
    let stopped_by = if interrupt::requested() {
        Some("the stop asked for")
    } else {
        cells
            .checkpoints
            .and_then(|c| c.stop_after_secs)
            .map(|_| "the time limit")
    };
    record.left_over(todo.to_vec(), stopped_by);
    record.failed.map_or(Ok(()), Err)
}

/// The cells of `args` that are not done yet, after checking that every index is in the plan
/// and the output directory is writable; a file in the way of a cell is a usage error.
fn cells_to_run(plan: &StudyPlan, args: &RunCellArgs) -> Result<Vec<usize>, CliError> {
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
        match CellState::read(plan, cell, Some(&text), None) {
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
    Ok(todo)
}

/// Where and how often the running cells are checkpointed, if at all.
fn checkpoints(args: &RunCellArgs) -> Option<Checkpoints<'_>> {
    (args.checkpoint_every > 0.0 || args.stop_after.is_some()).then_some(Checkpoints {
        dir: &args.out,
        every_secs: period(args.checkpoint_every),
        stop_after_secs: args.stop_after,
    })
}

/// What a run of cells has written so far: the study's data once made (for the results'
/// baseline and samples), the cells finished, and the first failure.
struct Record<'a> {
    plan: &'a StudyPlan,
    out: &'a Path,
    say_each: bool,
    baseline: Option<Prepared>,
    finished: Vec<usize>,
    failed: Option<CliError>,
}

impl Record<'_> {
    /// Handles one event of cell `cell`'s unit.
    fn heard(&mut self, cell: usize, event: RunEvent) {
        match event {
            RunEvent::DataReady(prepared) => self.baseline = Some(*prepared),
            RunEvent::TrainingFinished(training) => self.write_result(&training),
            RunEvent::Error(message) => self.fail(cell, CliError::Run(message)),
            _ => {}
        }
    }

    /// Writes the result of a finished training (a write that fails fails the cell).
    fn write_result(&mut self, training: &TrainingFinished) {
        let cell = training.cell;
        let mut result = CellResult::new(self.plan, training);
        if let Some(prepared) = &self.baseline {
            result.baseline_tests = prepared.baseline_tests.clone();
            result.samples = prepared.samples.clone();
        }
        let path = result_path(self.out, cell);
        match to_json(&result).and_then(|text| write_or_keep(&path, &text, self.out)) {
            Ok(()) => {
                self.finished.push(cell);
                let _ = std::fs::remove_file(failure_path(self.out, cell));
                remove_checkpoint(self.out, cell);
                if !self.say_each {
                    return;
                }
                println!(
                    "cell {cell} ({}) done in {:.1} s ({:.1} s of it making the data): wrote {}",
                    result.label,
                    result.wall_secs,
                    result.data_secs,
                    path.display()
                );
            }
            Err(err) => self.fail(cell, err),
        }
    }

    /// Records the failure of cell `cell` beside the cells, and keeps the first failure.
    fn fail(&mut self, cell: usize, err: CliError) {
        let record = CellFailure::new(self.plan, cell, &err);
        if let Err(write) =
            to_json(&record).and_then(|t| write_atomic(&failure_path(self.out, cell), &t))
        {
            eprintln!("could not record the failure of cell {cell}: {write}");
        }
        eprintln!(
            "cell {cell} ({}) failed: {err}",
            self.plan.cells[cell].label
        );
        self.failed.get_or_insert(err);
    }

    /// Says why each cell of `todo` that did not finish is left so, and fails those that were
    /// never run because the study's data could not be made (unless a failure was heard).
    fn left_over(&mut self, todo: Vec<usize>, stopped_by: Option<&str>) {
        let heard_failing = self.failed.is_some();
        let left: Vec<usize> = todo
            .into_iter()
            .filter(|c| !self.finished.contains(c))
            .collect();
        for cell in left {
            if let Some(why) = unfinished(self.plan, cell, self.out, stopped_by) {
                println!("cell {cell} ({}): {why}", self.plan.cells[cell].label);
            } else if !heard_failing {
                let why = CliError::Run("not run: the study's data could not be made".into());
                self.fail(cell, why);
            }
        }
    }
}

/// Why cell `cell` is left unfinished without failing, if it is: its training is checkpointed,
/// or the stop (`stopped_by`: the time limit, Ctrl-C) came before it started (or before its
/// training could be saved).
fn unfinished(
    plan: &StudyPlan,
    cell: usize,
    dir: &Path,
    stopped_by: Option<&str>,
) -> Option<String> {
    match checkpoint_holding(plan, cell, dir) {
        Ok(Some((holder, checkpoint))) => Some(format!(
            "{}: a rerun resumes there",
            checkpoint_note(plan, cell, holder, &checkpoint)
        )),
        _ => stopped_by.map(|by| {
            format!("not finished before {by}, and no checkpoint: a rerun starts it afresh")
        }),
    }
}
