//! The results: export and import, the committed runs (alone or beside the page's run), the
//! table and charts of the results shown, the trained weights for download, and the runs stored
//! in this browser.

use leptos::prelude::*;

use super::committed_beside::CommittedBeside;
use super::committed_runs::CommittedRuns;
use super::horizon_lens::{lens_from_url, HorizonLens};
use super::panel::Panel;
use super::run_storage::refresh;
use super::{ResultsCharts, ResultsTable};
use unroll_browser::storage_quota::bytes;
use unroll_browser::timer::local_date;
use unroll_browser::{files, run_store};
use unroll_core::study::data::results::StudyResults;
use unroll_report::judged_export::results_json;
use unroll_report::results_text::ResultsText;

/// Downloads `results` as `results.json` or `results.csv` (`kind`: `json` or `csv`).
fn export(results: &StudyResults, kind: &str) -> Result<(), String> {
    match kind {
        "json" => results_json(results)
            .map_err(|e| e.to_string())
            .and_then(|t| files::download("results.json", "application/json", &t)),
        _ => files::download("results.csv", "text/csv", &results.to_csv()),
    }
}

/// The results section.
#[component]
pub fn ResultsSection(panel: Panel) -> impl IntoView {
    let results = panel.results;
    let export = move |kind: &'static str| {
        if let Some(Err(err)) = results.with(|r| r.as_ref().map(|r| export(r, kind))) {
            panel.notice.set(err);
        }
    };
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            let read = files::read_file_of_event(ev).await;
            match read.and_then(|text| StudyResults::from_json(&text).map_err(|e| e.to_string())) {
                Ok(imported) => panel.shown().show(imported).await,
                Err(err) => panel.notice.set(format!("Import failed: {err}")),
            }
        });
    };
    let none = move || results.with(Option::is_none);
    let lens = RwSignal::new(lens_from_url());
    let shown = Memo::new(move |_| results.with(|r| r.as_ref().map(|r| lens.get().apply(r))));
    Effect::new(move |_| {
        if let Some((_, Some(problem))) = shown.get() {
            panel.notice.set(problem);
        }
    });
    let views = move || {
        let raw = results.get()?;
        let (r, _) = shown.get()?;
        Some(
            view! { <HorizonLens lens results=raw /> <ResultsTable results=r.clone() /> <ResultsCharts results=r /> },
        )
    };
    view! {
        <section id="results" class="panel">
            <h2>"Results"</h2>
            <div class="controls">
                <button id="export-json" on:click=move |_| export("json") disabled=none>"Export JSON"</button>
                <button id="export-csv" on:click=move |_| export("csv") disabled=none>"Export CSV"</button>
                <label>"Import results JSON " <input id="import" type="file" accept=".json,application/json" on:change=import /></label>
            </div>
            <CommittedRuns results=results.read_only() reference=panel.reference sinks=panel.shown() />
            <CommittedBeside results=results.read_only() reference=panel.reference sinks=panel.shown() />
            {views}
            <WeightsDownloads panel />
            <h3>"Stored runs"</h3>
            <StoredRuns panel />
        </section>
    }
}

/// One button per trained weights file at hand.
#[component]
fn WeightsDownloads(panel: Panel) -> impl IntoView {
    let weights = panel.weights;
    view! {
        <div class="controls" class:hidden=move || weights.with(Vec::is_empty)>
            "Trained weights (first seed, burnpack, as `unroll-lab train` writes): "
            {move || weights.get().into_iter().map(|(label, bytes)| {
                let file = format!("weights-{label}.bpk");
                view! {
                    <button class="weights" on:click=move |_| {
                        if let Err(err) = files::download_bytes(&file, &bytes) {
                            panel.notice.set(err);
                        }
                    }>{label.clone()}</button>
                }
            }).collect_view()}
        </div>
    }
}

/// The runs stored in this browser, newest first, each with View, Export and Delete; above
/// them, how much of the browser's storage they use.
#[component]
fn StoredRuns(panel: Panel) -> impl IntoView {
    let usage = move || match panel.storage_use.get() {
        Some(usage) => format!(
            "{} stored run(s); this site's storage: {}.",
            panel.stored.with(Vec::len),
            usage.words()
        ),
        None => format!("{} stored run(s).", panel.stored.with(Vec::len)),
    };
    view! {
        <p id="storage-use">{usage}</p>
        <ul id="stored-runs">
            {move || panel.stored.get().into_iter().rev().map(|run| {
                let id = run.id;
                let label = format!(
                    "run {id}: {} (stored {}, {})",
                    run.summary,
                    local_date(run.saved_ms),
                    bytes(run.bytes as f64)
                );
                view! {
                    <li data-run=id>{label} " "
                        <button on:click=move |_| stored_action(panel, id, Use::View)>"View"</button>
                        <button on:click=move |_| stored_action(panel, id, Use::Export)>"Export"</button>
                        <button on:click=move |_| stored_action(panel, id, Use::Delete)>"Delete"</button>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// What the reader does with a stored run.
#[derive(Clone, Copy)]
enum Use {
    View,
    Export,
    Delete,
}

/// Views, exports (`results-run-ID.json`) or deletes (after asking) stored run `id`; a
/// failure is the notice.
fn stored_action(panel: Panel, id: u32, what: Use) {
    if matches!(what, Use::Delete)
        && !files::confirm(&format!(
            "Delete stored run {id}? Export it first to keep a copy."
        ))
    {
        return;
    }
    leptos::task::spawn_local(async move {
        let done = async {
            let store = run_store::open().await?;
            match what {
                Use::View => {
                    let results = StudyResults::from_json(&store.run(id).await?)
                        .map_err(|e| e.to_string())?;
                    let _ = panel.weights.try_set(Vec::new());
                    let _ = panel.results.try_set(Some(results));
                }
                Use::Export => files::download(
                    &format!("results-run-{id}.json"),
                    "application/json",
                    &store.run(id).await?,
                )?,
                Use::Delete => store.delete(id).await?,
            }
            Ok::<(), String>(())
        };
        if let Err(err) = done.await {
            let _ = panel.notice.try_set(format!("Stored run {id}: {err}."));
        }
        if matches!(what, Use::Delete) {
            refresh(panel.storage_sinks()).await;
        }
    });
}
