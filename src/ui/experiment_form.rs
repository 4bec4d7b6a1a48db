//! The experiment form: every knob of [`Experiment`] (system, preset, modes, modalities,
//! network with its live parameter count, unroll, α, learning rate, iterations, seeds, training
//! domain sizes, evaluation rollout), each validated inline (`#<key>-error`), then the workload
//! (trainings, iterations, counted FLOPs, memory, time at the measured FLOP rate), every
//! deviation from the study and the equivalent CLI command. Number fields are generated from
//! the knob table ([`Knob`]: id = URL key, label, parsing); this file is layout only.

use leptos::prelude::*;

use super::equation_editor::EquationEditor;
use super::knob_field::KnobField;
use super::network_fields::{NetworkFields, UnrollFields};
use super::Later;

use unroll_core::registry::COMING_SYSTEMS;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};
use unroll_core::types::SolverSetup;
use unroll_report::experiment::estimate::RunEstimate;
use unroll_report::experiment::{Experiment, Knob, Value};

fn mode_title(mode: Mode) -> &'static str {
    match mode {
        Mode::Predict => "prediction (P): the network alone",
        Mode::Correct => "correction (C): ETD1 + network",
        Mode::Transition => "transition (T): accurate solver over α of the step + network",
    }
}

fn modality_title(modality: Modality) -> &'static str {
    match modality {
        Modality::One => "ONE: one-step supervised",
        Modality::Nog => "NOG: unrolled, no gradients through time",
        Modality::Wig => "WIG: unrolled, with gradients",
    }
}

/// A fieldset of one checkbox per option (`#<id>-<name>`), with the knob's inline error.
fn checkboxes<T: Copy + Send + Sync + 'static>(
    experiment: RwSignal<Experiment>,
    knob: Knob,
    legend: &'static str,
    options: impl IntoIterator<Item = (T, &'static str, &'static str)>,
    has: fn(&Experiment, T) -> bool,
    toggle: fn(&mut Experiment, T),
) -> impl IntoView {
    let id = knob.key();
    view! {
        <fieldset id=id>
            <legend>{legend}</legend>
            {options.into_iter().map(|(option, name, title)| view! {
                <label>
                    <input type="checkbox" id=format!("{id}-{name}")
                        prop:checked=move || experiment.with(|e| has(e, option))
                        on:change=move |_| experiment.update(|e| toggle(e, option)) />
                    " " {title}
                </label>
            }).collect_view()}
            <span class="field-error" id=format!("{id}-error")>{move || experiment.with(|e| e.error_of(id))}</span>
        </fieldset>
    }
}

/// The form. `estimate` is the experiment's on this machine (`None` while a knob is invalid).
#[component]
pub fn ExperimentForm(
    experiment: RwSignal<Experiment>,
    estimate: Memo<Option<RunEstimate>>,
) -> impl IntoView {
    let modes = Mode::ALL.map(|m| (m, m.name(), mode_title(m)));
    let modalities = Modality::ALL.map(|m| (m, m.name(), modality_title(m)));
    view! {
        <div id="experiment-form">
            {system_and_preset(experiment)}
            <EquationEditor experiment />
            {checkboxes(experiment, Knob::Modes, "Modes", modes, |e, m| e.modes.contains(&m), Experiment::toggle_mode)}
            {checkboxes(experiment, Knob::Modalities, "Modalities", modalities, |e, m| e.modalities.contains(&m), Experiment::toggle_modality)}
            // The form in three tasks after its first (each part's DOM is a short task).
            <Later>
            <NetworkFields experiment />
            <UnrollFields experiment />
            </Later>
            <Later>
            <TrainingFields experiment />
            <Workload experiment estimate />
            </Later>
            <Later>
            <PeerCommands experiment />
            </Later>
        </div>
    }
}

/// How a menu reads and writes its field of the experiment.
type Field<T> = (fn(&Experiment) -> T, fn(&mut Experiment, T));

/// A labelled menu `#<id>` of `options` (`(value, name, title)`) bound to one field of
/// `experiment` (`of` reads it, `set` writes it), then `more` (options that cannot be picked).
fn menu<T: Copy + PartialEq + std::str::FromStr + Send + Sync + 'static>(
    experiment: RwSignal<Experiment>,
    (id, label): (&'static str, &'static str),
    options: impl IntoIterator<Item = (T, &'static str, &'static str)>,
    (of, set): Field<T>,
    more: impl IntoView,
) -> impl IntoView {
    view! {
        <label>{label} " "
            <select id=id on:change=move |ev| {
                if let Ok(value) = event_target_value(&ev).parse::<T>() {
                    experiment.update(|e| set(e, value));
                }
            }>
                {options.into_iter().map(|(value, name, title)| view! {
                    <option value=name selected=move || experiment.with(|e| of(e) == value)>{title}</option>
                }).collect_view()}
                {more}
            </select>
        </label>
    }
}

/// The menu's entry of the experiment's system: "Your equation" for any reader's equation.
fn menu_system(experiment: &Experiment) -> System {
    let equation = System::ALL.into_iter().find(|s| s.equation().is_some());
    match (experiment.system.equation(), equation) {
        (Some(_), Some(entry)) => entry,
        _ => experiment.system,
    }
}

