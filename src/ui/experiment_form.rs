//! The experiment form: every knob of [`Experiment`] (system, preset, modes, modalities,
//! network with its live parameter count, unroll, α, learning rate, iterations, seeds, training
//! domain sizes, evaluation rollout), each validated inline (`#<field>-error`), then the workload
//! (trainings, iterations, counted FLOPs, memory, time at the measured FLOP rate), every
//! deviation from the study and the equivalent CLI command. Input ids are the URL names.

use leptos::prelude::*;

use crate::numerics::nets::Architecture;
use crate::numerics::train::{Modality, Mode};
use crate::report::experiment::{BrowserPreset, Experiment, System, COMING_SYSTEMS};

/// An integer typed in a field; unparsable text becomes `usize::MAX` (out of every range, so the
/// field shows its message).
fn count_of(raw: &str) -> usize {
    raw.trim().parse().unwrap_or(usize::MAX)
}

/// A real number typed in a field; unparsable text becomes NaN (invalid everywhere).
fn float_of(raw: &str) -> f64 {
    raw.trim().parse().unwrap_or(f64::NAN)
}

/// The scales as typed: `0.9, 1, 1.1`.
fn show_scales(e: &Experiment) -> String {
    e.scales
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Comma-separated scales; empty entries are skipped, unparsable ones become NaN.
fn store_scales(e: &mut Experiment, raw: &str) {
    e.scales = raw
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(float_of)
        .collect();
}

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

fn architecture_title(architecture: Architecture) -> &'static str {
    match architecture {
        Architecture::Resnet => "ResNet1D (periodic convolutions)",
        Architecture::Gcn => "ring graph network (GCN)",
    }
}

