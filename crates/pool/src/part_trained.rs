//! The trainings a pool has part-trained: the latest checkpoint each running CPU worker posted
//! for its cell ([`crate::pool::FromWorker::Checkpoint`]), saved with the unfinished study and
//! handed to the worker that trains the cell next (a restart, or the study continued after a
//! reload), which goes on from it instead of from the seed. A finished training's checkpoint is
//! dropped.

use std::collections::BTreeMap;

use unroll_core::study::cells::cell::CellCheckpoint;
use unroll_core::study::cells::plan::StudyPlan;

/// The latest checkpoint per cell, by cell index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PartTrained {
    latest: BTreeMap<usize, CellCheckpoint>,
}

impl PartTrained {
    /// The checkpoints of `saved` that belong to `plan` and resume one of its cells not in
    /// `done` (others are dropped: another plan's, a finished cell's).
    pub fn of_saved(saved: Vec<CellCheckpoint>, plan: &StudyPlan, done: &[usize]) -> Self {
        let mut part = Self::default();
        for checkpoint in saved {
            part.keep(checkpoint, plan, |cell| done.contains(&cell));
        }
        part
    }

    /// Keeps `checkpoint` as its cell's latest if it belongs to `plan`, resumes a single
    /// training (ensembles train on WebGPU, which posts none) and its cell is not `done`;
    /// whether it was kept.
    pub fn keep(
        &mut self,
        checkpoint: CellCheckpoint,
        plan: &StudyPlan,
        done: impl Fn(usize) -> bool,
    ) -> bool {
        let cell = checkpoint.cell;
        let fits = cell < plan.cells.len()
            && checkpoint.mismatch(&plan.hash, cell).is_none()
            && checkpoint.training.together.is_empty()
            && !done(cell);
        if fits {
            self.latest.insert(cell, checkpoint);
        }
        fits
    }

    /// Drops cell `cell`'s checkpoint (its training finished).
    pub fn finished(&mut self, cell: usize) {
        self.latest.remove(&cell);
    }

    /// The checkpoint to resume cell `cell` from, if there is one.
    pub fn of_cell(&self, cell: usize) -> Option<&CellCheckpoint> {
        self.latest.get(&cell)
    }

    /// Every checkpoint kept, by cell.
    pub fn all(&self) -> Vec<CellCheckpoint> {
        self.latest.values().cloned().collect()
    }

    /// How many are kept.
    pub fn len(&self) -> usize {
        self.latest.len()
    }

    /// True when none is kept.
    pub fn is_empty(&self) -> bool {
        self.latest.is_empty()
    }
}
