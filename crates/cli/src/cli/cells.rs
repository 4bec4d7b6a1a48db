//! The cells' output directory of `unroll-lab study plan | run-cell | merge | status`: one file
//! per cell (`cell-00003.json`, or `cell-00003.failed.json` for a failure), each written
//! atomically (temporary file + rename), so any number of machines can run cells into one
//! shared directory and a rerun resumes; the plan file they all read.

use std::path::{Path, PathBuf};

use super::{output, CliError};
use unroll_core::study::cells::merge::CellState;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::system::System;

/// The result file of cell `index` in `dir`.
pub fn result_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("cell-{index:05}.json"))
}

/// The failure record of cell `index` in `dir`.
pub fn failure_path(dir: &Path, index: usize) -> PathBuf {
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
pub fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let partial = path.with_file_name(format!(".{name}.partial"));
    let fail = |err: std::io::Error| CliError::Output(format!("{}: {err}", path.display()));
    std::fs::write(&partial, text).map_err(fail)?;
    std::fs::rename(&partial, path).map_err(fail)
}

pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string(value).map_err(|e| CliError::Output(e.to_string()))
}

/// Writes a cell's result atomically; when that fails the cell fails, and its result is kept as
/// `unroll-lab-kept-<pid>-cell-NNNNN.json` beside the cells (else in the working or temporary
/// folder), never written to `path` by another route (a half-written result must not count).
pub fn write_or_keep(path: &Path, text: &str, cells: &Path) -> Result<(), CliError> {
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
