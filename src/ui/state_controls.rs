//! The playground's controls under the drawing surface: the family of initial states (the
//! system's, or drawn), its two coefficients, the parameter, the rollout's length and imported
//! weights. A value that does not fit is named in the notice and not taken.

use leptos::prelude::*;

use super::draw_surface::SAMPLES;
use unroll_browser::files;
use unroll_core::system::playground::Playground;
use unroll_report::experiment::initial_state::{InitialState, DRAWN, MODES};
use unroll_report::experiment::playground::{parse_steps, MAX_STEPS};

/// Applies `change` to a copy of `state`, keeps the copy when it worked, and hands the outcome
/// to `take`.
fn edit(
    state: RwSignal<InitialState>,
    take: impl Fn(Result<(), String>),
    change: impl FnOnce(&mut InitialState) -> Result<(), String>,
) {
    let mut next = state.get_untracked();
    let outcome = change(&mut next);
    if outcome.is_ok() {
        state.set(next);
    }
    take(outcome);
}

/// The controls of `state` and the rollout's `steps`; `notice` says what was not taken,
/// `imported` receives picked weight files.
#[component]
pub fn StateControls(
    playground: &'static dyn Playground,
    state: RwSignal<InitialState>,
    steps: RwSignal<usize>,
    notice: WriteSignal<String>,
    imported: WriteSignal<Vec<(String, Vec<u8>)>>,
) -> impl IntoView {
    // A value that parses is taken and clears the notice; one that does not says why.
    let take = move |outcome: Result<(), String>| notice.set(outcome.err().unwrap_or_default());
    let set_family = move |ev: leptos::ev::Event| {
        let key = event_target_value(&ev);
        state.update(|s| *s = s.with_family(playground, &key, SAMPLES));
    };
    let set_parameter = move |ev: leptos::ev::Event| {
        edit(state, take, |s| {
            s.set_parameter(playground, &event_target_value(&ev))
        });
    };
    let set_length = move |ev: leptos::ev::Event| {
        take(parse_steps(&event_target_value(&ev)).map(|n| steps.set(n)));
    };
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            match files::read_files_of_event(ev).await {
                Ok(picked) => imported.update(|list| list.extend(picked)),
                Err(err) => notice.set(format!("Weights import failed: {err}")),
            }
        });
    };
    let family_is = move |key: &'static str| state.with(|s| s.family_key(playground) == key);
    let parameter = playground.parameter();
    view! {
        <div class="controls ic-controls">
            <label>"Family "
                <select id="ic-family" on:change=set_family>
                    {playground.families().iter().map(|f| view! {
                        <option value=f.key selected=move || family_is(f.key)>{f.title}</option>
                    }).collect_view()}
                    <option value=DRAWN selected=move || family_is(DRAWN)>{format!("drawn ({MODES} Fourier modes)")}</option>
                </select>
            </label>
            <CoefficientField playground state which=0 take />
            <CoefficientField playground state which=1 take />
            <label>{parameter.label} " "
                <input id="ic-scale" type="number" step="0.05" min=*parameter.limits.start() max=*parameter.limits.end()
                    prop:value=move || state.with(|s| s.parameter.to_string()) on:change=set_parameter />
            </label>
            <label>"Steps "
                <input id="ic-steps" type="number" step="1" min="1" max=MAX_STEPS
                    prop:value=move || steps.get().to_string() on:change=set_length />
            </label>
            <label>"Import weights (.bpk, as exported) "
                <input id="import-weights" type="file" multiple=true accept=".bpk" on:change=import />
            </label>
        </div>
    }
}

/// Coefficient `which` (0 or 1) of the state's family (disabled for a drawn state); `take`
/// shows what setting it said.
#[component]
fn CoefficientField(
    playground: &'static dyn Playground,
    state: RwSignal<InitialState>,
    which: usize,
    take: impl Fn(Result<(), String>) + Copy + 'static,
) -> impl IntoView {
    let id = if which == 0 { "ic-p1" } else { "ic-p2" };
    let coefficient = move || state.with(|s| s.coefficients(playground).map(|c| c[which]));
    let set = move |ev: leptos::ev::Event| {
        edit(state, take, |s| {
            s.set_coefficient(which, &event_target_value(&ev))
        });
    };
    view! {
        <label>"Coefficient " {move || coefficient().map_or("—", |c| c.0)} " "
            <input id=id type="number" step="0.05"
                disabled=move || coefficient().is_none()
                prop:value=move || coefficient().map_or(String::new(), |c| c.1.to_string())
                on:change=set />
        </label>
    }
}
