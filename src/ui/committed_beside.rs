//! A loaded committed run in the results section: its label (budget, seeds, commit) beside the
//! table and charts when it is the run every view shows; when the page shows another run of the
//! same study, the two side by side — a table of each variant's error and relative-to-ONE, here
//! and committed, and the relative-to-ONE bars paired — with a button showing the committed run
//! alone.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

use super::canvas_figure::CanvasFigure;
use super::committed_runs::Committed;
use super::show_results::ResultsSinks;
use unroll_browser::canvas as canvas_backend;
use unroll_browser::timer::sleep;
use unroll_core::study::data::results::StudyResults;
use unroll_report::beside::{beside_rows, comparable, same_run};
use unroll_report::charts;
use unroll_report::system_words::SystemWords;

/// The label or the side-by-side view, or nothing when no committed run is loaded or the page
/// shows a run of another study.
#[component]
pub fn CommittedBeside(
    results: ReadSignal<Option<StudyResults>>,
    reference: RwSignal<Option<Committed>>,
    sinks: ResultsSinks,
) -> impl IntoView {
    move || {
        let committed = reference.get()?;
        results.with(|here| {
            let here = here.as_ref()?;
            if same_run(here, &committed.results) {
                Some(
                    view! {
                        <p id="committed-label" class="committed-label">
                            "Committed run: " {committed.run.label()}
                        </p>
                    }
                    .into_any(),
                )
            } else if comparable(here, &committed.results) {
                Some(
                    view! { <SideBySide here=here.clone() committed=committed sinks=sinks /> }
                        .into_any(),
                )
            } else {
                None
            }
        })
    }
}

/// The page's `here` and the `committed` run of the same study, side by side.
#[component]
fn SideBySide(here: StudyResults, committed: Committed, sinks: ResultsSinks) -> impl IntoView {
    let label = committed.run.label();
    let alone = committed.results.clone();
    let table = beside_table(&here, &committed.results);
    view! {
        <div id="committed-beside" class="committed-beside">
            <p id="committed-label" class="committed-label">
                "Beside this page's results: the committed run " {label}
            </p>
            {table}
            <BesideChart here committed=committed.results />
            <button id="committed-view-alone" on:click=move |_| {
                let alone = alone.clone();
                leptos::task::spawn_local(sinks.show(alone));
            }>"Show the committed run alone in every view"</button>
        </div>
    }
}

/// Each variant's error and relative-to-ONE, here and committed.
fn beside_table(here: &StudyResults, committed: &StudyResults) -> impl IntoView {
    let metric = here.facts().metric.short;
    let rows = beside_rows(here, committed)
        .into_iter()
        .map(|row| {
            let [error_here, ratio_here] = row.here;
            let [error_committed, ratio_committed] = row.committed;
            view! {
                <tr class="beside-row">
                    <td>{row.variant}</td>
                    <td>{error_here}</td><td>{error_committed}</td>
                    <td>{ratio_here}</td><td>{ratio_committed}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table id="committed-beside-table" class="results">
            <caption>"This page's run beside the committed run of the same study"</caption>
            <thead>
                <tr>
                    <th scope="col">"variant"</th>
                    <th scope="col">{format!("{metric} here")}</th>
                    <th scope="col">{format!("{metric} committed")}</th>
                    <th scope="col">"relative to ONE here"</th>
                    <th scope="col">"relative to ONE committed"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// The relative-to-ONE bars of `here` and `committed` paired, drawn in a task of its own.
#[component]
fn BesideChart(here: StudyResults, committed: StudyResults) -> impl IntoView {
    let pair = StoredValue::new((here, committed));
    let canvas = NodeRef::<Canvas>::new();
    let error = RwSignal::new(String::new());
    Effect::new(move |_| {
        let Some(element) = canvas.get() else {
            return;
        };
        leptos::task::spawn_local(async move {
            sleep(0).await;
            let outcome = pair.try_with_value(|(here, committed)| {
                canvas_backend::draw_with(&element, |area| {
                    area.fill(&WHITE)?;
                    charts::draw_relative_to_one_beside(area, here, committed)
                })
            });
            if let Some(outcome) = outcome {
                let _ = error.try_set(outcome.err().unwrap_or_default());
            }
        });
    });
    view! {
        <CanvasFigure id="chart-relative-beside" canvas size=(960, 360) class="chart"
            title="Relative to ONE, here and committed"
            caption="Each NOG / WIG variant's error ÷ ONE's (same configuration and seed, mean ± std over seeds): this page's bar in the variant's colour, the committed run's lighter beside it; below the dashed line at 1 unrolling helped."
            error />
    }
}
