//! The experiment panel: the experiment form (every knob validated inline, mirrored in the URL,
//! with the workload estimate, the deviations from the study and the CLI command; see
//! [`super::ExperimentForm`]), Run / Pause / Cancel with a progress
//! bar and the live loss per variant, then the results table; export, import, stored runs.

use std::cell::Cell;
use std::rc::Rc;

use burn::tensor::Device;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::calibration;
use super::{ExperimentForm, GradientFlow, LiveLoss, ResultsCharts, ResultsTable};
use crate::charts::LossCurve;
use crate::numerics::study::{Phase, Study};
use crate::numerics::train::Mode;
use crate::platform::files;
use crate::platform::timer::sleep;
use crate::report::experiment::Experiment;
use crate::report::results::StudyResults;

/// Run control shared with the running loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Control {
    Running,
    Paused,
    Cancelled,
}

/// Target wall time of one tick's work (ms): the loop adapts iterations per tick to it.
const TICK_BUDGET_MS: f64 = 40.0;

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
            let started = files::now_secs();
            let mut study = match Study::new(config, &device, Box::new(files::now_secs)) {
                Ok(study) => study,
                Err(err) => {
                    set_status.set(format!("Cannot run: {err}"));
                    set_running.set(false);
                    return;
                }
            };
            let mut per_tick = 1usize;
            loop {
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
                let tick = files::now_secs();
                let progress = match study.advance(per_tick).await {
                    Ok(progress) => progress,
                    Err(err) => {
                        set_status.set(format!("The run stopped: {err}"));
                        break;
                    }
                };
                let elapsed_ms = (files::now_secs() - tick) * 1000.0;
                if progress.phase == Phase::Training {
                    if elapsed_ms < TICK_BUDGET_MS / 2.0 {
                        per_tick = (per_tick * 2).min(256);
                    } else if elapsed_ms > TICK_BUDGET_MS * 1.5 && per_tick > 1 {
                        per_tick /= 2;
                    }
                }
                set_fraction.set(progress.fraction);
                let done = files::now_secs() - started;
                let eta = if progress.fraction > 0.01 {
                    format!(
                        ", ETA {:.0} s",
                        done * (1.0 - progress.fraction) / progress.fraction
                    )
                } else {
                    String::new()
                };
                set_status.set(format!("{}{eta}", progress.describe()));
                if !progress.new_losses.is_empty() {
                    let label = live_label(&study, &progress.variant, progress.seed);
                    let first = progress.iteration - progress.new_losses.len();
                    let points = progress
                        .new_losses
                        .iter()
                        .enumerate()
                        .map(|(i, &loss)| (first + i, loss));
                    set_losses.update(|curves| match curves.iter_mut().find(|c| c.0 == label) {
                        Some(curve) => curve.1.extend(points),
                        None => curves.push((label, points.collect())),
                    });
                }
                if let Some(variant) = progress.finished_variant {
                    set_finished.update(|list| {
                        list.push(format!(
                            "{}: relative error {:.3e} ± {:.1e}",
                            variant.label(),
                            variant.metrics.relative_error.mean,
                            variant.metrics.relative_error.std
                        ))
                    });
                }
                if study.finished() {
                    let output = study.results(files::now_secs() - started);
                    if let Ok(json) = serde_json::to_string(&output) {
                        match files::store_run(json, 10) {
                            Ok(Some(message)) | Err(message) => set_notice.set(message),
                            Ok(None) => {}
                        }
                        set_stored.set(files::stored_runs());
                    }
                    set_weights.set(
                        study
                            .weights()
                            .into_iter()
                            .map(|(label, bytes)| (label, bytes.to_vec()))
                            .collect(),
                    );
                    set_results.set(Some(output));
                    set_status.set(format!("Done in {:.0} s.", files::now_secs() - started));
                    break;
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
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        leptos::task::spawn_local(async move {
            match files::read_picked_file(&input).await {
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
                        set_diagram_mode.set(Mode::parse(&event_target_value(&ev)));
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
                {move || losses.get().into_iter().filter_map(|(label, points)| {
                    let (it, loss) = *points.last()?;
                    Some(view! { <li>{format!("{label}: loss {loss:.3e} at iteration {}", it + 1)}</li> })
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

/// The live-loss series name of the running job: the variant, its size or horizon where the
/// study varies them, and the seed.
fn live_label(study: &Study, variant: &str, seed: u64) -> String {
    let mut label = variant.to_string();
    if let Some(trainer) = study.trainer() {
        let config = trainer.config();
        if study.config().sizes.len() > 1 {
            label.push_str(&format!(" {}×{}", config.net.channels, config.net.depth));
        }
        if study.config().horizons.len() > 1 {
            label.push_str(&format!(" m={}", config.unroll.horizon));
        }
    }
    format!("{label} seed {seed}")
}
