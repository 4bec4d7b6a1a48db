//! The experiment panel: the experiment form (every knob validated inline, mirrored in the URL,
//! with the workload estimate, the deviations from the study and the CLI command; see
//! [`super::ExperimentForm`]), Run / Pause / Cancel with a progress bar and the live loss per
//! variant and worker, then the results table; export, import, stored runs. The run itself goes
//! to a pool of Web Workers ([`PoolRun`]); this component only shows its signals. A run the
//! estimate puts over 30 minutes asks first and offers the CLI command.

use crate::numerics::system::System;
use std::rc::Rc;

use leptos::prelude::*;

use super::committed_beside::CommittedBeside;
use super::committed_runs::{Committed, CommittedRuns};
use super::hero::HeroAnimation;
use super::playground::Playground;
use super::pool_run::{Launch, PoolRun, Sinks};
use super::show_results::ResultsSinks;
use super::{
    ExperimentForm, GradientFlow, Intro, Later, LiveLoss, ResultsCharts, ResultsTable, WhenMounted,
};
use crate::charts::LossCurve;
use crate::experiment::Experiment;
use crate::numerics::study::cells::cost::cost;
use crate::numerics::study::cells::plan::StudyPlan;
use crate::numerics::study::contract::config::Preset;
use crate::numerics::study::workers::device_choice::WEBGPU_PARALLEL;
use crate::numerics::study::workers::pool::{pool_size, Fault};
use crate::numerics::train::Mode;
use crate::platform::files;
use crate::platform::timer::sleep;
use crate::platform::workers::hardware_concurrency;
use crate::report::results::{ResultsText, StudyResults};
use crate::report::units::{cost_summary, format_seconds};

/// A run the estimate puts above this many seconds asks for confirmation first.
const CONFIRM_ABOVE_SECS: f64 = 1800.0;

/// The failure `?worker-fault=` injects: `panic` (a worker panics at its first training) or
/// `start` (a worker whose script cannot load).
fn injected_fault() -> Option<Option<Fault>> {
    match files::query_value("worker-fault")?.as_str() {
        "panic" => Some(Some(Fault::Panic)),
        "start" => Some(None),
        _ => None,
    }
}

