//! A study run on a pool of Web Workers, seen from the page: it starts the workers, hands each
//! its share of the cells once it is ready, turns their messages into the panel's signals
//! through the numerics' [`Assembly`], and ends the run — with the results, or, when a worker
//! fails or the reader cancels, with every other worker stopped and the finished trainings kept
//! as partial results. The page never computes: it only renders.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use leptos::prelude::*;

use crate::charts::{extend_curve, LossCurve};
use crate::numerics::study::plan::StudyPlan;
use crate::numerics::study::pool::{partition, Assembly, Fault, FromWorker, ToWorker};
use crate::numerics::study::results::StudyResults;
use crate::numerics::system::System;
use crate::platform::files;
use crate::platform::timer::now_secs;
use crate::platform::workers::{Heard, WorkerHandle, WORKER_SCRIPT};

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
    /// A notice (storage problems).
    pub notice: WriteSignal<String>,
    /// The stored runs.
    pub stored: WriteSignal<Vec<String>>,
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
    assembly: RefCell<Assembly>,
    lines: RefCell<Vec<String>>,
    started_secs: f64,
    stopped: Cell<bool>,
    webgpu: bool,
    fault: Option<Fault>,
    sinks: Sinks,
}

impl PoolRun {
    /// Starts the workers; they get their cells once each says it is ready.
    pub fn start(launch: Launch, sinks: Sinks) -> Rc<Self> {
        let shares = partition(&launch.plan, launch.workers);
        let count = shares.len();
        let run = Rc::new(Self {
            workers: RefCell::new(Vec::new()),
            assembly: RefCell::new(Assembly::new(launch.plan, System::physics, shares)),
            lines: RefCell::new(vec!["starting".to_string(); count]),
            started_secs: now_secs(),
            stopped: Cell::new(false),
            webgpu: launch.webgpu,
            fault: launch.fault.flatten(),
            sinks,
        });
        sinks.running.set(true);
        sinks.status.set(format!(
            "Starting {count} worker(s) for {} training(s)…",
            run.assembly.borrow().plan().cells.len()
        ));
        let weak: Weak<Self> = Rc::downgrade(&run);
        let hear: Rc<dyn Fn(usize, Heard)> = Rc::new(move |index, heard| {
            if let Some(run) = weak.upgrade() {
                run.hear(index, heard);
            }
        });
        for index in 0..count {
            let script = if index == 0 && launch.fault == Some(None) {
                "./no-such-worker_loader.js"
            } else {
                WORKER_SCRIPT
            };
            match WorkerHandle::spawn(script, index, hear.clone()) {
                Ok(worker) => run.workers.borrow_mut().push(worker),
                Err(message) => {
                    run.fail(index, &message);
                    break;
                }
            }
        }
        run.show_lines();
        run
    }

    /// Pauses (`true`) or resumes every worker.
    pub fn pause(&self, paused: bool) {
        let message = if paused {
            ToWorker::Pause
        } else {
            ToWorker::Resume
        };
        for worker in self.workers.borrow().iter() {
            worker.send(&message);
        }
    }

    /// Stops every worker at once; the finished trainings are kept.
    pub fn cancel(&self) {
        self.end("Cancelled.");
    }

    fn hear(&self, index: usize, heard: Heard) {
        if self.stopped.get() {
            return;
        }
        match heard {
            Heard::Message(message) => self.message(index, message),
            Heard::Died(message) => self.fail(index, &message),
        }
    }

