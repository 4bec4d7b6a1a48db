//! The experiment panel: the first screen (the question, the study presets and the run's
//! controls: [`super::run_controls`]), the experiment form with the gradient-flow diagram and the
//! live view ([`super::workbench`]), the results with export, import and stored runs
//! ([`super::results_section`]), and the playground of the selected system. The run itself goes
//! to a pool of Web Workers ([`super::pool_run::PoolRun`]); the estimate is the experiment's
//! ([`RunEstimate`](unroll_report::experiment::estimate::RunEstimate)); these components only show signals.

use leptos::prelude::*;

use super::hero::{hero_system, HeroAnimation};
use super::panel::Panel;
use super::playground::Playground;
use super::results_section::ResultsSection;
use super::run_controls::RunControls;
use super::run_storage::refresh;
use super::workbench::Workbench;
use super::{Intro, Later, WhenMounted};
use unroll_browser::run_store::RunStore;
use unroll_browser::timer::{epoch_ms, sleep};
use unroll_browser::workers::hardware_concurrency;
use unroll_browser::{files, run_store};
use unroll_core::system::config::Preset;
use unroll_pool::unfinished::Unfinished;
use unroll_report::experiment::estimate::Machine;
use unroll_report::experiment::Experiment;

/// The panel. `ready` turns true once the start-up probe has chosen a device (`webgpu` when it
/// chose WebGPU); `flop_rate` is the chosen training device's measured FLOP/s per training
/// (`None` until measured), `data_rate` the CPU's measured FLOP/s making data; `first_screen` is set once the first screen has mounted (it mounts
/// in parts).
#[component]
pub fn StudyPanel(
    ready: ReadSignal<bool>,
    webgpu: ReadSignal<bool>,
    flop_rate: ReadSignal<Option<f64>>,
    data_rate: ReadSignal<Option<f64>>,
    training_note: ReadSignal<String>,
    first_screen: WriteSignal<bool>,
) -> impl IntoView {
    let cores = hardware_concurrency();
    let requested = files::query_value("workers").and_then(|n| n.parse().ok());
    let machine = Signal::derive(move || Machine {
        webgpu: webgpu.get(),
        cores,
        requested,
        flop_rate: flop_rate.get(),
        data_rate: data_rate.get(),
    });
    let panel = Panel::new(machine);
    restore_storage(panel);
    Effect::new(move |_| files::set_query(&panel.experiment.get().to_query()));
    let system = Memo::new(move |_| panel.experiment.with(|e| e.system));
    let pictured = Memo::new(move |_| hero_system(system.get()));
    view! {
        <section id="hero" class="hero" aria-labelledby="question-heading">
            <Later>{move || view! { <HeroAnimation system=pictured.get() /> }}</Later>
            <div class="hero-question">
                <h2 id="question-heading">"Does unrolling help a learned simulator — and why?"</h2>
                <p id="question">
                    "A network that steps this chaotic PDE forward can be trained on one step at a time (ONE) or unrolled over "
                    "several of its own steps, with gradients cut between them (NOG) or flowing back through time (WIG), "
                    "either alone (prediction) or correcting a cheap solver (correction). "
                    "Press Run to retrain those variants here, in your browser, and see them beside the paper's numbers."
                </p>
                <Later>
                <PresetChoice experiment=panel.experiment />
                <RunControls panel ready webgpu training_note />
                </Later>
            </div>
            <Later><Intro /></Later>
            <Later><WhenMounted done=first_screen /></Later>
        </section>
        <Later><Workbench panel /></Later>
        <Later><ResultsSection panel /></Later>
        <Later>
        <Playground system=system.into() results=panel.results.read_only() weights=panel.weights.read_only() />
        </Later>
    }
}

/// The first screen's study presets.
#[component]
fn PresetChoice(experiment: RwSignal<Experiment>) -> impl IntoView {
    view! {
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
    }
}

/// Opens the browser's run store in a task of its own, not the one that mounts the page: an
/// interrupted run is kept as a partial one, then the stored runs and the storage's use are
/// listed.
fn restore_storage(panel: Panel) {
    leptos::task::spawn_local(async move {
        sleep(0).await;
        match run_store::open().await {
            Ok(store) => keep_interrupted(&store, panel).await,
            Err(err) => {
                let _ = panel
                    .notice
                    .try_set(format!("No runs can be kept in this browser: {err}."));
            }
        }
        refresh(panel.storage_sinks()).await;
    });
}

/// Offers to continue a study the page was closed or reloaded during; an earlier page's partial
/// results are stored as a run (they stay saved for the next visit where storing fails).
async fn keep_interrupted(store: &RunStore, panel: Panel) {
    let json = match store.in_progress().await {
        Ok(Some(json)) => json,
        Ok(None) => return,
        Err(err) => {
            let _ = panel
                .notice
                .try_set(format!("An interrupted run cannot be read: {err}."));
            return;
        }
    };
    // A study saved to be continued is offered; an earlier page's partial results are stored.
    match Unfinished::from_json(&json) {
        Ok(Some(unfinished)) => {
            let _ = panel.unfinished.try_set(Some(unfinished));
            return;
        }
        Ok(None) => {}
        Err(err) => {
            let _ = panel.notice.try_set(format!("{err}."));
            return;
        }
    }
    let kept = match store.add(&json, epoch_ms()).await {
        Ok(_) => match store.clear_in_progress().await {
            Ok(()) => "its finished trainings are kept as a partial run under Stored runs".into(),
            Err(err) => format!("its finished trainings are kept under Stored runs ({err})"),
        },
        Err(err) => format!("its finished trainings could not be stored ({err}); they stay saved"),
    };
    let _ = panel.notice.try_set(format!(
        "The previous run was interrupted (the page was closed or reloaded): {kept}."
    ));
}
