//! `unroll-lab study plan | run-cell | merge | status`: a study as independent cells in an
//! output directory, one file per cell (`cell-00003.json`, or `cell-00003.failed.json` for a
//! failure), each written atomically (temporary file + rename), so any number of machines can
//! run cells into one shared directory and a rerun resumes.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use clap::Args;

use super::knobs::KnobArgs;
use super::study::{experiment, write_results};
use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::study::cell::{self, CellFailure};
use unroll_lab::numerics::study::cost::calibrate;
use unroll_lab::numerics::study::merge::{self, CellState};
use unroll_lab::numerics::study::plan::StudyPlan;
use unroll_lab::numerics::study::Preset;
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
}

#[derive(Debug, Args)]
pub struct RunCellArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The cell's index (a job array's task id).
    #[arg(long)]
    cell: usize,
    /// The output directory shared by all cells.
    #[arg(long)]
    out: PathBuf,
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
    StudyPlan::from_json(&text, System::physics)
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
    let config = experiment(args.preset, &args.knobs)?.study_config();
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
    let plan = StudyPlan::new(config, System::physics, rate)?;
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
    let spec = plan
        .cell(args.cell)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|err| CliError::Output(format!("{}: {err}", args.out.display())))?;
    let path = result_path(&args.out, args.cell);
    if let Ok(text) = std::fs::read_to_string(&path) {
        match CellState::read(&plan, args.cell, Some(&text), None) {
            CellState::Done(_) => {
                println!(
                    "cell {} ({}) is already done: skipped",
                    args.cell, spec.label
                );
                return Ok(());
            }
            other => {
                let why = other.problem().unwrap_or_default();
                return Err(CliError::Usage(format!(
                    "{} is in the way ({why}): use another output directory, or remove it",
                    path.display()
                )));
            }
        }
    }
    eprintln!("cell {} ({}): running", args.cell, spec.label);
    let clock = Instant::now();
    let now: Rc<dyn Fn() -> f64> = Rc::new(move || clock.elapsed().as_secs_f64());
    let outcome = pollster::block_on(cell::run_cell(
        &plan,
        args.cell,
        System::physics,
        &backend::cpu(),
        now,
    ))
    .map_err(|err| CliError::Run(err.to_string()))
    .and_then(|result| {
        write_atomic(&path, &to_json(&result)?)?;
        Ok((result.wall_secs, result.data_secs))
    });
    let failure = failure_path(&args.out, args.cell);
    match outcome {
        Ok((secs, data_secs)) => {
            let _ = std::fs::remove_file(&failure);
            println!(
                "cell {} ({}) done in {secs:.1} s ({data_secs:.1} s of it making the data): wrote {}",
                args.cell,
                spec.label,
                path.display()
            );
            Ok(())
        }
        Err(err) => {
            let record = CellFailure::new(&plan, args.cell, &err);
            if let Err(write) = write_atomic(&failure, &to_json(&record)?) {
                eprintln!("could not record the failure: {write}");
            }
            Err(err)
        }
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
    let states = read_states(&plan, &args.dir)?;
    let results = merge::merge(
        &plan,
        plan.config.system.physics(),
        &states,
        args.allow_partial,
    )
    .map_err(|err| CliError::Merge(err.to_string()))?;
    write_results(&results, &args.out, args.csv.as_deref())?;
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
        println!(
            "cell {} ({}): {}",
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
