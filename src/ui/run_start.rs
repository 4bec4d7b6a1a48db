//! Starting a run: the panel cleared, the pool of workers started on a plan (or continuing an
//! unfinished study), and what the fault tests set (`?worker-fault=`, `?checkpoint-every=`, dev
//! builds).

use leptos::prelude::*;

use super::panel::Panel;
use super::pool_run::{Launch, PageFault, PoolRun};
use unroll_browser::files;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_pool::pool::CHECKPOINT_SECS;
use unroll_pool::unfinished::Unfinished;
use unroll_report::experiment::Experiment;

/// The failure `?worker-fault=` injects into worker 1: `panic` (it panics at its first
/// training, every time it starts), `start` (its script cannot load, the first time), `kill`
/// (it is terminated after its first finished training), `device-lost` (its WebGPU device is
/// lost then).
/// Compiled into dev builds only (the e2e site); a release build ignores the key.
#[cfg(not(debug_assertions))]
fn injected_fault() -> Option<PageFault> {
    None
}

#[cfg(debug_assertions)]
fn injected_fault() -> Option<PageFault> {
    match files::query_value("worker-fault")?.as_str() {
        "panic" => Some(PageFault::Panic),
        "start" => Some(PageFault::Start),
        "kill" => Some(PageFault::Kill),
        "device-lost" => Some(PageFault::DeviceLost),
        _ => None,
    }
}

/// How often CPU workers post a checkpoint, in seconds: [`CHECKPOINT_SECS`], or in dev builds
/// `?checkpoint-every=SECONDS` (the reload tests).
#[cfg(not(debug_assertions))]
fn checkpoint_secs() -> f64 {
    CHECKPOINT_SECS
}

#[cfg(debug_assertions)]
fn checkpoint_secs() -> f64 {
    files::query_value("checkpoint-every")
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(CHECKPOINT_SECS)
}

/// Starts `plan` on `workers` workers, continuing `continues` where given. An unfinished study
/// the reader did not continue is first kept as a stored partial run.
pub fn start_run(
    panel: Panel,
    plan: StudyPlan,
    workers: usize,
    webgpu: bool,
    continues: Option<Box<Unfinished>>,
) {
    let left = panel.unfinished.get_untracked();
    panel.unfinished.set(None);
    let keep = left
        .filter(|_| continues.is_none())
        .and_then(|u| u.partial)
        .map(Box::new);
    panel.paused.set(false);
    panel.results.set(None);
    panel.losses.set(Vec::new());
    panel.weights.set(Vec::new());
    panel.finished.set(Vec::new());
    panel.fraction.set(0.0);
    let launch = Launch {
        plan,
        workers,
        webgpu,
        fault: injected_fault(),
        checkpoint_secs: checkpoint_secs(),
        query: panel.experiment.with_untracked(Experiment::to_query),
        continues,
        keep,
    };
    panel
        .run
        .set_value(Some(PoolRun::start(launch, panel.sinks())));
}
