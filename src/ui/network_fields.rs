//! The network and unroll fieldsets of the experiment form: the architecture (or, in the
//! `sizes` preset, the architectures with their size grids), channels and depth with the live
//! parameter count, and the unroll horizon (or the preset's horizons), warm-up, detach interval
//! and α.

use leptos::prelude::*;

use super::knob_field::KnobField;
use unroll_core::nets::Architecture;
use unroll_report::experiment::{Experiment, Knob};

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
/// The network fieldset. The menus offer the architectures the system takes (a URL may still
/// name another: its field then says why it does not fit).
#[component]
pub fn NetworkFields(experiment: RwSignal<Experiment>) -> impl IntoView {
    let uses_net_size = move || experiment.with(Experiment::uses_net_size);
    let takes = move |a: Architecture| {
        experiment.with(|e| e.system.description().architectures().contains(&a))
    };
    let archs_error = move || experiment.with(|e| e.error_of(Knob::Architectures.key()));
    view! {
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
                <span class="field-error" id="archs-error">{archs_error}</span>
            </div>
            <NetSize experiment />
        </fieldset>
    }
}

/// Channels and depth with the parameter count, or the preset's sizes.
#[component]
fn NetSize(experiment: RwSignal<Experiment>) -> impl IntoView {
    let uses_net_size = move || experiment.with(Experiment::uses_net_size);
    let preset_sizes = move || {
        experiment
            .with(|e| e.preset_sizes())
            .into_iter()
            .map(|(size, params)| {
                format!(
                    "{} C = {}, D = {} ({} parameters)",
                    size.architecture.map(|a| a.name()).unwrap_or_default(),
                    size.channels,
                    size.depth,
                    grouped(params)
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    view! {
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
            "Network sizes (set by the preset): " {preset_sizes}
        </p>
    }
}

/// The unroll fieldset.
#[component]
pub fn UnrollFields(experiment: RwSignal<Experiment>) -> impl IntoView {
    let uses_horizon = move || experiment.with(Experiment::uses_horizon);
    view! {
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
    }
}
