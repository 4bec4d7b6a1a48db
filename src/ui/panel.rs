//! The experiment panel's signals, shared by its parts (the run's controls, the workbench, the
//! results section): the experiment mirrored in the URL, its estimate, the run's progress and
//! results, and the stored and committed runs shown.

use std::rc::Rc;

use leptos::prelude::*;

use super::committed_runs::Committed;
use super::pool_run::{PoolRun, Sinks};
use super::run_storage::StorageSinks;
use super::show_results::ResultsSinks;
use unroll_browser::files;
use unroll_browser::run_store::RunSummary;
use unroll_browser::storage_quota::StorageUse;
use unroll_core::study::data::results::StudyResults;
use unroll_pool::unfinished::Unfinished;
use unroll_report::charts::LossCurve;
use unroll_report::experiment::estimate::{Machine, RunEstimate};
use unroll_report::experiment::Experiment;

/// The panel's signals, shared by its parts.
#[derive(Clone, Copy)]
pub struct Panel {
    /// The experiment, mirrored in the URL.
    pub experiment: RwSignal<Experiment>,
    /// Its estimate on this machine (`None` while a knob is invalid).
    pub estimate: Memo<Option<RunEstimate>>,
    /// The page's notice (URL problems, storage, imports).
    pub notice: RwSignal<String>,
    /// One line: what the run is doing.
    pub status: RwSignal<String>,
    /// Fraction of the run done.
    pub fraction: RwSignal<f64>,
    /// Whether a run is going on.
    pub running: RwSignal<bool>,
    /// Whether the run is paused.
    pub paused: RwSignal<bool>,
    /// The live loss curves.
    pub losses: RwSignal<Vec<LossCurve>>,
    /// The trained weights at hand: `(label, burnpack bytes)`.
    pub weights: RwSignal<Vec<(String, Vec<u8>)>>,
    /// One line per finished variant.
    pub finished: RwSignal<Vec<String>>,
    /// The results every view shows.
    pub results: RwSignal<Option<StudyResults>>,
    /// One line per worker.
    pub worker_lines: RwSignal<Vec<String>>,
    /// The long-run question, while it is asked.
    pub confirm: RwSignal<Option<String>>,
    /// The stored runs, oldest first.
    pub stored: RwSignal<Vec<RunSummary>>,
    /// A study the page left unfinished, offered to continue.
    pub unfinished: RwSignal<Option<Unfinished>>,
    /// This origin's use of the browser's storage, once known.
    pub storage_use: RwSignal<Option<StorageUse>>,
    /// The run in progress.
    pub run: StoredValue<Option<Rc<PoolRun>>, LocalStorage>,
    /// The committed run last loaded (results/): shown alone, or beside the page's own run.
    pub reference: RwSignal<Option<Committed>>,
}

impl Panel {
    /// The panel's signals, the experiment read from the URL; `machine` is where it would run.
    pub fn new(machine: Signal<Machine>) -> Self {
        let (initial, ignored) = Experiment::from_query(&files::query());
        let experiment = RwSignal::new(initial);
        Self {
            experiment,
            estimate: Memo::new(move |_| experiment.with(|e| RunEstimate::of(e, &machine.get()))),
            notice: RwSignal::new(ignored.join("; ")),
            status: RwSignal::new("Ready.".into()),
            fraction: RwSignal::new(0.0),
            running: RwSignal::new(false),
            paused: RwSignal::new(false),
            losses: RwSignal::new(Vec::new()),
            weights: RwSignal::new(Vec::new()),
            finished: RwSignal::new(Vec::new()),
            results: RwSignal::new(None),
            worker_lines: RwSignal::new(Vec::new()),
            confirm: RwSignal::new(None),
            stored: RwSignal::new(Vec::new()),
            storage_use: RwSignal::new(None),
            unfinished: RwSignal::new(None),
            run: StoredValue::new_local(None),
            reference: RwSignal::new(None),
        }
    }

    /// The signals a run updates.
    pub fn sinks(self) -> Sinks {
        Sinks {
            status: self.status.write_only(),
            fraction: self.fraction.write_only(),
            workers: self.worker_lines.write_only(),
            losses: self.losses.write_only(),
            finished: self.finished.write_only(),
            results: self.results.write_only(),
            weights: self.weights.write_only(),
            storage: self.storage_sinks(),
            running: self.running.write_only(),
        }
    }

    /// Where storage jobs report.
    pub fn storage_sinks(self) -> StorageSinks {
        StorageSinks {
            notice: self.notice.write_only(),
            stored: self.stored.write_only(),
            storage_use: self.storage_use.write_only(),
        }
    }

    /// Pauses the run, or resumes it when paused.
    pub fn toggle_pause(self) {
        let now_paused = !self.paused.get();
        if let Some(run) = self.run.get_value() {
            run.pause(now_paused);
        }
        self.paused.set(now_paused);
    }

    /// Cancels the run.
    pub fn cancel(self) {
        if let Some(run) = self.run.get_value() {
            run.cancel();
        }
    }

    /// The signals a shown results file replaces.
    pub fn shown(self) -> ResultsSinks {
        ResultsSinks {
            notice: self.notice.write_only(),
            weights: self.weights.write_only(),
            results: self.results.write_only(),
        }
    }
}
