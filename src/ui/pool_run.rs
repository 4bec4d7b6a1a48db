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
use unroll_core::study::run::driver::{Losses, RunEvent};
use unroll_core::system::System;
use unroll_pool::controller::{Action, Input, PoolController};
use unroll_pool::pool::{Fault, FromWorker};
use unroll_pool::unfinished::Unfinished;
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
    /// A failure to inject into worker 1 (`?worker-fault=`).
    pub fault: Option<PageFault>,
    /// How often CPU workers post their running training's checkpoint (seconds).
    pub checkpoint_secs: f64,
    /// The experiment's URL query (saved with an unfinished study).
    pub query: String,
    /// The unfinished study this continues, if it does (its plan is `plan`).
    pub continues: Option<Box<Unfinished>>,
    /// What an unfinished study the reader did not continue had done: stored first, as a
    /// partial run (its saved state is replaced by this run's).
    pub keep: Option<Box<StudyResults>>,
}

/// A failure the page injects into worker 1 (`?worker-fault=`, the fault tests; dev builds
/// only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    not(debug_assertions),
    allow(dead_code, reason = "injected in dev builds only")
)]
pub enum PageFault {
    /// It panics when its first training starts (every time it is started).
    Panic,
    /// Its script cannot load (the first time).
    Start,
    /// It is terminated after its first finished training, as a browser kills a worker.
    Kill,
    /// It says its WebGPU device was lost after its first finished training.
    DeviceLost,
}

/// Adds `losses` to the live curves.
fn add_losses(curves: WriteSignal<Vec<LossCurve>>, losses: &Losses) {
    let first = losses.first_iteration;
    let points = losses
        .values
        .iter()
        .enumerate()
        .map(|(i, &l)| (first + i, l));
    curves.update(|curves| extend_curve(curves, &losses.series, losses.hue, points));
}

/// What hears worker N's messages, with N.
type Listener = Rc<dyn Fn(usize, Heard)>;

/// The handle of a worker that is not there.
const NO_WORKER: Option<WorkerHandle> = None;

