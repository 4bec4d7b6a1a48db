//! The offer to continue a study the page left unfinished (closed, reloaded): its experiment,
//! its finished trainings and the rest trained now (a part-trained one from its checkpoint), or
//! what it did kept as a stored partial run.
//! Starting another run keeps it that way too ([`super::run_start::start_run`]): nothing is
//! dropped without the reader's word.

use leptos::prelude::*;

use super::panel::Panel;
use super::run_start::start_run;
use super::run_storage::refresh;
use unroll_browser::run_store;
use unroll_browser::timer::epoch_ms;
use unroll_pool::unfinished::Unfinished;
use unroll_report::experiment::Experiment;

/// Continues `unfinished` with its experiment, on the workers and device the page would use.
fn continue_study(panel: Panel, unfinished: Unfinished, webgpu: bool) {
    let (experiment, _) = Experiment::from_query(&unfinished.query);
    panel.experiment.set(experiment);
    let workers = panel.estimate.get_untracked().map_or(1, |e| e.workers);
    let plan = unfinished.plan.clone();
    start_run(panel, plan, workers, webgpu, Some(Box::new(unfinished)));
}

/// Stores what `unfinished` did as a partial run and forgets its saved state.
fn keep_as_run(panel: Panel, unfinished: Unfinished) {
    panel.unfinished.set(None);
    leptos::task::spawn_local(async move {
        let had_trainings = unfinished.partial.is_some();
        let kept = async {
            let store = run_store::open().await?;
            if let Some(partial) = unfinished.partial {
                let json =
                    serde_json::to_string(&partial.without_weights()).map_err(|e| e.to_string())?;
                store.add(&json, epoch_ms()).await?;
            }
            store.clear_in_progress().await
        };
        let notice = match kept.await {
            Ok(()) if had_trainings => {
                "The unfinished study's trainings are kept as a partial run under Stored runs."
                    .into()
            }
            Ok(()) => {
                "The unfinished study had no finished training; its part-trained state was dropped."
                    .into()
            }
            Err(err) => {
                format!("The unfinished study could not be stored ({err}); it stays saved.")
            }
        };
        let _ = panel.notice.try_set(notice);
        refresh(panel.storage_sinks()).await;
    });
}

/// The offer, shown while there is an unfinished study and no run.
#[component]
pub fn UnfinishedPrompt(
    panel: Panel,
    ready: ReadSignal<bool>,
    webgpu: ReadSignal<bool>,
) -> impl IntoView {
    let unfinished = panel.unfinished;
    let words = move || {
        unfinished.with(|u| {
            u.as_ref().map_or_else(String::new, |u| {
                format!(
                    "A study was left unfinished when the page closed ({}).",
                    u.progress()
                )
            })
        })
    };
    let hidden = move || unfinished.with(Option::is_none) || panel.running.get();
    view! {
        <div id="unfinished" class="notice" role="alertdialog" aria-label="Continue the unfinished study" class:hidden=hidden>
            <p>{words}</p>
            <button id="unfinished-continue" class="primary" disabled=move || !ready.get() on:click=move |_| {
                if let Some(u) = unfinished.get_untracked() {
                    continue_study(panel, u, webgpu.get_untracked());
                }
            }>"Continue it"</button>
            <button id="unfinished-keep" on:click=move |_| {
                if let Some(u) = unfinished.get_untracked() {
                    keep_as_run(panel, u);
                }
            }>"Keep what it did as a stored run"</button>
        </div>
    }
}
