//! The run's controls on the first screen: Run / Pause / Cancel, the estimate, the long-run
//! question (a run the estimate puts over
//! [`CONFIRM_ABOVE_SECS`](unroll_report::experiment::estimate::CONFIRM_ABOVE_SECS) asks first and offers the CLI
//! command), the progress bar, the status and the notices. The worker count and the time are
//! the experiment's [`RunEstimate`]'s; the run is a [`PoolRun`](super::pool_run::PoolRun).

use leptos::prelude::*;

use super::panel::Panel;
use super::run_start::start_run;
use super::unfinished_prompt::UnfinishedPrompt;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::system::System;
use unroll_report::experiment::estimate::RunEstimate;
use unroll_report::experiment::Experiment;

/// Starts the panel's experiment on its estimate's workers (`webgpu`: on WebGPU).
fn launch(panel: Panel, estimate: &RunEstimate, webgpu: bool) {
    panel.confirm.set(None);
    let config = panel.experiment.get_untracked().study_config();
    let plan = match StudyPlan::new(config, System::description, estimate.flop_rate) {
        Ok(plan) => plan,
        Err(err) => {
            panel.status.set(format!("Cannot run: {err}"));
            return;
        }
    };
    start_run(panel, plan, estimate.workers, webgpu, None);
}

/// The controls. `ready` turns true once the start-up probe has chosen a device (`webgpu` when
/// it chose WebGPU); `training_note` is the probe's note on the training device.
#[component]
pub fn RunControls(
    panel: Panel,
    ready: ReadSignal<bool>,
    webgpu: ReadSignal<bool>,
    training_note: ReadSignal<String>,
) -> impl IntoView {
    let invalid = move || !panel.experiment.with(|e| e.validate().is_empty());
    let go = move || {
        if let Some(estimate) = panel.estimate.get_untracked() {
            launch(panel, &estimate, webgpu.get_untracked());
        }
    };
    let start = move |_| {
        if !ready.get() {
            panel
                .status
                .set("The compute device is not ready yet.".into());
            return;
        }
        let Some(estimate) = panel.estimate.get().filter(|_| !invalid()) else {
            return;
        };
        let cli_command = panel.experiment.with_untracked(Experiment::cli_command);
        match estimate.long_run_question(&cli_command) {
            Some(question) => panel.confirm.set(Some(question)),
            None => go(),
        }
    };
    let (running, paused, confirm) = (panel.running, panel.paused, panel.confirm);
    let estimate = move || {
        panel
            .estimate
            .with(|e| e.as_ref().map(RunEstimate::summary))
            .unwrap_or_else(|| "Correct the fields marked in the advanced settings.".into())
    };
    view! {
        <div class="controls run-controls">
            <button id="run" class="primary" on:click=start disabled=move || running.get() || invalid()>"Run"</button>
            <button id="pause" on:click=move |_| panel.toggle_pause() disabled=move || !running.get()>{move || if paused.get() { "Resume" } else { "Pause" }}</button>
            <button id="cancel" on:click=move |_| panel.cancel() disabled=move || !running.get()>"Cancel"</button>
        </div>
        <p id="hero-estimate" class="estimate">{estimate}</p>
        <p class="hint"><a href="#playground">"Or try the trained models on an initial state you draw ↓"</a></p>
        <div id="confirm-run" class="notice" role="alertdialog" aria-label="Confirm a long run" class:hidden=move || confirm.get().is_none()>
            <p>{move || confirm.get().unwrap_or_default()}</p>
            <button id="confirm-run-anyway" on:click=move |_| go()>"Run in the browser anyway"</button>
            <button id="confirm-run-cancel" on:click=move |_| confirm.set(None)>"Cancel"</button>
        </div>
        <UnfinishedPrompt panel ready webgpu />
        <RunStatus panel training_note />
    }
}

/// The run's progress, status line and notices.
#[component]
fn RunStatus(panel: Panel, training_note: ReadSignal<String>) -> impl IntoView {
    let notice = panel.notice;
    view! {
        <progress id="progress" max="1" aria-label="Study progress" prop:value=move || panel.fraction.get()></progress>
        <p id="status" role="status">{move || panel.status.get()}</p>
        <p id="url-notice" class="notice" class:hidden=move || notice.get().is_empty()>{move || notice.get()}</p>
        <p id="training-note" class="notice" class:hidden=move || training_note.get().is_empty()>{training_note}</p>
        <p id="storage-warning" class="notice" class:hidden=move || storage_warning(panel).is_none()>
            {move || storage_warning(panel).unwrap_or_default()}
            " " <a href="#stored-runs">"Stored runs ↓"</a>
        </p>
    }
}

/// Bytes a run needs kept at least: twice the largest stored run (the browser keeps its text
/// as UTF-16), and never less than 10 MB.
const ROOM_FLOOR: f64 = 10e6;

/// What to say before a run when the browser's storage may not keep it: nothing is dropped to
/// make room, so the reader chooses what to export or delete.
fn storage_warning(panel: Panel) -> Option<String> {
    let usage = panel.storage_use.get()?;
    let largest = panel
        .stored
        .with(|runs| runs.iter().map(|r| r.bytes).max().unwrap_or(0));
    let needed = (4.0 * largest as f64).max(ROOM_FLOOR);
    (usage.left() < needed).then(|| {
        format!(
            "This site's browser storage is nearly full ({}): the next run may not be kept here. \
             Export or delete stored runs first, or export the run's results when it ends.",
            usage.words()
        )
    })
}
