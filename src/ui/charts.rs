//! The results charts in the page: one `<figure>` per [`ChartKind`] of the file's system
//! ([`ChartKind::all_for`]) with its `<canvas>`
//! (drawn by [`unroll_report::charts`] through plotters' canvas backend once mounted), a caption and a
//! PNG download; a `<select id="sample-test">` picks the sample maps' test (and, for a system
//! whose maps are field snapshots, a `#snapshot` slider their time). Every word of a title,
//! caption or label comes from the system's facts. [`LiveLoss`] redraws
//! the loss curves while a study trains. A drawn canvas gets `data-drawn="true"`; a drawing
//! error is shown in its caption.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;
use unroll_report::system_words::SystemWords;

use super::canvas_figure::CanvasFigure;
use unroll_browser::canvas as canvas_backend;
use unroll_browser::timer::sleep;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::MapKind;
use unroll_report::charts::{self, ChartKind, LossCurve};

/// Every results chart of `results`, with the space–time test picker.
#[component]
pub fn ResultsCharts(results: StudyResults) -> impl IntoView {
    let (sample, set_sample) = signal(0usize);
    let facts = results.facts();
    let field_snapshots = facts.maps.kind == MapKind::FieldSnapshots;
    let snapshots = charts::vorticity::snapshots(&results, 0);
    let snapshot = RwSignal::new(snapshots.saturating_sub(1));
    let options = sample_options(&results);
    let sizes: Vec<(ChartKind, (u32, u32))> = ChartKind::all_for(&results)
        .into_iter()
        .map(|kind| (kind, kind.size(&results)))
        .collect();
    let preset = results.preset;
    let results = StoredValue::new(results);
    let figures = sizes
        .into_iter()
        .map(|(kind, size)| {
            let file = format!("unroll-lab-{preset}-{}.png", kind.id());
            view! { <ChartFigure kind=kind size=size results=results sample=sample snapshot=snapshot.read_only() file=file /> }
        })
        .collect_view();
    view! {
        <div class="charts">
            <SamplePicker title=facts.maps.title options=options sample=set_sample />
            {field_snapshots.then(|| view! {
                <SnapshotPicker label=facts.maps.snapshot_label snapshots=snapshots snapshot=snapshot />
            })}
            <div class="charts-grid">{figures}</div>
        </div>
    }
}

/// The sample maps' test menu (`options`: one label per sample in the file).
#[component]
fn SamplePicker(
    title: &'static str,
    options: Vec<String>,
    sample: WriteSignal<usize>,
) -> impl IntoView {
    let no_samples = options.is_empty();
    let on_change = move |ev: leptos::ev::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            sample.set(i);
        }
    };
    view! {
        <label class="sample-picker">{title}" test: "
            <select id="sample-test" on:change=on_change disabled=no_samples>
                {if no_samples {
                    view! { <option value="0">"not in this file"</option> }.into_any()
                } else {
                    options
                        .into_iter()
                        .enumerate()
                        .map(|(i, label)| view! { <option value=i.to_string()>{label}</option> })
                        .collect_view()
                        .into_any()
                }}
            </select>
        </label>
    }
}

/// The slider of the field snapshots' time (`snapshots` of them).
#[component]
fn SnapshotPicker(
    label: &'static str,
    snapshots: usize,
    snapshot: RwSignal<usize>,
) -> impl IntoView {
    view! {
        <label class="snapshot-picker">{label}": "
            <input id="snapshot" type="range" min="0"
                max=snapshots.saturating_sub(1).to_string()
                prop:value=move || snapshot.get().to_string()
                on:input=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                        snapshot.set(k);
                    }
                } />
            <output id="snapshot-value">{move || format!(
                "{} of {}", snapshot.get() + 1, snapshots
            )}</output>
        </label>
    }
}

/// The picker's option labels, one per [`StudyResults::samples`] entry.
fn sample_options(results: &StudyResults) -> Vec<String> {
    results
        .samples
        .iter()
        .map(|s| {
            format!(
                "{} = {}, test {}",
                results.facts().parameter.test,
                s.scale,
                s.test
            )
        })
        .collect()
}

/// One chart: canvas (`size` px), caption with the drawing error if any, PNG button.
#[component]
fn ChartFigure(
    kind: ChartKind,
    size: (u32, u32),
    results: StoredValue<StudyResults>,
    sample: ReadSignal<usize>,
    snapshot: ReadSignal<usize>,
    file: String,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let error = RwSignal::new(String::new());
    let (title, description) = results.with_value(|r| {
        let facts = r.facts();
        (kind.title(&facts), kind.description(&facts))
    });
    Effect::new(move |_| {
        // Only the space–time chart depends on the chosen test (and snapshot).
        let (index, at) = if kind == ChartKind::SpaceTime {
            (sample.get(), snapshot.get())
        } else {
            (0, 0)
        };
        let Some(element) = canvas.get() else {
            return;
        };
        // Each chart draws in a task of its own, so a results view of eight charts never
        // holds the main thread for all of them at once.
        leptos::task::spawn_local(async move {
            sleep(0).await;
            let outcome = results.try_with_value(|r| {
                canvas_backend::draw_with(&element, |area| {
                    charts::draw_at(kind, area, r, index, at)
                })
            });
            if let Some(outcome) = outcome {
                let _ = error.try_set(outcome.err().unwrap_or_default());
            }
        });
    });
    let class = if kind == ChartKind::SpaceTime {
        "chart tall"
    } else {
        "chart"
    };
    view! {
        <CanvasFigure id=kind.id() canvas size class title caption=description png=file error />
    }
}

/// Milliseconds a live-loss redraw waits, gathering the losses that arrive meanwhile.
const LIVE_REDRAW_MS: i32 = 400;

/// The training loss of each variant and seed while the study runs (`#chart-live-loss`,
/// redrawn at most every [`LIVE_REDRAW_MS`] while `curves` changes; `(name, [(iteration,
/// loss)])`, log scale).
#[component]
pub fn LiveLoss(curves: ReadSignal<Vec<LossCurve>>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let error = RwSignal::new(String::new());
    // Losses arrive many times a second from every worker; redraws are coalesced to one per
    // LIVE_REDRAW_MS so the page's main thread stays free (Pause, Cancel, the first screen).
    let pending = StoredValue::new(false);
    Effect::new(move |_| {
        curves.track();
        if canvas.get().is_none() || pending.get_value() {
            return;
        }
        pending.set_value(true);
        leptos::task::spawn_local(async move {
            sleep(LIVE_REDRAW_MS).await;
            if pending.try_set_value(false).is_some() {
                return;
            }
            let Some(element) = canvas.get_untracked() else {
                return;
            };
            let outcome = curves.try_with_untracked(|c| {
                canvas_backend::draw_with(&element, |area| {
                    area.fill(&WHITE)?;
                    charts::draw_loss(area, c, "Waiting for the first loss values…")
                })
            });
            if let Some(outcome) = outcome {
                let _ = error.try_set(outcome.err().unwrap_or_default());
            }
        });
    });
    view! {
        <div class="charts">
            <CanvasFigure id="chart-live-loss" canvas size=(720, 360) class="chart live-loss"
                title="Training loss (live)" caption="One line per variant and seed, log scale."
                png="unroll-lab-live-loss.png" error />
        </div>
    }
}
