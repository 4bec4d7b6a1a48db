//! The controller's side of an unfinished study: continuing a saved one, and saving the one
//! under way after every finished training and every checkpoint (the part-trained trainings go
//! on from their latest checkpoint where the worker trains on the CPU backend).

use super::{Action, PoolController};
use crate::part_trained::PartTrained;
use crate::unfinished::{Unfinished, UNFINISHED_SCHEMA};
use unroll_core::study::cells::cell::CellCheckpoint;
use unroll_core::system::description::Descriptions;

impl PoolController {
    /// The unfinished study `unfinished` continued on (at most) `workers` workers: only the
    /// cells it did not finish are trained (see [`Self::new`]).
    pub fn resume(
        unfinished: Unfinished,
        systems: Descriptions,
        workers: usize,
        webgpu: bool,
        now: f64,
    ) -> (Self, Vec<Action>) {
        let done = unfinished.cells.len();
        let done_cells: Vec<usize> = unfinished.cells.iter().map(|c| c.cell).collect();
        let part_trained =
            PartTrained::of_saved(unfinished.checkpoints, &unfinished.plan, &done_cells);
        let (mut controller, mut actions) =
            Self::new(unfinished.plan, systems, workers, webgpu, None, now);
        controller
            .assembly
            .resume(unfinished.cells, unfinished.weights);
        let left = controller.assembly.plan().cells.len() - controller.assembly.done();
        let part = match (part_trained.len(), webgpu) {
            (0, _) => String::new(),
            (n, false) => format!(", {n} of them from its checkpoint"),
            (n, true) => format!(
                ", {n} of them part-trained but started again from its seed (WebGPU resumes no checkpoint)"
            ),
        };
        controller.part_trained = part_trained;
        actions.push(Action::Status(format!(
            "Continuing the study ({done} training(s) were done): starting {} worker(s) for the {left} left{part}…",
            controller.workers.len()
        )));
        actions.push(Action::Weights(controller.assembly.weights()));
        if controller.assembly.finished() {
            actions.extend(controller.finish(now));
        }
        (controller, actions)
    }

    /// A worker's running training reached `checkpoint`: kept as its cell's latest, and saved
    /// with the unfinished study.
    pub(super) fn checkpoint(&mut self, checkpoint: CellCheckpoint, now: f64) -> Vec<Action> {
        let assembly = &self.assembly;
        if !self
            .part_trained
            .keep(checkpoint, assembly.plan(), |c| assembly.is_done(c))
        {
            return Vec::new();
        }
        self.save_in_progress(now).into_iter().collect()
    }

    /// The unfinished study as it stands, to save (`None` while nothing is done or part-trained).
    pub(super) fn save_in_progress(&self, now: f64) -> Option<Action> {
        let partial = self.partial(now);
        if partial.is_none() && self.part_trained.is_empty() {
            return None;
        }
        Some(Action::SaveInProgress(Box::new(Unfinished {
            schema: UNFINISHED_SCHEMA.into(),
            query: String::new(),
            plan: self.assembly.plan().clone(),
            cells: self.assembly.done_cells(),
            weights: self.assembly.received_weights().to_vec(),
            checkpoints: self.part_trained.all(),
            partial,
        })))
    }

    /// Worker `worker` went on with cell `cell`'s training from its checkpoint at `iteration`.
    pub(super) fn resumed(&mut self, worker: usize, cell: usize, iteration: usize) -> Vec<Action> {
        let label = self
            .assembly
            .plan()
            .cells
            .get(cell)
            .map_or("?", |c| &c.label);
        let line = format!("goes on with {label} from iteration {iteration} (its checkpoint)");
        let mut actions = vec![Action::Status(format!("Worker {} {line}.", worker + 1))];
        actions.extend(self.set_line(worker, line));
        actions
    }
}