/// Picks `system` from the menu; "Your equation" keeps the reader's equation already chosen.
fn pick_system(experiment: &mut Experiment, system: System) {
    if !(system.equation().is_some() && experiment.system.equation().is_some()) {
        experiment.set_system(system);
    }
}

/// The system and preset menus (the systems still to come listed, not offered).
fn system_and_preset(experiment: RwSignal<Experiment>) -> impl IntoView {
    let coming = COMING_SYSTEMS
        .into_iter()
        .map(|(name, title)| view! { <option value=name disabled=true>{title}</option> })
        .collect_view();
    let systems = System::ALL.map(|s| (s, s.name(), s.title()));
    let presets = Preset::BROWSER.map(|p| (p, p.name(), p.title()));
    view! {
        {menu(experiment, ("system", "System"), systems, (menu_system, pick_system), coming)}
        {menu(experiment, ("preset", "Preset"), presets, (|e| e.preset, Experiment::set_preset), ())}
    }
}

/// Training and evaluation: the coarse solver (where the system offers a choice), the learning
/// rate, iterations, seeds, training scales and rollout.
#[component]
fn TrainingFields(experiment: RwSignal<Experiment>) -> impl IntoView {
    let solver_error = move || experiment.with(|e| e.error_of(Knob::Solver.key()));
    view! {
        <fieldset id="training">
            <legend>"Training and evaluation"</legend>
            <div class:hidden=move || !experiment.with(|e| Knob::Solver.applies(e))><label>"Coarse solver "
                <select id="solver" on:change=move |ev| {
                    let name = event_target_value(&ev);
                    experiment.update(|e| Knob::Solver.write(e, Value::Solver(SolverSetup::named(&name))));
                }>
                    {move || experiment.with(|e| e.system.description().solver_setups()).iter().map(|words| {
                        let name = words.name;
                        view! {
                            <option value=name selected=move || experiment.with(|e| e.solver_name() == name)>{words.label}</option>
                        }
                    }).collect_view()}
                </select>
                <span class="field-error" id="solver-error">{solver_error}</span>
            </label></div>
            <KnobField experiment=experiment knob=Knob::LearningRate />
            <KnobField experiment=experiment knob=Knob::Iterations />
            <KnobField experiment=experiment knob=Knob::Seeds />
            <KnobField experiment=experiment knob=Knob::Scales hint="(comma-separated)" />
            <KnobField experiment=experiment knob=Knob::Rollout />
        </fieldset>
    }
}

/// The workload (the run's estimate and its tests), its error, the deviations from the study
/// and the CLI command.
#[component]
fn Workload(
    experiment: RwSignal<Experiment>,
    estimate: Memo<Option<RunEstimate>>,
) -> impl IntoView {
    let line = move || match estimate.get() {
        Some(estimate) => {
            let eval = experiment.with(|e| e.study_config().eval);
            format!(
                "{} Each training is then evaluated on {} tests.",
                estimate.summary(),
                eval.scales.len() * eval.tests_per_size
            )
        }
        None => "Workload: correct the fields marked above.".to_string(),
    };
    let workload_error =
        move || experiment.with(|e| e.error_of(unroll_report::experiment::validate::WORKLOAD));
    view! {
        <p id="estimate" class="estimate">{line}</p>
        <p class="field-error" id="workload-error">{workload_error}</p>
        <p class="deviations">"Deviations from the study: " {move || experiment.with(|e| e.deviations().join("; "))}</p>
        <p class="cli">"Same study from the CLI: " <code id="cli-command">{move || experiment.with(Experiment::cli_command)}</code></p>
    }
}

/// The paper's own code and APEBench, the closest equivalents.
#[component]
fn PeerCommands(experiment: RwSignal<Experiment>) -> impl IntoView {
    let script = move || {
        experiment
            .with(Experiment::peer_script_label)
            .unwrap_or_else(|| "no script for this system".into())
    };
    view! {
        <div class="peers">
            <p class="cli">"The paper's own code ("<code>{script}</code>", PyTorch + PhiFlow), closest equivalent:"</p>
            <pre><code id="ks-train-command">{move || experiment.with(|e| e.paper_script_command().lines.join("\n"))}</code></pre>
            <p class="hint" id="ks-train-noflag">"No flag there for: "{move || experiment.with(|e| e.paper_script_command().no_flag.join("; "))}"."</p>
            {move || match experiment.with(Experiment::apebench_snippet) {
                Some(snippet) => view! {
                    <p class="cli">"APEBench (JAX, trainax trainers), the nearest set-up:"</p>
                    <pre><code id="apebench-snippet">{snippet.lines.join("\n")}</code></pre>
                    <p class="hint" id="apebench-noflag">"Differs there: "{snippet.no_flag.join("; ")}"."</p>
                }.into_any(),
                None => view! {
                    <p class="hint" id="apebench-snippet">"APEBench has no equivalent of this set-up (no graph network, no transition mode)."</p>
                }.into_any(),
            }}
        </div>
    }
}
