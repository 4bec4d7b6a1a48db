//! The pool controller: what happens in a study run on a pool of workers, as a pure state
//! machine. It is fed what the workers say and what the reader does ([`Input`]) with the time,
//! and returns what the page must carry out ([`Action`]: post to worker N, terminate it, show a
//! status line, store the results…). It hands out the cells ([`partition`]); the first worker
//! ready makes the study's data and baseline and shares them, the others start from them. A
//! worker that dies (a trap, out of memory, the browser killing it, a lost WebGPU device) is
//! restarted with the trainings of its share not done yet, the one it was on from its last
//! checkpoint ([`PartTrained`]; CPU workers post one every [`CHECKPOINT_SECS`]) or else from its
//! seed (the CPU backend after a lost device), at most [`MAX_RESTARTS`] times per training; a
//! training that fails every time, or a cancel, stops every worker and keeps the finished
//! trainings as partial results. No browser code: the page (`ui::pool_run`) only executes the actions.

use std::collections::HashMap;

mod continuing;

pub use super::actions::{Action, Input};
use super::part_trained::PartTrained;
use super::pool::{partition, Assembly, Fault, FromWorker, ToWorker, CHECKPOINT_SECS};
use unroll_core::study::cells::batch::DataSource;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::progress::eta_secs;
use unroll_core::study::data::results::StudyResults;
use unroll_core::study::run::driver::RunEvent;
use unroll_core::system::description::Descriptions;

/// Restarts of one training before the study ends with its failure (three tries in all).
pub const MAX_RESTARTS: usize = 2;

/// One worker as the controller sees it.
#[derive(Debug, Clone, Default)]
struct Worker {
    ready: bool,
    running: bool,
    line: String,
    /// Trains on WebGPU (false after it lost its device).
    webgpu: bool,
}

/// A pooled run in progress.
pub struct PoolController {
    assembly: Assembly,
    workers: Vec<Worker>,
    fault: Option<Fault>,
    started_secs: f64,
    paused: bool,
    stopped: bool,
    maker: Option<usize>,
    /// The data are made: the maker's data message is at the page (the page keeps only
    /// their baseline and samples, in the assembly).
    shipped: bool,
    /// Restarts per cell.
    restarts: HashMap<usize, usize>,
    /// The latest checkpoint of each part-trained cell.
    part_trained: PartTrained,
    /// How often CPU workers post a checkpoint (seconds; `None`: never).
    checkpoint_secs: Option<f64>,
}

impl PoolController {
    /// A run of `plan` (its system found by `systems`, the registry's `System::description`) on (at
    /// most) `workers` workers at time `now` (seconds), on WebGPU when `webgpu`; `fault` is
    /// injected into worker 1. The page starts
    /// [`Self::workers`] workers and carries out the actions returned.
    pub fn new(
        plan: StudyPlan,
        systems: Descriptions,
        workers: usize,
        webgpu: bool,
        fault: Option<Fault>,
        now: f64,
    ) -> (Self, Vec<Action>) {
        let shares = partition(&plan, workers, webgpu);
        let count = shares.len();
        let cells = plan.cells.len();
        let controller = Self {
            assembly: Assembly::new(plan, systems, shares),
            workers: vec![
                Worker {
                    line: "starting".into(),
                    webgpu,
                    ..Worker::default()
                };
                count
            ],
            fault,
            started_secs: now,
            paused: false,
            stopped: false,
            maker: None,
            shipped: false,
            restarts: HashMap::new(),
            part_trained: PartTrained::default(),
            checkpoint_secs: Some(CHECKPOINT_SECS),
        };
        let actions = vec![
            Action::Running(true),
            Action::Status(format!(
                "Starting {count} worker(s) for {cells} training(s)…"
            )),
            controller.lines(),
        ];
        (controller, actions)
    }

    /// CPU workers post their running training's checkpoint every `secs` seconds (`None`:
    /// never; [`CHECKPOINT_SECS`] unless set); before the first worker is ready.
    pub fn set_checkpoint_secs(&mut self, secs: Option<f64>) {
        self.checkpoint_secs = secs;
    }

    /// Workers to start (worker N is the N-th started, from 0).
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// True once the run ended (done, failed or cancelled): every later input is ignored.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Takes `input` at time `now`; what the page must do.
    pub fn step(&mut self, input: Input, now: f64) -> Vec<Action> {
        if self.stopped {
            return Vec::new();
        }
        match input {
            Input::Heard(worker, FromWorker::Ready) => self.ready(worker),
            Input::Heard(worker, FromWorker::Device(device)) => {
                self.set_line(worker, format!("on {device}"))
            }
            Input::Heard(worker, FromWorker::Event(event)) => self.event(worker, event, now),
            Input::Heard(_, FromWorker::Checkpoint(checkpoint)) => {
                self.checkpoint(*checkpoint, now)
            }
            Input::Heard(worker, FromWorker::Resumed { cell, iteration }) => {
                self.resumed(worker, cell, iteration)
            }
            Input::Heard(_, FromWorker::Probed(_) | FromWorker::Rollout(_)) => Vec::new(),
            Input::Died(worker, message) => self.fail(worker, &message, now),
            Input::Pause | Input::Resume => {
                self.paused = input == Input::Pause;
                let message = if self.paused {
                    ToWorker::Pause
                } else {
                    ToWorker::Resume
                };
                (0..self.workers.len())
                    .filter(|&w| self.workers[w].ready)
                    .map(|w| Action::Post(w, message.clone()))
                    .collect()
            }
            Input::Cancel => self.end("Cancelled.", now),
            Input::SavePartial => match self.partial(now) {
                Some(partial) => vec![
                    Action::Store(Box::new(partial)),
                    Action::Status(format!(
                        "The {} finished training(s) are kept under Stored runs; the run goes on.",
                        self.assembly.done()
                    )),
                ],
                None => vec![Action::Status("No training has finished yet.".into())],
            },
        }
    }

