//! The experiment form: every knob of [`Experiment`] (system, preset, modes, modalities,
//! network with its live parameter count, unroll, α, learning rate, iterations, seeds, training
//! domain sizes, evaluation rollout), each validated inline (`#<key>-error`), then the workload
//! (trainings, iterations, counted FLOPs, memory, time at the measured FLOP rate), every
//! deviation from the study and the equivalent CLI command. Number fields are generated from
//! the knob table ([`Knob`]: id = URL key, label, parsing); this file is layout only.

use leptos::prelude::*;

use super::Later;

use crate::experiment::{Experiment, Kind, Knob, Value};
use crate::numerics::nets::Architecture;
use crate::numerics::study::contract::config::Preset;
use crate::numerics::system::{System, COMING_SYSTEMS};
use crate::numerics::train::{Modality, Mode};
use crate::numerics::types::SolverSetup;
use crate::report::units::cost_summary;

/// `15841` → `15,841`.
fn grouped(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

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

/// One labelled input bound to `knob` of `experiment`, with its inline error span
/// `#<key>-error`. Typed text is parsed by the knob; text that does not parse gives an invalid
/// value, so the message appears. The input's text is only replaced when the knob changes from
/// elsewhere, never while typing.
#[component]
fn KnobField(
    experiment: RwSignal<Experiment>,
    knob: Knob,
    /// Shown after the input.
    #[prop(optional)]
    hint: &'static str,
    /// Disables the input (the knob does not apply).
    #[prop(optional)]
    disabled: Option<Signal<bool>>,
) -> impl IntoView {
    let show = move |e: &Experiment| knob.read(e).form_text();
    let text = RwSignal::new(experiment.with_untracked(show));
    // The knob's formatted value right after this input's own last edit.
    let echo = StoredValue::new(String::new());
    Effect::new(move |_| {
        let formatted = experiment.with(show);
        if formatted != echo.get_value() {
            text.set(formatted);
        }
    });
    let (kind, step) = match knob.kind() {
        Kind::Count => ("number", "1"),
        Kind::Real => ("number", "any"),
        Kind::Reals | Kind::Names => ("text", "any"),
    };
    let id = knob.key();
    let error = move || experiment.with(|e| e.error_of(id));
    view! {
        <label>{move || experiment.with(|e| knob.label_for(e.system))} " "
            <input id=id type=kind step=step
                prop:value=move || text.get()
                disabled=move || disabled.is_some_and(|d| d.get())
                on:input=move |ev| {
                    let raw = event_target_value(&ev);
                    let mut next = experiment.get_untracked();
                    if let Some(value) = knob.parse(&raw).ok().or_else(|| knob.unparsable(&raw)) {
                        knob.write(&mut next, value);
                    }
                    echo.set_value(show(&next));
                    experiment.set(next);
                } />
            " " {hint}
            <span class="field-error" id=format!("{id}-error")>{error}</span>
        </label>
    }
}

/// The form. `flop_rate` is the training device's measured FLOP/s (`None` before calibration).
#[component]
pub fn ExperimentForm(
    experiment: RwSignal<Experiment>,
    flop_rate: ReadSignal<Option<f64>>,
) -> impl IntoView {
    let uses_net_size = move || experiment.with(Experiment::uses_net_size);
    // The menus offer the architectures the system takes (a URL may still name another: its
    // field then says why it does not fit).
    let takes = move |a: Architecture| {
        experiment.with(|e| e.system.description().architectures().contains(&a))
    };
    let uses_horizon = move || experiment.with(Experiment::uses_horizon);
    let error_of = move |field: &'static str| move || experiment.with(|e| e.error_of(field));
    view! {
        <div id="experiment-form">
            <label>"System "
                <select id="system" on:change=move |ev| {
                    if let Ok(system) = event_target_value(&ev).parse::<System>() {
                        experiment.update(|e| e.set_system(system));
                    }
                }>
                    {System::ALL.into_iter().map(|s| view! {
                        <option value=s.name() selected=move || experiment.with(|e| e.system == s)>{s.title()}</option>
                    }).collect_view()}
                    {COMING_SYSTEMS.into_iter().map(|(name, title)| view! {
                        <option value=name disabled=true>{title}</option>
                    }).collect_view()}
                </select>
            </label>
            <label>"Preset "
                <select id="preset" on:change=move |ev| {
                    if let Ok(preset) = event_target_value(&ev).parse::<Preset>() {
                        experiment.update(|e| e.set_preset(preset));
                    }
                }>
                    {Preset::BROWSER.into_iter().map(|p| view! {
                        <option value=p.name() selected=move || experiment.with(|e| e.preset == p)>{p.title()}</option>
                    }).collect_view()}
                </select>
            </label>
            <fieldset id="modes">
                <legend>"Modes"</legend>
                {Mode::ALL.into_iter().map(|mode| view! {
                    <label>
                        <input type="checkbox" id=format!("modes-{}", mode.name())
                            prop:checked=move || experiment.with(|e| e.modes.contains(&mode))
                            on:change=move |_| experiment.update(|e| e.toggle_mode(mode)) />
                        " " {mode_title(mode)}
                    </label>
                }).collect_view()}
                <span class="field-error" id="modes-error">{error_of(Knob::Modes.key())}</span>
            </fieldset>
            <fieldset id="modalities">
                <legend>"Modalities"</legend>
                {Modality::ALL.into_iter().map(|modality| view! {
                    <label>
                        <input type="checkbox" id=format!("modalities-{}", modality.name())
                            prop:checked=move || experiment.with(|e| e.modalities.contains(&modality))
                            on:change=move |_| experiment.update(|e| e.toggle_modality(modality)) />
                        " " {modality_title(modality)}
                    </label>
                }).collect_view()}
                <span class="field-error" id="modalities-error">{error_of(Knob::Modalities.key())}</span>
            </fieldset>
            // The form in three tasks after its first (each part's DOM is a short task).
            <Later>
            <fieldset id="network">
                <legend>"Network"</legend>
                <div class:hidden=move || !uses_net_size()><label>"Architecture "
                    <select id="arch" on:change=move |ev| {
                        if let Ok(architecture) = event_target_value(&ev).parse::<Architecture>() {
                            experiment.update(|e| e.set_architecture(architecture));
                        }
                    }>
                        {Architecture::ALL.into_iter().map(|a| view! {
                            <option value=a.name() selected=move || experiment.with(|e| e.architecture == a)
                                hidden=move || !takes(a)>{a.title()}</option>
                        }).collect_view()}
                    </select>
                </label></div>
                <div id="archs" class:hidden=uses_net_size>
                    "Architectures (each with its size grid): "
                    {Architecture::ALL.into_iter().map(|a| view! {
                        <label class:hidden=move || !takes(a)>
                            <input type="checkbox" id=format!("archs-{}", a.name())
                                prop:checked=move || experiment.with(|e| e.architectures.contains(&a))
                                on:change=move |_| experiment.update(|e| e.toggle_architecture(a)) />
                            " " {a.title()}
                        </label>
                    }).collect_view()}
                    <span class="field-error" id="archs-error">{error_of(Knob::Architectures.key())}</span>
                </div>
                <div class:hidden=move || !uses_net_size()>
                    <p class="hint" id="size-knobs">{move || experiment.with(|e| e.architecture.size_knobs())}</p>
                    <KnobField experiment=experiment knob=Knob::Channels />
                    <KnobField experiment=experiment knob=Knob::Depth />
                    <p id="params">{move || experiment
                        .with(Experiment::parameter_count)
                        .map(|p| format!("{} parameters", grouped(p)))
                        .unwrap_or_default()}</p>
                </div>
                <p id="preset-sizes" class:hidden=uses_net_size>
                    "Network sizes (set by the preset): "
                    {move || experiment.with(|e| e.preset_sizes()).into_iter()
                        .map(|(size, params)| format!("{} C = {}, D = {} ({} parameters)", size.architecture.map(|a| a.name()).unwrap_or_default(), size.channels, size.depth, grouped(params)))
                        .collect::<Vec<_>>().join("; ")}
                </p>
            </fieldset>
            <fieldset id="unroll">
                <legend>"Unroll"</legend>
                <div class:hidden=move || !uses_horizon()>
                    <KnobField experiment=experiment knob=Knob::Horizon />
                </div>
                <p id="preset-horizons" class:hidden=uses_horizon>
                    "Unroll horizons m (set by the preset): "
                    {move || experiment.with(|e| e.system.description().preset(e.preset, 1).horizons)
                        .iter().map(usize::to_string).collect::<Vec<_>>().join(", ")}
                </p>
                <KnobField experiment=experiment knob=Knob::Warmup />
                <KnobField experiment=experiment knob=Knob::Detach />
                <KnobField experiment=experiment knob=Knob::Alpha
                    hint="(only with the transition mode)"
                    disabled=Signal::derive(move || !experiment.with(Experiment::uses_alpha)) />
            </fieldset>
            </Later>
            <Later>
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
                    <span class="field-error" id="solver-error">{error_of(Knob::Solver.key())}</span>
                </label></div>
                <KnobField experiment=experiment knob=Knob::LearningRate />
                <KnobField experiment=experiment knob=Knob::Iterations />
                <KnobField experiment=experiment knob=Knob::Seeds />
                <KnobField experiment=experiment knob=Knob::Scales hint="(comma-separated)" />
                <KnobField experiment=experiment knob=Knob::Rollout />
            </fieldset>
            <p id="estimate" class="estimate">{move || match experiment.with(Experiment::workload) {
                Some(workload) => {
                    let eval = experiment.with(|e| e.study_config().eval);
                    format!(
                        "{} Each training is then evaluated on {} tests.",
                        cost_summary(&workload, flop_rate.get()),
                        eval.scales.len() * eval.tests_per_size
                    )
                }
                None => "Workload: correct the fields marked above.".to_string(),
            }}</p>
            <p class="field-error" id="workload-error">{error_of(crate::experiment::validate::WORKLOAD)}</p>
            <p class="deviations">"Deviations from the study: " {move || experiment.with(|e| e.deviations().join("; "))}</p>
            <p class="cli">"Same study from the CLI: " <code id="cli-command">{move || experiment.with(Experiment::cli_command)}</code></p>
            </Later>
            <Later>
            <div class="peers">
                <p class="cli">"The paper's own code ("<code>"kuramoto-sivashinsky/ks_train.py"</code>", PyTorch + PhiFlow), closest equivalent:"</p>
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
            </Later>
        </div>
    }
}