/// A run in progress.
pub struct PoolRun {
    /// Worker N at N (none where it could not start).
    workers: RefCell<Vec<Option<WorkerHandle>>>,
    /// What every worker's messages go to.
    hear: RefCell<Option<Listener>>,
    /// Workers stopped and replaced, kept until the run ends: the callback that replaced one
    /// may be running in its own message handler.
    retired: RefCell<Vec<WorkerHandle>>,
    /// The experiment's URL query.
    query: String,
    /// The failure still to inject after worker 1's first finished training.
    late_fault: std::cell::Cell<Option<PageFault>>,
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
        let fault = (launch.fault == Some(PageFault::Panic)).then_some(Fault::Panic);
        let (mut controller, actions) = match launch.continues {
            Some(unfinished) => PoolController::resume(
                *unfinished,
                System::description,
                launch.workers,
                launch.webgpu,
                now_secs(),
            ),
            None => PoolController::new(
                launch.plan,
                System::description,
                launch.workers,
                launch.webgpu,
                fault,
                now_secs(),
            ),
        };
        controller.set_checkpoint_secs(Some(launch.checkpoint_secs));
        let count = controller.workers();
        let storage = StorageQueue::shared();
        let late = matches!(launch.fault, Some(PageFault::Kill | PageFault::DeviceLost));
        let run = Rc::new(Self {
            workers: RefCell::new((0..count).map(|_| None).collect()),
            hear: RefCell::new(None),
            retired: RefCell::new(Vec::new()),
            query: launch.query,
            late_fault: std::cell::Cell::new(launch.fault.filter(|_| late)),
            controller: RefCell::new(controller),
            data: RefCell::new(None),
            sinks,
            _on_pagehide: flush_on_page_hide(storage.clone()),
            storage,
        });
        if let Some(partial) = launch.keep {
            run.store(Storage::Store(partial));
        }
        run.apply(actions);
        let weak: Weak<Self> = Rc::downgrade(&run);
        *run.hear.borrow_mut() = Some(Rc::new(move |index, heard| {
            if let Some(run) = weak.upgrade() {
                run.hear(index, heard);
            }
        }));
        for index in 0..count {
            let script = if index == 0 && launch.fault == Some(PageFault::Start) {
                "./no-such-worker_loader.js"
            } else {
                worker_script(launch.webgpu)
            };
            run.spawn(index, script);
        }
        run
    }

    /// Starts worker `index` from `script` (a worker that cannot start is reported dead).
    fn spawn(&self, index: usize, script: &str) {
        let Some(hear) = self.hear.borrow().clone() else {
            return;
        };
        match WorkerHandle::spawn(script, index, hear) {
            Ok(worker) => {
                if let Some(slot) = self.workers.borrow_mut().get_mut(index) {
                    *slot = Some(worker);
                }
            }
            Err(message) => self.step(Input::Died(index, message)),
        }
    }

    /// What worker `index` said; after worker 1's first finished training, the late fault.
    fn hear(&self, index: usize, heard: Heard) {
        match heard {
            Heard::Data(text) => *self.data.borrow_mut() = Some(text),
            Heard::Message(message) => {
                let finished = matches!(&message, FromWorker::Event(RunEvent::TrainingFinished(_)));
                self.step(Input::Heard(index, message));
                if index == 0 && finished {
                    self.inject_late_fault();
                }
            }
            Heard::Died(message) => self.step(Input::Died(index, message)),
        }
    }

    /// Kills worker 1, or has it lose its device, once (the fault tests).
    fn inject_late_fault(&self) {
        let why = match self.late_fault.take() {
            Some(PageFault::Kill) => "the worker was killed (injected fault)",
            Some(PageFault::DeviceLost) => "the WebGPU device was lost (injected fault)",
            _ => return,
        };
        if let Some(worker) = self.workers.borrow().first().and_then(Option::as_ref) {
            worker.terminate();
        }
        self.step(Input::Died(0, why.into()));
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
                    if let Some(worker) = self.worker(index).as_ref() {
                        worker.send(&message);
                    }
                }
                Action::ShipData(index) => {
                    match (self.worker(index).as_ref(), self.data.borrow().as_ref()) {
                        (Some(worker), Some(text)) => worker.send_text(text),
                        _ => sinks.status.set(
                            "A worker was to get the study's data before they were made.".into(),
                        ),
                    }
                }
                Action::Terminate(index) => {
                    if let Some(worker) = self.worker(index).as_ref() {
                        worker.terminate();
                    }
                }
                Action::Restart { worker, webgpu } => self.restart(worker, webgpu),
                Action::Status(text) => sinks.status.set(text),
                Action::WorkerLines(lines) => sinks.workers.set(lines),
                Action::Fraction(fraction) => sinks.fraction.set(fraction),
                Action::Losses(losses) => add_losses(sinks.losses, &losses),
                Action::VariantLine(line) => sinks.finished.update(|list| list.push(line)),
                Action::Weights(weights) => sinks.weights.set(weights),
                Action::SaveInProgress(mut unfinished) => {
                    unfinished.query.clone_from(&self.query);
                    self.store(Storage::SaveInProgress(unfinished));
                }
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

    /// Stops worker `index` and starts a new one in its place (on WebGPU when `webgpu`).
    fn restart(&self, index: usize, webgpu: bool) {
        let old = self
            .workers
            .borrow_mut()
            .get_mut(index)
            .and_then(Option::take);
        if let Some(old) = old {
            old.terminate();
            self.retired.borrow_mut().push(old);
        }
        self.spawn(index, worker_script(webgpu));
    }

    /// Worker `index`'s handle, borrowed.
    fn worker(&self, index: usize) -> std::cell::Ref<'_, Option<WorkerHandle>> {
        std::cell::Ref::map(self.workers.borrow(), |w| {
            w.get(index).unwrap_or(&NO_WORKER)
        })
    }

    /// Queues `job` for the browser's store.
    fn store(&self, job: Storage) {
        self.storage.push(job, self.sinks.storage);
    }
}
