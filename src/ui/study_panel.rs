//! The experiment panel: the experiment form (every knob validated inline, mirrored in the URL,
//! with the workload estimate, the deviations from the study and the CLI command; see
//! [`super::ExperimentForm`]), Run / Pause / Cancel with a progress bar and the live loss per
//! variant, then the results table; export, import, stored runs. The run itself is the
//! numerics' [`Driver`]: this component only turns its events into signals.

use std::cell::Cell;
use std::rc::Rc;

use burn::tensor::Device;
use leptos::prelude::*;

use super::calibration;
use super::{ExperimentForm, GradientFlow, LiveLoss, ResultsCharts, ResultsTable};
use crate::charts::{extend_curve, LossCurve};
use crate::experiment::Experiment;
use crate::numerics::study::driver::{Driver, RunEvent, TickPolicy};
use crate::numerics::train::Mode;
use crate::platform::files;
use crate::platform::timer::sleep;
use crate::report::results::{ResultsText, StudyResults};

/// Run control shared with the running loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Control {
    Running,
    Paused,
    Cancelled,
}

/// Target wall time of one tick's work: the driver adapts iterations per tick to it.
const TICK_BUDGET_SECS: f64 = 0.04;

/// The panel. `device` is `None` until the compute device is ready.
#[component]
pub fn StudyPanel(
    device: ReadSignal<Option<Device>, LocalStorage>,
    training_note: ReadSignal<String>,
) -> impl IntoView {
    let (initial, ignored) = Experiment::from_query(&files::query());
    let experiment = RwSignal::new(initial);
    let flop_rate = calibration::flop_rate(device);
    let (notice, set_notice) = signal(ignored.join("; "));
    let (status, set_status) = signal(String::from("Ready."));
    let (fraction, set_fraction) = signal(0.0f64);
    let (running, set_running) = signal(false);
    let (paused, set_paused) = signal(false);
    let (losses, set_losses) = signal(Vec::<LossCurve>::new());
    let (weights, set_weights) = signal(Vec::<(String, Vec<u8>)>::new());
    let (diagram_mode, set_diagram_mode) = signal(None::<Mode>);
    let (finished, set_finished) = signal(Vec::<String>::new());
    let (results, set_results) = signal(None::<StudyResults>);
    let (stored, set_stored) = signal(files::stored_runs());
    let control: StoredValue<Rc<Cell<Control>>, LocalStorage> =
        StoredValue::new_local(Rc::new(Cell::new(Control::Cancelled)));

    let sinks = Sinks {
        status: set_status,
        fraction: set_fraction,
        losses: set_losses,
        finished: set_finished,
        results: set_results,
        weights: set_weights,
        notice: set_notice,
        stored: set_stored,
    };
    Effect::new(move |_| files::set_query(&experiment.get().to_query()));
    let errors = move || experiment.get().validate();

    let start = move |_| {
        let Some(device) = device.get() else {
            set_status.set("The compute device is not ready yet.".into());
            return;
        };
        if !errors().is_empty() {
            return;
        }
        control.get_value().set(Control::Cancelled);
        let run_control = Rc::new(Cell::new(Control::Running));
        control.set_value(run_control.clone());
        let config = experiment.get().study_config();
        set_running.set(true);
        set_paused.set(false);
        set_results.set(None);
        set_losses.set(Vec::new());
        set_weights.set(Vec::new());
        set_finished.set(Vec::new());
        leptos::task::spawn_local(async move {
            let policy = TickPolicy::Adaptive {
                target_secs: TICK_BUDGET_SECS,
            };
            let mut driver = match Driver::new(config, &device, Rc::new(files::now_secs), policy) {
                Ok(driver) => driver,
                Err(err) => {
                    set_status.set(format!("Cannot run: {err}"));
                    set_running.set(false);
                    return;
                }
            };
            while !driver.stopped() {
                match run_control.get() {
                    Control::Cancelled => {
                        set_status.set("Cancelled.".into());
                        break;
                    }
                    Control::Paused => {
                        sleep(100).await;
                        continue;
                    }
                    Control::Running => {}
                }
                for event in driver.tick().await {
                    show(event, &sinks);
                }
                sleep(0).await;
            }
            set_running.set(false);
        });
    };
    let pause = move |_| {
        let c = control.get_value();
        if c.get() == Control::Running {
            c.set(Control::Paused);
            set_paused.set(true);
        } else if c.get() == Control::Paused {
            c.set(Control::Running);
            set_paused.set(false);
        }
    };
    let cancel = move |_| control.get_value().set(Control::Cancelled);
    let export = move |kind: &'static str| {
        if let Some(r) = results.get() {
            let outcome = match kind {
                "json" => serde_json::to_string(&r)
                    .map_err(|e| e.to_string())
                    .and_then(|t| files::download("results.json", "application/json", &t)),
                _ => files::download("results.csv", "text/csv", &r.to_csv()),
            };
            if let Err(err) = outcome {
                set_notice.set(err);
            }
        }
    };
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            match files::read_file_of_event(ev).await {
                Ok(text) => match StudyResults::from_json(&text) {
                    Ok(imported) => {
                        set_notice.set(String::new());
                        set_results.set(Some(imported));
                    }
                    Err(err) => set_notice.set(format!("Import failed: {err}")),
                },
                Err(err) => set_notice.set(format!("Import failed: {err}")),
            }
        });
    };

    view! {
        <section id="experiment" class="panel">
            <h2>"Experiment"</h2>
            <p id="url-notice" class="notice" class:hidden=move || notice.get().is_empty()>{notice}</p>
            <p class="notice">{training_note}</p>
            <ExperimentForm experiment=experiment flop_rate=flop_rate />
            <div class="diagram-controls">
                <label>"Gradient-flow diagram for "
                    <select id="diagram-mode" on:change=move |ev| {
                        set_diagram_mode.set(event_target_value(&ev).parse::<Mode>().ok());
                    }>
                        {Mode::ALL.into_iter().map(|m| view! {
                            <option value=m.name() selected=move || diagram_mode_of(experiment.get().modes.first().copied(), diagram_mode.get()) == m>{m.name()}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <GradientFlow
                mode=Signal::derive(move || diagram_mode_of(experiment.get().modes.first().copied(), diagram_mode.get()))
                unroll=Signal::derive(move || experiment.get().study_config().base.unroll)
            />
            <div class="controls">
                <button id="run" on:click=start disabled=move || running.get() || !errors().is_empty()>"Run"</button>
                <button id="pause" on:click=pause disabled=move || !running.get()>{move || if paused.get() { "Resume" } else { "Pause" }}</button>
                <button id="cancel" on:click=cancel disabled=move || !running.get()>"Cancel"</button>
            </div>
            <progress id="progress" max="1" prop:value=move || fraction.get()></progress>
            <p id="status">{status}</p>
            <LiveLoss curves=losses />
            <ul id="live-losses">
                {move || losses.get().into_iter().filter_map(|curve| {
                    let (it, loss) = *curve.points.last()?;
                    Some(view! { <li>{format!("{}: loss {loss:.3e} at iteration {}", curve.name, it + 1)}</li> })
                }).collect_view()}
            </ul>
            <ul id="finished-variants">
                {move || finished.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
            </ul>
        </section>
        <section id="results" class="panel">
            <h2>"Results"</h2>
            <div class="controls">
                <button id="export-json" on:click=move |_| export("json") disabled=move || results.get().is_none()>"Export JSON"</button>
                <button id="export-csv" on:click=move |_| export("csv") disabled=move || results.get().is_none()>"Export CSV"</button>
                <label>"Import results JSON " <input id="import" type="file" accept=".json,application/json" on:change=import /></label>
            </div>
            {move || results.get().map(|r| view! { <ResultsTable results=r.clone() /> <ResultsCharts results=r /> })}
            <div class="controls" class:hidden=move || weights.get().is_empty()>
                "Trained weights (first seed, burnpack, as `unroll-lab train` writes): "
                {move || weights.get().into_iter().map(|(label, bytes)| {
                    let file = format!("weights-{label}.bpk");
                    view! {
                        <button class="weights" on:click=move |_| {
                            if let Err(err) = files::download_bytes(&file, &bytes) {
                                set_notice.set(err);
                            }
                        }>{label.clone()}</button>
                    }
                }).collect_view()}
            </div>
            <h3>"Stored runs"</h3>
            <ul id="stored-runs">
                {move || stored.get().into_iter().enumerate().rev().map(|(i, json)| {
                    let label = match StudyResults::summary_from_json(&json) {
                        Ok(summary) => format!("run {}: {summary}", i + 1),
                        Err(err) => format!("run {}: unreadable ({err})", i + 1),
                    };
                    view! {
                        <li>{label} " "
                            <button on:click=move |_| if let Ok(r) = StudyResults::from_json(&json) { set_results.set(Some(r)) }>"View"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// The mode the diagram shows: the one picked, else the experiment's first.
fn diagram_mode_of(first_selected: Option<Mode>, picked: Option<Mode>) -> Mode {
    picked.or(first_selected).unwrap_or(Mode::Correct)
}

/// The signals a run's events update.
#[derive(Clone, Copy)]
struct Sinks {
    status: WriteSignal<String>,
    fraction: WriteSignal<f64>,
    losses: WriteSignal<Vec<LossCurve>>,
    finished: WriteSignal<Vec<String>>,
    results: WriteSignal<Option<StudyResults>>,
    weights: WriteSignal<Vec<(String, Vec<u8>)>>,
    notice: WriteSignal<String>,
    stored: WriteSignal<Vec<String>>,
}

/// Shows one event of the run driver.
fn show(event: RunEvent, sinks: &Sinks) {
    match event {
        RunEvent::Progress(progress) => {
            sinks.fraction.set(progress.fraction);
            let eta = progress
                .eta_secs
                .map(|secs| format!(", ETA {secs:.0} s"))
                .unwrap_or_default();
            sinks.status.set(format!("{}{eta}", progress.description));
        }
        RunEvent::Losses(losses) => {
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
        RunEvent::VariantFinished(variant) => sinks.finished.update(|list| {
            list.push(format!(
                "{}: relative error {:.3e} ± {:.1e}",
                variant.id.label(),
                variant.metrics.relative_error.mean,
                variant.metrics.relative_error.std
            ))
        }),
        RunEvent::Finished { results, weights } => {
            if let Ok(json) = serde_json::to_string(&results) {
                match files::store_run(json, 10) {
                    Ok(Some(message)) | Err(message) => sinks.notice.set(message),
                    Ok(None) => {}
                }
                sinks.stored.set(files::stored_runs());
            }
            sinks.weights.set(weights);
            sinks
                .status
                .set(format!("Done in {:.0} s.", results.wall_secs));
            sinks.results.set(Some(*results));
        }
        RunEvent::Error(message) => sinks.status.set(format!("The run stopped: {message}")),
    }
}