/// The panel. `ready` turns true once the start-up probe has chosen a device; `flop_rate` is the chosen
/// training device's measured FLOP/s per training (`None` until measured); `first_screen` is set
/// once the first screen has mounted (it mounts in parts).
#[component]
pub fn StudyPanel(
    ready: ReadSignal<bool>,
    webgpu: ReadSignal<bool>,
    flop_rate: ReadSignal<Option<f64>>,
    training_note: ReadSignal<String>,
    first_screen: WriteSignal<bool>,
) -> impl IntoView {
    let (initial, ignored) = Experiment::from_query(&files::query());
    let experiment = RwSignal::new(initial);
    let (notice, set_notice) = signal(ignored.join("; "));
    let (status, set_status) = signal(String::from("Ready."));
    let (fraction, set_fraction) = signal(0.0f64);
    let (running, set_running) = signal(false);
    let (paused, set_paused) = signal(false);
    let (losses, set_losses) = signal(Vec::<LossCurve>::new());
    let (weights, set_weights) = signal(Vec::<(String, Vec<u8>)>::new());
    let (diagram_mode, set_diagram_mode) = signal(None::<Mode>);
    // The system's sentence when its network corrects the solver's output (the diagram then
    // draws that solver-then-network step).
    let solver_first = move || experiment.with(|e| e.system.description().facts().solver_first);
    let (finished, set_finished) = signal(Vec::<String>::new());
    let (results, set_results) = signal(None::<StudyResults>);
    let (worker_lines, set_worker_lines) = signal(Vec::<String>::new());
    let (confirm, set_confirm) = signal(None::<String>);
    // Storage is read in a task of its own, not the one that mounts the page (its first access
    // opens the browser's storage; the list may be long).
    let (stored, set_stored) = signal(Vec::new());
    leptos::task::spawn_local(async move {
        sleep(0).await;
        if let Some(json) = files::take_in_progress() {
            let kept = match files::store_run(json, 10) {
                Ok(_) => {
                    "its finished trainings are kept as a partial run under Stored runs".into()
                }
                Err(err) => format!("its finished trainings could not be kept: {err}"),
            };
            let _ = set_notice.try_set(format!(
                "The previous run was interrupted (the page was closed or reloaded): {kept}."
            ));
        }
        let _ = set_stored.try_set(files::stored_runs());
    });
    let run: StoredValue<Option<Rc<PoolRun>>, LocalStorage> = StoredValue::new_local(None);
    // The committed run last loaded (results/): shown alone, or beside the page's own run.
    let reference = RwSignal::new(None::<Committed>);
    let shown = ResultsSinks {
        notice: set_notice,
        weights: set_weights,
        results: set_results,
    };

    let sinks = Sinks {
        status: set_status,
        fraction: set_fraction,
        workers: set_worker_lines,
        losses: set_losses,
        finished: set_finished,
        results: set_results,
        weights: set_weights,
        notice: set_notice,
        stored: set_stored,
        running: set_running,
    };
    Effect::new(move |_| files::set_query(&experiment.get().to_query()));
    let errors = move || experiment.get().validate();

    let launch = move || {
        set_confirm.set(None);
        let config = experiment.get().study_config();
        let plan = match StudyPlan::new(config, System::description, flop_rate.get()) {
            Ok(plan) => plan,
            Err(err) => {
                set_status.set(format!("Cannot run: {err}"));
                return;
            }
        };
        let requested = files::query_value("workers").and_then(|n| n.parse().ok());
        // WebGPU trains one training at a time (one worker, one GPU queue: what the start-up
        // probe measured).
        let workers = if webgpu.get() {
            WEBGPU_PARALLEL
        } else {
            pool_size(hardware_concurrency(), plan.cells.len(), requested)
        };
        set_paused.set(false);
        set_results.set(None);
        set_losses.set(Vec::new());
        set_weights.set(Vec::new());
        set_finished.set(Vec::new());
        set_fraction.set(0.0);
        let launch = Launch {
            plan,
            workers,
            webgpu: webgpu.get(),
            fault: injected_fault(),
        };
        run.set_value(Some(PoolRun::start(launch, sinks)));
    };
    let start = move |_| {
        if !ready.get() {
            set_status.set("The compute device is not ready yet.".into());
            return;
        }
        if !errors().is_empty() {
            return;
        }
        let config = experiment.get().study_config();
        let workers = if webgpu.get() {
            WEBGPU_PARALLEL
        } else {
            pool_size(
                hardware_concurrency(),
                config.variants().len() * config.seeds.len(),
                None,
            )
        };
        let estimate = cost(&config, config.system.description())
            .seconds(flop_rate.get())
            .map(|s| s / workers as f64);
        match estimate {
            Some(secs) if secs > CONFIRM_ABOVE_SECS => set_confirm.set(Some(format!(
                "This run is estimated at {} in this browser ({workers} worker(s)). The same study runs natively, faster, with: {}",
                format_seconds(secs),
                experiment.get().cli_command()
            ))),
            _ => launch(),
        }
    };
    let pause = move |_| {
        let now_paused = !paused.get();
        if let Some(run) = run.get_value() {
            run.pause(now_paused);
        }
        set_paused.set(now_paused);
    };
    let cancel = move |_| {
        if let Some(run) = run.get_value() {
            run.cancel();
        }
    };
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
                    Ok(imported) => shown.show(imported).await,
                    Err(err) => set_notice.set(format!("Import failed: {err}")),
                },
                Err(err) => set_notice.set(format!("Import failed: {err}")),
            }
        });
    };

    let advanced_open = !experiment.with_untracked(|e| e.overrides().is_empty());
    let estimate = move || {
        experiment
            .with(Experiment::workload)
            .map(|workload| cost_summary(&workload, flop_rate.get()))
            .unwrap_or_else(|| "Correct the fields marked in the advanced settings.".into())
    };

    view! {
        <section id="hero" class="hero" aria-labelledby="question-heading">
            <Later><HeroAnimation /></Later>
            <div class="hero-question">
                <h2 id="question-heading">"Does unrolling help a learned simulator — and why?"</h2>
                <p id="question">
                    "A network that steps this chaotic PDE forward can be trained on one step at a time (ONE) or unrolled over "
                    "several of its own steps, with gradients cut between them (NOG) or flowing back through time (WIG), "
                    "either alone (prediction) or correcting a cheap solver (correction). "
                    "Press Run to retrain those variants here, in your browser, and see them beside the paper's numbers."
                </p>
                <Later>
                <fieldset id="hero-presets" class="presets">
                    <legend>"Study"</legend>
                    {Preset::BROWSER.into_iter().map(|p| view! {
                        <label>
                            <input type="radio" name="hero-preset" id=format!("hero-preset-{}", p.name())
                                prop:checked=move || experiment.with(|e| e.preset == p)
                                on:change=move |_| experiment.update(|e| e.set_preset(p)) />
                            " " {p.title()}
                        </label>
                    }).collect_view()}
                </fieldset>
                <div class="controls run-controls">
                    <button id="run" class="primary" on:click=start disabled=move || running.get() || !errors().is_empty()>"Run"</button>
                    <button id="pause" on:click=pause disabled=move || !running.get()>{move || if paused.get() { "Resume" } else { "Pause" }}</button>
                    <button id="cancel" on:click=cancel disabled=move || !running.get()>"Cancel"</button>
                </div>
                <p id="hero-estimate" class="estimate">{estimate}</p>
                <p class="hint"><a href="#playground">"Or try the trained models on an initial state you draw ↓"</a></p>
                <div id="confirm-run" class="notice" role="alertdialog" aria-label="Confirm a long run" class:hidden=move || confirm.get().is_none()>
                    <p>{move || confirm.get().unwrap_or_default()}</p>
                    <button id="confirm-run-anyway" on:click=move |_| launch()>"Run in the browser anyway"</button>
                    <button id="confirm-run-cancel" on:click=move |_| set_confirm.set(None)>"Cancel"</button>
                </div>
                <progress id="progress" max="1" aria-label="Study progress" prop:value=move || fraction.get()></progress>
                <p id="status" role="status">{status}</p>
                <p id="url-notice" class="notice" class:hidden=move || notice.get().is_empty()>{notice}</p>
                <p id="training-note" class="notice" class:hidden=move || training_note.get().is_empty()>{training_note}</p>
                </Later>
            </div>
            <Later><Intro /></Later>
            <Later><WhenMounted done=first_screen /></Later>
        </section>
        <Later>
        <div class="workbench">
            <section id="experiment" class="panel">
                <h2>"Experiment"</h2>
                <details id="advanced" open=advanced_open>
                    <summary>"Advanced settings: every knob, the gradient flow, the CLI and the peers' commands"</summary>
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
                    <p id="gradient-flow-2d" class:hidden=move || solver_first().is_none()>
                        {move || solver_first().unwrap_or_default()}
                    </p>
                    <Later>
                    <GradientFlow
                        mode=Signal::derive(move || if solver_first().is_some() {
                            Mode::Transition
                        } else {
                            diagram_mode_of(experiment.get().modes.first().copied(), diagram_mode.get())
                        })
                        unroll=Signal::derive(move || experiment.get().study_config().base.unroll)
                    />
                    </Later>
                </details>
            </section>
            <Later>
            <section id="live" class="panel">
                <h2>"Live"</h2>
                <ul id="workers">
                    {move || worker_lines.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                </ul>
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
            </Later>
        </div>
        </Later>
        <Later>
        <section id="results" class="panel">
            <h2>"Results"</h2>
            <div class="controls">
                <button id="export-json" on:click=move |_| export("json") disabled=move || results.get().is_none()>"Export JSON"</button>
                <button id="export-csv" on:click=move |_| export("csv") disabled=move || results.get().is_none()>"Export CSV"</button>
                <label>"Import results JSON " <input id="import" type="file" accept=".json,application/json" on:change=import /></label>
            </div>
            <CommittedRuns results=results reference=reference sinks=shown />
            <CommittedBeside results=results reference=reference sinks=shown />
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
                            <button on:click=move |_| if let Ok(r) = StudyResults::from_json(&json) {
                                set_weights.set(Vec::new());
                                set_results.set(Some(r));
                            }>"View"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        </Later>
        <Later>
        <Playground results=results weights=weights />
        </Later>
    }
}

/// The mode the diagram shows: the one picked, else the experiment's first.
fn diagram_mode_of(first_selected: Option<Mode>, picked: Option<Mode>) -> Mode {
    picked.or(first_selected).unwrap_or(Mode::Correct)
}
