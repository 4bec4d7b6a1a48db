//! The results: export and import, the committed runs (alone or beside the page's run), the
//! table and charts of the results shown, the trained weights for download, and the runs stored
//! in this browser.

use leptos::prelude::*;

use super::committed_beside::CommittedBeside;
use super::committed_runs::CommittedRuns;
use super::horizon_lens::{lens_from_url, HorizonLens};
use super::panel::Panel;
use super::{ResultsCharts, ResultsTable};
use unroll_browser::files;
use unroll_core::study::data::results::StudyResults;
use unroll_report::results_text::ResultsText;

/// Downloads `results` as `results.json` or `results.csv` (`kind`: `json` or `csv`).
fn export(results: &StudyResults, kind: &str) -> Result<(), String> {
    match kind {
        "json" => serde_json::to_string(results)
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

/// The runs stored in this browser, newest first, each with a View button.
#[component]
fn StoredRuns(panel: Panel) -> impl IntoView {
    view! {
        <ul id="stored-runs">
            {move || panel.stored.get().into_iter().enumerate().rev().map(|(i, json)| {
                let label = match StudyResults::summary_from_json(&json) {
                    Ok(summary) => format!("run {}: {summary}", i + 1),
                    Err(err) => format!("run {}: unreadable ({err})", i + 1),
                };
                view! {
                    <li>{label} " "
                        <button on:click=move |_| if let Ok(r) = StudyResults::from_json(&json) {
                            panel.weights.set(Vec::new());
                            panel.results.set(Some(r));
                        }>"View"</button>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