/// One labelled input bound to a field of `experiment`, with its inline error span
/// `#<id>-error`. `show` formats the field, `store` parses typed text into it (invalid text gives
/// an invalid value, so the message appears). The input's text is only replaced when the field
/// changes from elsewhere, never while typing.
#[component]
fn NumberField(
    experiment: RwSignal<Experiment>,
    /// Input id = URL name of the field.
    id: &'static str,
    label: &'static str,
    show: fn(&Experiment) -> String,
    store: fn(&mut Experiment, &str),
    /// `number` or `text` (lists).
    #[prop(default = "number")]
    kind: &'static str,
    /// The input's `step` (`any` for real numbers).
    #[prop(default = "1")]
    step: &'static str,
    /// Shown after the input.
    #[prop(optional)]
    hint: &'static str,
    /// Disables the input (the field does not apply).
    #[prop(optional)]
    disabled: Option<Signal<bool>>,
) -> impl IntoView {
    let text = RwSignal::new(experiment.with_untracked(show));
    // The field's formatted value right after this input's own last edit.
    let echo = StoredValue::new(String::new());
    Effect::new(move |_| {
        let formatted = experiment.with(show);
        if formatted != echo.get_value() {
            text.set(formatted);
        }
    });
    let error = move || experiment.with(|e| e.error_of(id));
    view! {
        <label>{label} " "
            <input id=id type=kind step=step
                prop:value=move || text.get()
                disabled=move || disabled.is_some_and(|d| d.get())
                on:input=move |ev| {
                    let raw = event_target_value(&ev);
                    let mut next = experiment.get_untracked();
                    store(&mut next, &raw);
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
    let uses_horizon = move || experiment.with(Experiment::uses_horizon);
    let error_of = move |field: &'static str| move || experiment.with(|e| e.error_of(field));
    view! {
        <div id="experiment-form">
            <label>"System "
                <select id="system" on:change=move |ev| {
                    if let Some(system) = System::parse(&event_target_value(&ev)) {
                        experiment.update(|e| e.system = system);
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
                    if let Some(preset) = BrowserPreset::parse(&event_target_value(&ev)) {
                        experiment.update(|e| e.set_preset(preset));
                    }
                }>
                    {BrowserPreset::ALL.into_iter().map(|p| view! {
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
                <span class="field-error" id="modes-error">{error_of("modes")}</span>
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
                <span class="field-error" id="modalities-error">{error_of("modalities")}</span>
            </fieldset>
            <fieldset id="network">
                <legend>"Network"</legend>
                <label>"Architecture "
                    <select id="arch" on:change=move |ev| {
                        if let Some(architecture) = Architecture::parse(&event_target_value(&ev)) {
                            experiment.update(|e| e.architecture = architecture);
                        }
                    }>
                        {Architecture::ALL.into_iter().map(|a| view! {
                            <option value=a.name() selected=move || experiment.with(|e| e.architecture == a)>{architecture_title(a)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <div class:hidden=move || !uses_net_size()>
                    <NumberField experiment=experiment id="channels" label="Channels C"
                        show={|e: &Experiment| e.channels.to_string()}
                        store={|e: &mut Experiment, raw: &str| e.channels = count_of(raw)} />
                    <NumberField experiment=experiment id="depth" label="Depth D (residual blocks)"
                        show={|e: &Experiment| e.depth.to_string()}
                        store={|e: &mut Experiment, raw: &str| e.depth = count_of(raw)} />
                    <p id="params">{move || experiment
                        .with(Experiment::parameter_count)
                        .map(|p| format!("{} parameters", grouped(p)))
                        .unwrap_or_default()}</p>
                </div>
                <p id="preset-sizes" class:hidden=uses_net_size>
                    "Network sizes (set by the preset): "
                    {move || experiment.with(|e| e.preset_sizes()).into_iter()
                        .map(|(size, params)| format!("C = {}, D = {} ({} parameters)", size.channels, size.depth, grouped(params)))
                        .collect::<Vec<_>>().join("; ")}
                </p>
            </fieldset>
            <fieldset id="unroll">
                <legend>"Unroll"</legend>
                <div class:hidden=move || !uses_horizon()>
                    <NumberField experiment=experiment id="m" label="Unroll horizon m (loss steps)"
                        show={|e: &Experiment| e.horizon.to_string()}
                        store={|e: &mut Experiment, raw: &str| e.horizon = count_of(raw)} />
                </div>
                <p id="preset-horizons" class:hidden=uses_horizon>
                    "Unroll horizons m (set by the preset): "
                    {move || experiment.with(|e| e.preset.horizons()).unwrap_or_default()
                        .iter().map(usize::to_string).collect::<Vec<_>>().join(", ")}
                </p>
                <NumberField experiment=experiment id="warmup" label="Warm-up steps w (detached, outside the loss)"
                    show={|e: &Experiment| e.warmup.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.warmup = count_of(raw)} />
                <NumberField experiment=experiment id="detach" label="Detach interval k (WIG; 0 = never cut)"
                    show={|e: &Experiment| e.detach.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.detach = count_of(raw)} />
                <NumberField experiment=experiment id="alpha" label="Transition α" step="any"
                    hint="(only with the transition mode)"
                    disabled=Signal::derive(move || !experiment.with(Experiment::uses_alpha))
                    show={|e: &Experiment| e.alpha.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.alpha = float_of(raw)} />
            </fieldset>
            <fieldset id="training">
                <legend>"Training and evaluation"</legend>
                <NumberField experiment=experiment id="lr" label="Learning rate" step="any"
                    show={|e: &Experiment| e.learning_rate.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.learning_rate = float_of(raw)} />
                <NumberField experiment=experiment id="iterations" label="Iterations per variant"
                    show={|e: &Experiment| e.iterations.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.iterations = count_of(raw)} />
                <NumberField experiment=experiment id="seeds" label="Seeds"
                    show={|e: &Experiment| e.seeds.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.seeds = count_of(raw)} />
                <NumberField experiment=experiment id="scales" label="Training domain sizes s (L = 8·s)" kind="text"
                    hint="(comma-separated)"
                    show=show_scales
                    store=store_scales />
                <NumberField experiment=experiment id="rollout" label="Evaluation rollout (steps)"
                    show={|e: &Experiment| e.rollout.to_string()}
                    store={|e: &mut Experiment, raw: &str| e.rollout = count_of(raw)} />
            </fieldset>
            <p id="estimate" class="estimate">{move || match experiment.with(Experiment::workload) {
                Some(workload) => {
                    let eval = experiment.with(|e| e.study_config().eval);
                    format!(
                        "{} Each training is then evaluated on {} tests.",
                        workload.summary(flop_rate.get()),
                        eval.scales.len() * eval.tests_per_size
                    )
                }
                None => "Workload: correct the fields marked above.".to_string(),
            }}</p>
            <p class="field-error" id="workload-error">{error_of("workload")}</p>
            <p class="deviations">"Deviations from the study: " {move || experiment.with(|e| e.deviations().join("; "))}</p>
            <p class="cli">"Same study from the CLI: " <code id="cli-command">{move || experiment.with(Experiment::cli_command)}</code></p>
        </div>
    }
}
