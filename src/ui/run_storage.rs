//! What a run keeps in the browser's [`RunStore`], done in the order asked, one job per idle
//! period (never in the task of the worker message that asked for it: serialising a results
//! file takes tens of ms), with every failure shown; and the stored runs' list and the
//! storage's use, re-read after each job.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use leptos::prelude::*;

use unroll_browser::run_store::{self, RunStore, RunSummary};
use unroll_browser::storage_quota::{self, StorageUse};
use unroll_browser::timer::{epoch_ms, idle};
use unroll_core::study::data::results::StudyResults;
use unroll_pool::unfinished::Unfinished;

/// A storage job.
pub enum Storage {
    /// Replace the unfinished study's saved state (what a reload continues).
    SaveInProgress(Box<Unfinished>),
    /// Forget them (the run ended; skipped when storing it failed, so they stay).
    ClearInProgress,
    /// Add these results to the stored runs.
    Store(Box<StudyResults>),
}

/// Milliseconds a storage job waits at most for an idle period.
const IDLE_TIMEOUT_MS: u32 = 2000;

/// Where storage jobs report: a notice, the stored runs' list and the storage's use.
#[derive(Clone, Copy)]
pub struct StorageSinks {
    pub notice: WriteSignal<String>,
    pub stored: WriteSignal<Vec<RunSummary>>,
    pub storage_use: WriteSignal<Option<StorageUse>>,
}

/// The jobs asked for and not done yet; one task drains them.
#[derive(Default)]
pub struct StorageQueue {
    jobs: RefCell<VecDeque<Storage>>,
    draining: Cell<bool>,
}

thread_local! {
    static SHARED: Rc<StorageQueue> = Rc::default();
}

impl StorageQueue {
    /// The page's one queue: every run's jobs in the order asked, so a finished run's last
    /// writes never land after the next run's first.
    pub fn shared() -> Rc<Self> {
        SHARED.with(Rc::clone)
    }

    /// Queues `job`, starting the task that drains the queue unless it runs. A save of the
    /// unfinished study replaces one still queued behind it (the newer holds all it did).
    pub fn push(self: &Rc<Self>, job: Storage, sinks: StorageSinks) {
        {
            let mut jobs = self.jobs.borrow_mut();
            let superseded = matches!(
                (jobs.back(), &job),
                (Some(Storage::SaveInProgress(_)), Storage::SaveInProgress(_))
            );
            if superseded {
                jobs.pop_back();
            }
            jobs.push_back(job);
        }
        if self.draining.replace(true) {
            return;
        }
        let queue = self.clone();
        leptos::task::spawn_local(async move {
            let mut keep_in_progress = false;
            loop {
                idle(IDLE_TIMEOUT_MS).await;
                let job = queue.jobs.borrow_mut().pop_front();
                let Some(job) = job else { break };
                if matches!(job, Storage::ClearInProgress) && keep_in_progress {
                    keep_in_progress = false;
                    continue;
                }
                let stored = matches!(job, Storage::Store(_));
                let failed = run(job, sinks).await.is_err();
                keep_in_progress = stored && failed;
            }
            queue.draining.set(false);
        });
    }

    /// Hands every queued write to the browser at once (the page is going away: nothing can be
    /// awaited). The newest results (a finished run's, else the partial) become the running
    /// study's partial results, which the next visit finds.
    pub fn flush(&self) {
        let jobs: Vec<Storage> = self.jobs.borrow_mut().drain(..).collect();
        let newest = jobs.into_iter().rev().find_map(|job| match job {
            Storage::SaveInProgress(unfinished) => serde_json::to_string(&unfinished).ok(),
            Storage::Store(results) => serde_json::to_string(&results.without_weights()).ok(),
            Storage::ClearInProgress => None,
        });
        if let (Some(json), Some(store)) = (newest, run_store::opened()) {
            let _ = store.save_in_progress(&json);
        }
    }
}

/// Does one job; its failure is shown as the notice.
async fn run(job: Storage, sinks: StorageSinks) -> Result<(), String> {
    let outcome = match run_store::open().await {
        Ok(store) => run_on(&store, job).await,
        Err(err) => Err(err),
    };
    if let Err(err) = &outcome {
        let _ = sinks
            .notice
            .try_set(format!("Not kept in this browser: {err}."));
    }
    refresh(sinks).await;
    outcome
}

async fn run_on(store: &RunStore, job: Storage) -> Result<(), String> {
    match job {
        Storage::SaveInProgress(unfinished) => {
            let json = serde_json::to_string(&unfinished).map_err(|e| e.to_string())?;
            store.save_in_progress(&json)?.await
        }
        Storage::ClearInProgress => store.clear_in_progress().await,
        Storage::Store(results) => {
            let json =
                serde_json::to_string(&results.without_weights()).map_err(|e| e.to_string())?;
            store.add(&json, epoch_ms()).await?;
            // Asked once there is something to keep (the browser may decide without asking).
            storage_quota::ask_persistence().await;
            Ok(())
        }
    }
}

/// Re-reads the stored runs and the storage's use into `sinks`.
pub async fn refresh(sinks: StorageSinks) {
    match run_store::open().await {
        Ok(store) => match store.runs().await {
            Ok(runs) => {
                let _ = sinks.stored.try_set(runs);
            }
            Err(err) => {
                let _ = sinks
                    .notice
                    .try_set(format!("The stored runs cannot be listed: {err}."));
            }
        },
        Err(err) => {
            let _ = sinks
                .notice
                .try_set(format!("No runs can be kept in this browser: {err}."));
        }
    }
    let _ = sinks.storage_use.try_set(storage_quota::estimate().await);
}
