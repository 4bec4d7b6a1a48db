//! One labelled input bound to a knob of the experiment, with its inline error: the form's
//! number and list fields, generated from the knob table.

use leptos::prelude::*;

use unroll_report::experiment::{Experiment, Kind, Knob};

/// One labelled input bound to `knob` of `experiment`, with its inline error span
/// `#<key>-error`. Typed text is parsed by the knob; text that does not parse gives an invalid
/// value, so the message appears. The input's text is only replaced when the knob changes from
/// elsewhere, never while typing.
#[component]
pub fn KnobField(
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
