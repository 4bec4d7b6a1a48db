//! A study run on a pool of Web Workers, seen from the page: it starts the workers and carries
//! out what the numerics' [`PoolController`] decides — posting to and terminating workers,
//! setting the panel's signals, storing runs. The decisions (who makes the data, ETA, status
//! text, failure, cancel, partial results) are the controller's; the page never computes.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use leptos::prelude::*;

use unroll_browser::lifecycle::OnPageHide;
use unroll_browser::timer::{now_secs, sleep};
use unroll_browser::workers::{worker_script, Heard, WorkerHandle, WorkerText};
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::System;
use unroll_pool::controller::{Action, Input, PoolController};
use unroll_pool::pool::Fault;
use unroll_report::charts::{extend_curve, LossCurve};

use super::run_storage::{Storage, StorageQueue, StorageSinks};

/// The signals a run updates.
#[derive(Clone, Copy)]
pub struct Sinks {
    /// One line: what the run is doing.
    pub status: WriteSignal<String>,
    /// Fraction done.
    pub fraction: WriteSignal<f64>,
    /// One line per worker.
    pub workers: WriteSignal<Vec<String>>,
    /// The live loss curves.
    pub losses: WriteSignal<Vec<LossCurve>>,
    /// One line per finished variant.
    pub finished: WriteSignal<Vec<String>>,
    /// The results (complete or partial).
    pub results: WriteSignal<Option<StudyResults>>,
    /// The trained weights received.
    pub weights: WriteSignal<Vec<(String, Vec<u8>)>>,
    /// Where storage jobs report.
    pub storage: StorageSinks,
    /// Whether a run is going on.
    pub running: WriteSignal<bool>,
}

/// How a run is started.
pub struct Launch {
    /// The study.
    pub plan: StudyPlan,
    /// Workers to start.
    pub workers: usize,
    /// Train on WebGPU in the workers.
    pub webgpu: bool,
    /// A failure to inject (`?worker-fault=`): `Some(None)` = a worker that cannot start.
    pub fault: Option<Option<Fault>>,
}

/// A run in progress.
pub struct PoolRun {
    workers: RefCell<Vec<WorkerHandle>>,
    controller: RefCell<PoolController>,
    /// The maker's data message, as the browser handed it over (never read here).
    data: RefCell<Option<WorkerText>>,
    sinks: Sinks,
    storage: Rc<StorageQueue>,
    /// Does the queued storage at once when the page goes away (a reload mid-run keeps the
    /// finished trainings).
    _on_pagehide: Option<OnPageHide>,
}

/// Hands the queued storage to the browser at once when the page goes away.
fn flush_on_page_hide(queue: Rc<StorageQueue>) -> Option<OnPageHide> {
    OnPageHide::new(move || queue.flush())
}

impl PoolRun {
    /// Starts the workers; the controller hands out the cells as they say they are ready.
    pub fn start(launch: Launch, sinks: Sinks) -> Rc<Self> {
        let (controller, actions) = PoolController::new(
            launch.plan,
            System::description,
            launch.workers,
            launch.webgpu,
            launch.fault.flatten(),
            now_secs(),
        );
        let count = controller.workers();
        let storage = Rc::<StorageQueue>::default();
        let run = Rc::new(Self {
            workers: RefCell::new(Vec::new()),
            controller: RefCell::new(controller),
            data: RefCell::new(None),
            sinks,
            _on_pagehide: flush_on_page_hide(storage.clone()),
            storage,
        });
        run.apply(actions);
        let weak: Weak<Self> = Rc::downgrade(&run);
        let hear: Rc<dyn Fn(usize, Heard)> = Rc::new(move |index, heard| {
            if let Some(run) = weak.upgrade() {
                match heard {
                    Heard::Data(text) => *run.data.borrow_mut() = Some(text),
                    Heard::Message(message) => run.step(Input::Heard(index, message)),
                    Heard::Died(message) => run.step(Input::Died(index, message)),
                }
            }
        });
        for index in 0..count {
            let script = if index == 0 && launch.fault == Some(None) {
                "./no-such-worker_loader.js"
            } else {
                worker_script(launch.webgpu)
            };
            match WorkerHandle::spawn(script, index, hear.clone()) {
                Ok(worker) => run.workers.borrow_mut().push(worker),
                Err(message) => {
                    run.step(Input::Died(index, message));
                    break;
                }
            }
        }
        run
    }

    /// Pauses (`true`) or resumes every worker.
    pub fn pause(&self, paused: bool) {
        self.step(if paused { Input::Pause } else { Input::Resume });
    }

    /// Stops every worker at once; the finished trainings are kept.
    pub fn cancel(&self) {
        self.step(Input::Cancel);
    }

    fn step(&self, input: Input) {
        let actions = self.controller.borrow_mut().step(input, now_secs());
        self.apply(actions);
    }

    /// Carries out the controller's actions, in order.
    fn apply(&self, actions: Vec<Action>) {
        let sinks = self.sinks;
        for action in actions {
            match action {
                Action::Post(index, message) => {
                    if let Some(worker) = self.workers.borrow().get(index) {
                        worker.send(&message);
                    }
                }
                Action::ShipData(index) => {
                    match (
                        self.workers.borrow().get(index),
                        self.data.borrow().as_ref(),
                    ) {
                        (Some(worker), Some(text)) => worker.send_text(text),
                        _ => sinks.status.set(
                            "A worker was to get the study's data before they were made.".into(),
                        ),
                    }
                }
                Action::Terminate(index) => {
                    if let Some(worker) = self.workers.borrow().get(index) {
                        worker.terminate();
                    }
                }
                Action::Status(text) => sinks.status.set(text),
                Action::WorkerLines(lines) => sinks.workers.set(lines),
                Action::Fraction(fraction) => sinks.fraction.set(fraction),
                Action::Losses(losses) => {
                    let first = losses.first_iteration;
                    let points = losses
                        .values
                        .iter()
                        .enumerate()
                        .map(|(i, &l)| (first + i, l));
                    sinks
                        .losses
                        .update(|curves| extend_curve(curves, &losses.series, losses.hue, points));
                }
                Action::VariantLine(line) => sinks.finished.update(|list| list.push(line)),
                Action::Weights(weights) => sinks.weights.set(weights),
                Action::SaveInProgress(partial) => self.store(Storage::SaveInProgress(partial)),
                Action::ClearInProgress => self.store(Storage::ClearInProgress),
                Action::Store(results) => self.store(Storage::Store(results)),
                // Rendered in a task of its own, after the one that parsed the message.
                Action::Results(results) => leptos::task::spawn_local(async move {
                    sleep(0).await;
                    let _ = sinks.results.try_set(Some(*results));
                }),
                Action::Running(running) => sinks.running.set(running),
            }
        }
    }

    /// Queues `job` for the browser's store.
    fn store(&self, job: Storage) {
        self.storage.push(job, self.sinks.storage);
    }
}