    /// A worker is listening: the first makes the data, the others run once they are made.
    fn ready(&mut self, worker: usize) -> Vec<Action> {
        let Some(state) = self.workers.get_mut(worker) else {
            return Vec::new();
        };
        state.ready = true;
        if self.assembly.left(worker).is_empty() {
            return self.set_line(worker, "nothing left to train".into());
        }
        if self.maker.is_none() {
            self.maker = Some(worker);
            return self.run(worker, DataSource::Make { share: true });
        }
        if self.shipped {
            self.run_shipped(worker)
        } else {
            self.set_line(worker, "waiting for the data".into())
        }
    }

    /// Worker `worker`'s share, with `data` (and a pause when the run is paused).
    fn run(&mut self, worker: usize, data: DataSource) -> Vec<Action> {
        self.workers[worker].running = true;
        let cells = self.assembly.left(worker);
        let webgpu = self.workers[worker].webgpu;
        let resume = cells
            .first()
            .and_then(|&cell| self.part_trained.of_cell(cell))
            .filter(|_| !webgpu)
            .map(|checkpoint| Box::new(checkpoint.clone()));
        let mut actions = vec![Action::Post(
            worker,
            ToWorker::Run {
                plan: Box::new(self.assembly.plan().clone()),
                cells,
                webgpu,
                fault: if worker == 0 { self.fault } else { None },
                data,
                resume,
                checkpoint_secs: self.checkpoint_secs,
            },
        )];
        if self.paused {
            actions.push(Action::Post(worker, ToWorker::Pause));
        }
        actions
    }

    /// Worker `worker`'s share, its data following in the maker's data message.
    fn run_shipped(&mut self, worker: usize) -> Vec<Action> {
        let mut actions = self.run(worker, DataSource::Shipped);
        actions.insert(1, Action::ShipData(worker));
        actions
    }

    fn event(&mut self, worker: usize, event: RunEvent, now: f64) -> Vec<Action> {
        match event {
            RunEvent::Progress(progress) => {
                let fraction = self.assembly.progress(worker, progress.fraction);
                let eta = eta_secs(now - self.started_secs, fraction)
                    .map(|eta| format!(", ETA {eta:.0} s"))
                    .unwrap_or_default();
                let mut actions = vec![Action::Fraction(fraction)];
                actions.extend(self.set_line(worker, progress.description));
                actions.push(Action::Status(format!(
                    "{} of {} trainings done on {} worker(s){eta}",
                    self.assembly.done(),
                    self.assembly.plan().cells.len(),
                    self.workers.len()
                )));
                actions
            }
            RunEvent::Losses(losses) => vec![Action::Losses(losses)],
            // The baseline and samples (the maker posted the bulk before, as a data message).
            RunEvent::DataReady(prepared) => {
                self.assembly.data_ready(&prepared);
                self.shipped = true;
                let waiting: Vec<usize> = (0..self.workers.len())
                    .filter(|&w| self.workers[w].ready && !self.workers[w].running)
                    .collect();
                waiting
                    .into_iter()
                    .flat_map(|w| self.run_shipped(w))
                    .collect()
            }
            RunEvent::TrainingFinished(finished) => self.training_finished(worker, *finished, now),
            // A batch reports no whole-study event; the assembly makes them.
            RunEvent::VariantFinished(_) | RunEvent::Finished { .. } => Vec::new(),
            RunEvent::Error(message) => self.fail(worker, &message, now),
        }
    }

    fn training_finished(
        &mut self,
        worker: usize,
        finished: unroll_core::study::run::driver::TrainingFinished,
        now: f64,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        self.part_trained.finished(finished.cell);
        if let Some(variant) = self.assembly.training_finished(finished) {
            actions.push(Action::VariantLine(format!(
                "{}: relative error {:.3e} ± {:.1e}",
                variant.id.label(),
                variant.metrics.relative_error.mean,
                variant.metrics.relative_error.std
            )));
        }
        actions.push(Action::Weights(self.assembly.weights()));
        actions.extend(self.save_in_progress(now));
        if self.assembly.share_done(worker) {
            actions.extend(self.set_line(worker, "done".into()));
        }
        if self.assembly.finished() {
            actions.extend(self.finish(now));
        }
        actions
    }