    fn message(&self, index: usize, message: FromWorker) {
        let sinks = self.sinks;
        match message {
            FromWorker::Ready => {
                let assembly = self.assembly.borrow();
                let run = ToWorker::Run {
                    plan: Box::new(assembly.plan().clone()),
                    cells: assembly.share(index).to_vec(),
                    webgpu: self.webgpu,
                    fault: if index == 0 { self.fault } else { None },
                };
                if let Some(worker) = self.workers.borrow().get(index) {
                    worker.send(&run);
                }
            }
            FromWorker::Device(device) => self.set_line(index, format!("on {device}")),
            FromWorker::Progress(progress) => {
                let fraction = self
                    .assembly
                    .borrow_mut()
                    .progress(index, progress.fraction);
                sinks.fraction.set(fraction);
                self.set_line(index, progress.description);
                let elapsed = now_secs() - self.started_secs;
                let eta = if fraction > 0.01 {
                    format!(", ETA {:.0} s", elapsed * (1.0 - fraction) / fraction)
                } else {
                    String::new()
                };
                let assembly = self.assembly.borrow();
                sinks.status.set(format!(
                    "{} of {} trainings done on {} worker(s){eta}",
                    assembly.done(),
                    assembly.plan().cells.len(),
                    self.workers.borrow().len()
                ));
            }
            FromWorker::Losses(losses) => {
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
            FromWorker::CellDone { result, weights } => {
                let finished = self.assembly.borrow_mut().cell_done(*result, weights);
                if let Some(variant) = finished {
                    sinks.finished.update(|list| {
                        list.push(format!(
                            "{}: relative error {:.3e} ± {:.1e}",
                            variant.id.label(),
                            variant.metrics.relative_error.mean,
                            variant.metrics.relative_error.std
                        ))
                    });
                }
                let assembly = self.assembly.borrow();
                sinks.weights.set(assembly.weights());
                if let Ok(partial) = assembly.results(true) {
                    if let Ok(json) = serde_json::to_string(&self.timed(partial)) {
                        files::save_in_progress(&json);
                    }
                }
            }
            FromWorker::Done => {
                self.set_line(index, "done".to_string());
                if self.assembly.borrow().finished() {
                    self.finish();
                }
            }
            FromWorker::Error(message) => self.fail(index, &message),
        }
    }

    /// `results` with the run's wall time.
    fn timed(&self, mut results: StudyResults) -> StudyResults {
        results.wall_secs = now_secs() - self.started_secs;
        results
    }

    fn finish(&self) {
        let results = self.assembly.borrow().results(false);
        match results {
            Ok(results) => {
                let results = self.timed(results);
                self.stop_workers();
                self.keep(&results);
                self.sinks.status.set(format!(
                    "Done in {:.0} s on {} worker(s).",
                    results.wall_secs,
                    self.workers.borrow().len()
                ));
                self.sinks.results.set(Some(results));
            }
            Err(err) => self.end(&format!("The results could not be assembled: {err}.")),
        }
    }

    /// Worker `index` failed: everything stops, the finished trainings are kept.
    fn fail(&self, index: usize, message: &str) {
        let running = self
            .assembly
            .borrow()
            .current_cell(index)
            .map_or("its first training".to_string(), |c| c.label.clone());
        self.end(&format!(
            "Worker {} failed while running {running}: {message}. The other workers were stopped.",
            index + 1
        ));
    }

    /// Stops the run with `why`; keeps the finished trainings as partial results.
    fn end(&self, why: &str) {
        if self.stopped.get() {
            return;
        }
        self.stop_workers();
        let assembly = self.assembly.borrow();
        let done = assembly.done();
        let kept = match assembly.results(true) {
            Ok(partial) if done > 0 => {
                let partial = self.timed(partial);
                self.keep(&partial);
                self.sinks.results.set(Some(partial));
                format!(
                    " The {done} finished training(s) are kept: partial results below (exportable, and under Stored runs)."
                )
            }
            _ => {
                files::clear_in_progress();
                " No training had finished.".to_string()
            }
        };
        self.sinks.status.set(format!("{why}{kept}"));
    }

    fn stop_workers(&self) {
        self.stopped.set(true);
        for worker in self.workers.borrow().iter() {
            worker.terminate();
        }
        self.sinks.running.set(false);
    }

    /// Stores `results` with the runs (and drops the in-progress copy).
    fn keep(&self, results: &StudyResults) {
        if let Ok(json) = serde_json::to_string(results) {
            match files::store_run(json, 10) {
                Ok(Some(message)) | Err(message) => self.sinks.notice.set(message),
                Ok(None) => {}
            }
            self.sinks.stored.set(files::stored_runs());
        }
        files::clear_in_progress();
    }

    fn set_line(&self, index: usize, line: String) {
        if let Some(slot) = self.lines.borrow_mut().get_mut(index) {
            *slot = line;
        }
        self.show_lines();
    }

    fn show_lines(&self) {
        let lines = self
            .lines
            .borrow()
            .iter()
            .enumerate()
            .map(|(i, line)| format!("Worker {}: {line}", i + 1))
            .collect();
        self.sinks.workers.set(lines);
    }
}
