//! The workbench below the first screen: the experiment (its form in the advanced settings, with
//! the gradient-flow diagram of the chosen mode) beside the live view of a run (one line per
//! worker, the loss curves, the finished variants).

use leptos::prelude::*;

use super::panel::Panel;
use super::{ExperimentForm, GradientFlow, Later, LiveLoss};
use unroll_core::train::Mode;
use unroll_report::experiment::Experiment;

/// The mode the diagram shows: the one picked, else the experiment's first.
fn diagram_mode_of(first_selected: Option<Mode>, picked: Option<Mode>) -> Mode {
    picked.or(first_selected).unwrap_or(Mode::Correct)
}

/// The experiment and the live view.
#[component]
pub fn Workbench(panel: Panel) -> impl IntoView {
    view! {
        <div class="workbench">
            <section id="experiment" class="panel">
                <h2>"Experiment"</h2>
                <details id="advanced" open=!panel.experiment.with_untracked(|e| e.overrides().is_empty())>
                    <summary>"Advanced settings: every knob, the gradient flow, the CLI and the peers' commands"</summary>
                    <ExperimentForm experiment=panel.experiment estimate=panel.estimate />
                    <Diagram experiment=panel.experiment />
                </details>
            </section>
            <Later><Live panel /></Later>
        </div>
    }
}

/// The gradient-flow diagram with its mode menu. A system whose network corrects the solver's
/// output says so, and the diagram draws that solver-then-network step.
#[component]
fn Diagram(experiment: RwSignal<Experiment>) -> impl IntoView {
    let (picked, set_picked) = signal(None::<Mode>);
    let solver_first = move || experiment.with(|e| e.system.description().facts().solver_first);
    let mode = move || diagram_mode_of(experiment.with(|e| e.modes.first().copied()), picked.get());
    view! {
        <div class="diagram-controls">
            <label>"Gradient-flow diagram for "
                <select id="diagram-mode" on:change=move |ev| {
                    set_picked.set(event_target_value(&ev).parse::<Mode>().ok());
                }>
                    {Mode::ALL.into_iter().map(|m| view! {
                        <option value=m.name() selected=move || mode() == m>{m.name()}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
        <p id="gradient-flow-2d" class:hidden=move || solver_first().is_none()>
            {move || solver_first().unwrap_or_default()}
        </p>
        <Later>
        <GradientFlow
            mode=Signal::derive(move || if solver_first().is_some() { Mode::Transition } else { mode() })
            unroll=Signal::derive(move || experiment.with(|e| e.study_config().base.unroll))
        />
        </Later>
    }
}

/// The live view of a run.
#[component]
fn Live(panel: Panel) -> impl IntoView {
    let lines = move |signal: RwSignal<Vec<String>>| {
        move || {
            signal
                .get()
                .into_iter()
                .map(|line| view! { <li>{line}</li> })
                .collect_view()
        }
    };
    let losses = panel.losses;
    view! {
        <section id="live" class="panel">
            <h2>"Live"</h2>
            <ul id="workers">{lines(panel.worker_lines)}</ul>
            <LiveLoss curves=losses.read_only() />
            <ul id="live-losses">
                {move || losses.get().into_iter().filter_map(|curve| {
                    let (it, loss) = *curve.points.last()?;
                    Some(view! { <li>{format!("{}: loss {loss:.3e} at iteration {}", curve.name, it + 1)}</li> })
                }).collect_view()}
            </ul>
            <ul id="finished-variants">{lines(panel.finished)}</ul>
        </section>
    }
}