    /// What is done now as partial results, timed (`None` before the first training).
    fn partial(&self, now: f64) -> Option<StudyResults> {
        (self.assembly.done() > 0)
            .then(|| self.assembly.results(true).ok())
            .flatten()
            .map(|r| self.timed(r, now))
    }

    fn timed(&self, mut results: StudyResults, now: f64) -> StudyResults {
        results.wall_secs = now - self.started_secs;
        results
    }

    fn finish(&mut self, now: f64) -> Vec<Action> {
        match self.assembly.results(false) {
            Ok(results) => {
                let results = self.timed(results, now);
                let mut actions = self.stop_workers();
                actions.push(Action::Store(Box::new(results.clone())));
                actions.push(Action::ClearInProgress);
                actions.push(Action::Status(format!(
                    "Done in {:.0} s on {} worker(s).",
                    results.wall_secs,
                    self.workers.len()
                )));
                actions.push(Action::Results(Box::new(results)));
                actions
            }
            Err(err) => self.end(&format!("The results could not be assembled: {err}."), now),
        }
    }

    /// Worker `worker` failed: it is restarted with what its share has left, unless the
    /// training it was on failed every try; then everything stops, the finished trainings are
    /// kept.
    fn fail(&mut self, worker: usize, message: &str, now: f64) -> Vec<Action> {
        let Some(cell) = self.assembly.current_cell(worker).map(|c| c.index) else {
            // Its share was done: nothing is lost.
            return self.set_line(worker, format!("stopped after its trainings ({message})"));
        };
        let running = self.assembly.plan().cells[cell].label.clone();
        let tries = self.restarts.entry(cell).or_default();
        *tries += 1;
        if *tries <= MAX_RESTARTS {
            let tries = *tries;
            return self.restart(worker, &running, message, tries);
        }
        self.end(
            &format!(
                "Worker {} failed while running {running}: {message} ({} tries). The other workers were stopped.",
                worker + 1,
                MAX_RESTARTS + 1
            ),
            now,
        )
    }

    /// Starts a new worker in place of `worker`, which died on `running` (its `tries`-th
    /// restart); on the CPU backend where it lost its WebGPU device.
    fn restart(
        &mut self,
        worker: usize,
        running: &str,
        message: &str,
        tries: usize,
    ) -> Vec<Action> {
        let lost_device = self.workers[worker].webgpu && is_device_loss(message);
        let webgpu = self.workers[worker].webgpu && !lost_device;
        self.workers[worker] = Worker {
            line: "restarting".into(),
            webgpu,
            ..Worker::default()
        };
        if self.maker == Some(worker) && !self.shipped {
            self.maker = None;
        }
        self.assembly.restart(worker);
        let backend = if lost_device {
            " on the CPU backend (its WebGPU device was lost)"
        } else {
            ""
        };
        vec![
            Action::Restart { worker, webgpu },
            Action::Status(format!(
                "Worker {} stopped while running {running} ({message}): restarted{backend}, try {} of {}.",
                worker + 1,
                tries + 1,
                MAX_RESTARTS + 1
            )),
            self.lines(),
        ]
    }

    /// Stops the run with `why`; keeps the finished trainings as partial results.
    fn end(&mut self, why: &str, now: f64) -> Vec<Action> {
        let mut actions = self.stop_workers();
        let kept = match self.partial(now) {
            Some(partial) => {
                actions.push(Action::Store(Box::new(partial.clone())));
                actions.push(Action::ClearInProgress);
                actions.push(Action::Results(Box::new(partial)));
                format!(
                    " The {} finished training(s) are kept: partial results below (exportable, and under Stored runs).",
                    self.assembly.done()
                )
            }
            None => {
                actions.push(Action::ClearInProgress);
                " No training had finished.".to_string()
            }
        };
        actions.push(Action::Status(format!("{why}{kept}")));
        actions
    }

    fn stop_workers(&mut self) -> Vec<Action> {
        self.stopped = true;
        let mut actions: Vec<Action> = (0..self.workers.len()).map(Action::Terminate).collect();
        actions.push(Action::Running(false));
        actions
    }

    fn set_line(&mut self, worker: usize, line: String) -> Vec<Action> {
        match self.workers.get_mut(worker) {
            Some(state) => {
                state.line = line;
                vec![self.lines()]
            }
            None => Vec::new(),
        }
    }

    fn lines(&self) -> Action {
        Action::WorkerLines(
            self.workers
                .iter()
                .enumerate()
                .map(|(i, w)| format!("Worker {}: {}", i + 1, w.line))
                .collect(),
        )
    }
}

/// Whether a worker's last words say its WebGPU device was lost.
fn is_device_loss(message: &str) -> bool {
    let message = message.to_lowercase();
    message.contains("device lost") || message.contains("device was lost")
}

#[cfg(test)]
#[path = "controller_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "controller_checkpoint_tests.rs"]
mod checkpoint_tests;
