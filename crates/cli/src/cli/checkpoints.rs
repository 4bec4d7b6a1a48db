//! `study run-cell`'s checkpoints: a running cell's training saved every `--checkpoint-every`
//! seconds, and once more when `--stop-after` ends the run, as `cell-00003.checkpoint`
//! (MessagePack, written atomically beside the cell's result) and resumed from there when the
//! cell runs again, so a cell longer than a session (or a cluster's time limit) still
//! finishes. An ensemble's training is saved once, as its first member's cell, and holds every
//! member ([`held_cells`], [`checkpoint_holding`]). The file goes once the cell's result is
//! written (an ensemble's with its first member's: the others are evaluated right after it, and
//! a run killed in between trains them afresh).

use std::path::{Path, PathBuf};

use unroll_core::study::cells::cell::CellCheckpoint;
use unroll_core::study::cells::plan::StudyPlan;

/// Where and how often the running cells are saved.
#[derive(Debug, Clone, Copy)]
pub struct Checkpoints<'a> {
    /// The cells' output directory.
    pub dir: &'a Path,
    /// Seconds between two saves of a running training (infinite: only at the stop).
    pub every_secs: f64,
    /// Seconds after the run's start at which every cell in training saves and stops, and no
    /// thread starts a cell after its first (`None`: run to the end).
    pub stop_after_secs: Option<f64>,
}

/// The seconds between two saves that `--checkpoint-every SECS` asks for (0: none but the one at
/// the stop).
pub fn period(secs: f64) -> f64 {
    if secs > 0.0 {
        secs
    } else {
        f64::INFINITY
    }
}

impl Checkpoints<'_> {
    /// True once the run is past its `stop_after_secs`, or Ctrl-C asked it to stop.
    pub fn time_is_up(&self, elapsed_secs: f64) -> bool {
        super::interrupt::requested()
            || self
                .stop_after_secs
                .is_some_and(|limit| elapsed_secs >= limit)
    }
}

/// The checkpoint file of cell `index` in `dir`.
pub fn checkpoint_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("cell-{index:05}.checkpoint"))
}

/// The checkpoint of cell `cell` of `plan` in `dir`: `Ok(None)` when there is none, `Err` (in
/// words) when the file is there but unreadable or of another plan or cell.
pub fn read_checkpoint(
    plan: &StudyPlan,
    cell: usize,
    dir: &Path,
) -> Result<Option<CellCheckpoint>, String> {
    let path = checkpoint_path(dir, cell);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(format!("{}: {err}", path.display())),
    };
    let checkpoint: CellCheckpoint = rmp_serde::from_slice(&bytes)
        .map_err(|err| format!("{} does not decode: {err}", path.display()))?;
    match checkpoint.mismatch(&plan.hash, cell) {
        Some(why) => Err(format!("{}: {why}", path.display())),
        None => Ok(Some(checkpoint)),
    }
}

/// The cells the checkpoint of cell `cell` in `dir` holds (itself; an ensemble's: its members,
/// itself first), if it has one; itself alone when the checkpoint is unreadable (resuming it
/// then says why).
pub fn held_cells(plan: &StudyPlan, cell: usize, dir: &Path) -> Option<Vec<usize>> {
    match read_checkpoint(plan, cell, dir) {
        Ok(None) => None,
        Ok(Some(checkpoint)) => Some(checkpoint.cells(plan).unwrap_or_else(|| vec![cell])),
        Err(_) => Some(vec![cell]),
    }
}

/// The checkpoint in `dir` that holds cell `cell`'s training (its own, or the ensemble's it
/// trains in, saved as its first member's), with the cell it is saved as; `Err` (in words)
/// when the cell's own file is unreadable.
pub fn checkpoint_holding(
    plan: &StudyPlan,
    cell: usize,
    dir: &Path,
) -> Result<Option<(usize, CellCheckpoint)>, String> {
    if let Some(own) = read_checkpoint(plan, cell, dir)? {
        return Ok(Some((cell, own)));
    }
    Ok(plan
        .cells
        .iter()
        .map(|spec| spec.index)
        .filter(|&other| other != cell && checkpoint_path(dir, other).exists())
        .filter_map(|other| Some((other, read_checkpoint(plan, other, dir).ok()??)))
        .find(|(_, checkpoint)| {
            checkpoint
                .cells(plan)
                .is_some_and(|held| held.contains(&cell))
        }))
}

/// `checkpointed at iteration 40 of 200 after 12.5 s`, then ` (in the ensemble of cells 3, 4,
/// 5, saved as cell 3)` for an ensemble's checkpoint: where cell `cell`'s training stands in
/// the checkpoint saved as cell `holder`.
pub fn checkpoint_note(
    plan: &StudyPlan,
    cell: usize,
    holder: usize,
    checkpoint: &CellCheckpoint,
) -> String {
    let ensemble = match checkpoint.cells(plan) {
        Some(held) if held.len() > 1 => format!(
            " (in the ensemble of cells {}, saved as cell {holder})",
            list(&held)
        ),
        _ => String::new(),
    };
    format!(
        "checkpointed at iteration {} of {} after {:.1} s{ensemble}",
        checkpoint.training.trainer.iteration,
        plan.cells[cell].config.total_iterations(),
        checkpoint.wall_secs,
    )
}

/// `1, 2, 5`.
pub fn list(cells: &[usize]) -> String {
    cells
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `checkpoint` into `dir` atomically (a temporary file beside it, then a rename).
pub fn write_checkpoint(dir: &Path, checkpoint: &CellCheckpoint) -> Result<(), String> {
    let path = checkpoint_path(dir, checkpoint.cell);
    let partial = dir.join(format!(".cell-{:05}.checkpoint.partial", checkpoint.cell));
    let bytes = rmp_serde::to_vec_named(checkpoint).map_err(|err| err.to_string())?;
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|err| format!("{}: {err}", path.display()))
}

/// Removes cell `cell`'s checkpoint (once its result is written); a missing one is fine.
pub fn remove_checkpoint(dir: &Path, cell: usize) {
    let _ = std::fs::remove_file(checkpoint_path(dir, cell));
}
