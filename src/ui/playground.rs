//! "Your own initial state": draw a state with the mouse or a finger (or pick one of the paper's
//! IC families and set its coefficients from the keyboard), pick the domain size, and see the
//! truth, the coarse solver alone and every trained variant with weights at hand rolled out from
//! it (inference only): their space–time maps side by side and the error over time. The state
//! lives in the URL (`ic=`, `ic-s=`); weights come from the run on the page or from imported
//! `.bpk` files beside an imported results file.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::charts::{draw_rollout_part, RolloutPart};
use crate::experiment::initial_state::{
    paint, InitialState, StateSource, SCALE_KEY, SCALE_LIMITS, STATE_KEY,
};
use crate::experiment::playground::{
    models_of, reference_rollouts, rollout_request, scored, Rollout, MAX_STEPS,
};
use crate::numerics::study::contract::playground::Playground;
use crate::numerics::system::{System, SystemDescription};
use crate::platform::canvas as canvas_backend;
use crate::platform::inference::InferenceWorker;
use crate::platform::timer::sleep;
use crate::platform::{files, pointer};
use crate::report::results::StudyResults;

/// The system whose states the playground draws and rolls out (its initial-state families,
/// solvers and trained 1-D networks).
const PLAYGROUND_SYSTEM: System = System::Ks;

/// Samples across the drawing surface.
const SAMPLES: usize = 96;
/// The surface's value range: ±this.
const RANGE: f64 = 4.0;
/// The SVG's coordinate box: width.
const BOX_W: f64 = 960.0;
/// The SVG's coordinate box: height.
const BOX_H: f64 = 240.0;

/// The system whose states the playground draws (the default system: it has a playground).
fn system() -> &'static dyn SystemDescription {
    System::default().description()
}

/// Its playground.
fn playground() -> &'static dyn Playground {
    system()
        .playground()
        .expect("the default system has a playground")
}

/// SVG polyline points of `values` across the surface (closing the period at the right edge).
fn points(values: &[f64]) -> String {
    let n = values.len().max(1);
    values
        .iter()
        .chain(values.first())
        .enumerate()
        .map(|(j, v)| {
            let x = j as f64 * BOX_W / n as f64;
            let y = (0.5 - v.clamp(-RANGE, RANGE) / (2.0 * RANGE)) * BOX_H;
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn family_of(state: &InitialState) -> &'static str {
    match state.source {
        StateSource::Train { .. } => "train",
        StateSource::Test { .. } => "test",
        StateSource::Drawn { .. } => "drawn",
    }
}

/// The family's two coefficients and their names (`None` for a drawn state).
fn coefficients(state: &InitialState) -> Option<[(&'static str, f64); 2]> {
    match state.source {
        StateSource::Train { a, b } => Some([("a", a), ("b", b)]),
        StateSource::Test { c, s_prime } => Some([("c", c), ("s′", s_prime)]),
        StateSource::Drawn { .. } => None,
    }
}

/// The playground. `results` and `weights` are the run's on the page (or imported); the
/// trained variants roll out in an inference worker.
#[component]
pub fn Playground(
    results: ReadSignal<Option<StudyResults>>,
    weights: ReadSignal<Vec<(String, Vec<u8>)>>,
) -> impl IntoView {
    let inference = StoredValue::new_local(InferenceWorker::default());
    let (initial, problems) = InitialState::from_query(
        files::query_text(STATE_KEY).as_deref(),
        files::query_text(SCALE_KEY).as_deref(),
    );
    let state = RwSignal::new(initial);
    let (notice, set_notice) = signal(problems.join("; "));
    let (stroke, set_stroke) = signal(None::<Vec<f64>>);
    let last = StoredValue::new(None::<usize>);
    let (imported, set_imported) = signal(Vec::<(String, Vec<u8>)>::new());
    let (steps, set_steps) = signal(80usize);
    let (rollouts, set_rollouts) = signal(Vec::<Rollout>::new());
    let (status, set_status) = signal(String::new());
    let generation = StoredValue::new(0u64);
    let canvas = NodeRef::<Canvas>::new();

    Effect::new(move |_| {
        let current = state.get();
        let pairs: Vec<(&str, Option<String>)> = if current == InitialState::default() {
            vec![(STATE_KEY, None), (SCALE_KEY, None)]
        } else {
            let query = current.to_query();
            let get = |key: &str| {
                query
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.clone())
            };
            vec![(STATE_KEY, get(STATE_KEY)), (SCALE_KEY, get(SCALE_KEY))]
        };
        files::set_query_keys(&pairs);
    });

    // Roll out whenever the state, the length or the models change.
    Effect::new(move |_| {
        let current = state.get();
        let n = steps.get();
        let run_results = results.get();
        let mut all_weights = weights.get();
        all_weights.extend(imported.get());
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        leptos::task::spawn_local(async move {
            sleep(0).await;
            let stale = move || generation.try_get_value() != Some(mine);
            let mut out = match reference_rollouts(system(), &current, n) {
                Ok(out) => out,
                Err(err) => {
                    let _ = set_status.try_set(format!("The rollout failed: {err}"));
                    return;
                }
            };
            let truth = out[0].frames.clone();
            let mut notes = Vec::new();
            let mut done = 0;
            if let Some(other) = run_results
                .as_ref()
                .map(StudyResults::system)
                .filter(|system| *system != PLAYGROUND_SYSTEM)
            {
                notes.push(format!(
                    "the playground draws {} states; the results on the page are {}",
                    PLAYGROUND_SYSTEM.title(),
                    other.title()
                ));
            } else if let Some(results) = &run_results {
                let (models, missing) = models_of(results, &all_weights);
                let worker = inference.get_value();
                for model in &models {
                    if stale() {
                        return;
                    }
                    let request = match rollout_request(system(), model, &current, &truth, n) {
                        Ok(request) => request,
                        Err(err) => {
                            notes.push(err);
                            continue;
                        }
                    };
                    match worker.rollout(request.clone()).await {
                        Ok(frames) => {
                            out.push(scored(&request, frames, &truth));
                            done += 1;
                        }
                        Err(err) => notes.push(err),
                    }
                }
                if !missing.is_empty() {
                    notes.push(format!(
                        "no weights for {} (import their .bpk files)",
                        missing.join(", ")
                    ));
                }
            } else {
                notes.push(
                    "no trained variants yet: run a study or import results with their weights"
                        .into(),
                );
            }
            // The figure draws in a task of its own, after the one that computed the rollouts.
            sleep(0).await;
            if stale() {
                return;
            }
            let _ = set_status.try_set(format!(
                "{} steps from your state at s = {}: truth, ETD1 alone and {done} trained variant(s), inference only.{}",
                n,
                current.scale,
                if notes.is_empty() {
                    String::new()
                } else {
                    format!(" Note: {}.", notes.join("; "))
                }
            ));
            let _ = set_rollouts.try_set(out);
        });
    });

    // The figure's maps now, its error chart in the next task (each part a short task).
    Effect::new(move |_| {
        let Some(element) = canvas.get() else {
            return;
        };
        let draw = move |element: &_, part| {
            let outcome = rollouts.try_with_untracked(|r| {
                canvas_backend::draw_with(element, |area| draw_rollout_part(area, r, part))
            });
            if let Some(Err(err)) = outcome {
                let _ = set_status.try_set(format!("The figure could not be drawn: {err}"));
            }
        };
        rollouts.track();
        draw(&element, RolloutPart::Maps);
        leptos::task::spawn_local(async move {
            sleep(0).await;
            draw(&element, RolloutPart::Errors);
        });
    });

    let down = move |ev: leptos::ev::PointerEvent| {
        pointer::capture(&ev);
        let Some(at) = pointer::fraction(&ev) else {
            return;
        };
        let mut samples = state.with_untracked(|s| s.values_on(playground(), SAMPLES));
        last.set_value(Some(paint(&mut samples, None, at, RANGE)));
        set_stroke.set(Some(samples));
    };
    let moved = move |ev: leptos::ev::PointerEvent| {
        let (Some(from), Some(at)) = (last.get_value(), pointer::fraction(&ev)) else {
            return;
        };
        set_stroke.update(|s| {
            if let Some(samples) = s {
                last.set_value(Some(paint(samples, Some(from), at, RANGE)));
            }
        });
    };
    let up = move |_| {
        last.set_value(None);
        if let Some(samples) = stroke.get_untracked() {
            let scale = state.with_untracked(|s| s.scale);
            state.set(InitialState::drawn(&samples, scale));
        }
        set_stroke.set(None);
    };
    let set_family = move |ev: leptos::ev::Event| {
        let scale = state.with_untracked(|s| s.scale);
        let source = match event_target_value(&ev).as_str() {
            "train" => StateSource::Train { a: 0.1, b: 0.1 },
            "test" => StateSource::Test {
                c: 0.05,
                s_prime: 1.0,
            },
            _ => {
                let values = state.with_untracked(|s| s.values_on(playground(), SAMPLES));
                InitialState::drawn(&values, scale).source
            }
        };
        state.set(InitialState { source, scale });
    };
    let set_coefficient = move |which: usize, ev: leptos::ev::Event| {
        let Ok(value) = event_target_value(&ev).trim().parse::<f64>() else {
            set_notice.set("A coefficient must be a number.".into());
            return;
        };
        if !value.is_finite() || value.abs() > 10.0 {
            set_notice.set("A coefficient must be within ±10.".into());
            return;
        }
        set_notice.set(String::new());
        state.update(|s| match &mut s.source {
            StateSource::Train { a, b } => *[a, b][which] = value,
            StateSource::Test { c, s_prime } => *[c, s_prime][which] = value,
            StateSource::Drawn { .. } => {}
        });
    };
    let set_scale = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<f64>()
    {
        Ok(s) if SCALE_LIMITS.contains(&s) => {
            set_notice.set(String::new());
            state.update(|state| state.scale = s);
        }
        _ => set_notice.set(format!(
            "The domain scale s must be a number in {}..={}.",
            SCALE_LIMITS.start(),
            SCALE_LIMITS.end()
        )),
    };
    let set_length =
        move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<usize>() {
            Ok(n) if (1..=MAX_STEPS).contains(&n) => {
                set_notice.set(String::new());
                set_steps.set(n);
            }
            _ => set_notice.set(format!("Steps must be a whole number in 1..={MAX_STEPS}.")),
        };
    let import = move |ev: leptos::ev::Event| {
        leptos::task::spawn_local(async move {
            match files::read_files_of_event(ev).await {
                Ok(picked) => set_imported.update(|list| list.extend(picked)),
                Err(err) => set_notice.set(format!("Weights import failed: {err}")),
            }
        });
    };
    let coefficient_field = move |which: usize| {
        let id = if which == 0 { "ic-p1" } else { "ic-p2" };
        let name = move || state.with(|s| coefficients(s).map_or("—", |c| c[which].0));
        view! {
            <label>"Coefficient " {name} " "
                <input id=id type="number" step="0.05"
                    disabled=move || state.with(|s| coefficients(s).is_none())
                    prop:value=move || state.with(|s| coefficients(s).map_or(String::new(), |c| c[which].1.to_string()))
                    on:change=move |ev| set_coefficient(which, ev) />
            </label>
        }
    };

    view! {
        <section id="playground" class="panel">
            <h2>"Your own initial state"</h2>
            <p class="hint" id="draw-hint">
                "Draw a state with the mouse or a finger across the box (one period of the domain), or pick one of the "
                "paper's IC families and set its coefficients. The truth, the coarse solver alone and every trained "
                "variant with weights are rolled out from it — inference only — and the link in the address bar "
                "shares the state (as its lowest 10 Fourier modes)."
            </p>
            <p id="ic-notice" class="notice" role="status" class:hidden=move || notice.get().is_empty()>{notice}</p>
            <div id="draw-surface" class="draw-surface" aria-describedby="draw-hint"
                on:pointerdown=down on:pointermove=moved on:pointerup=up on:pointercancel=up>
                <svg viewBox=format!("0 0 {BOX_W} {BOX_H}") preserveAspectRatio="none" aria-hidden="true">
                    <line x1="0" y1=BOX_H / 2.0 x2=BOX_W y2=BOX_H / 2.0 class="axis" />
                    <polyline id="ic-curve" class="state" points=move || state.with(|s| points(&s.values(playground()))) />
                    <polyline class="stroke" points=move || stroke.get().map(|s| points(&s)).unwrap_or_default() />
                </svg>
            </div>
            <div class="controls ic-controls">
                <label>"Family "
                    <select id="ic-family" on:change=set_family>
                        <option value="train" selected=move || state.with(|s| family_of(s) == "train")>"training: cos(2πx) + a·cos(2πx/L)(1 + b·sin(2πx/L))"</option>
                        <option value="test" selected=move || state.with(|s| family_of(s) == "test")>"test: cos(πx) + c·cos(2πx/L)(1 − s′·sin(2πx/L))"</option>
                        <option value="drawn" selected=move || state.with(|s| family_of(s) == "drawn")>"drawn (10 Fourier modes)"</option>
                    </select>
                </label>
                {coefficient_field(0)}
                {coefficient_field(1)}
                <label>"Domain scale s (L = 8·s) "
                    <input id="ic-scale" type="number" step="0.05" min=*SCALE_LIMITS.start() max=*SCALE_LIMITS.end()
                        prop:value=move || state.with(|s| s.scale.to_string()) on:change=set_scale />
                </label>
                <label>"Steps "
                    <input id="ic-steps" type="number" step="1" min="1" max=MAX_STEPS
                        prop:value=move || steps.get().to_string() on:change=set_length />
                </label>
                <label>"Import weights (.bpk, as exported) "
                    <input id="import-weights" type="file" multiple=true accept=".bpk" on:change=import />
                </label>
            </div>
            <p id="ic-status" role="status">{status}</p>
            <figure class="chart">
                <canvas id="ic-chart" node_ref=canvas width="960" height="460"></canvas>
                <figcaption>
                    <strong>"Rollouts from your state"</strong>
                    ". Space–time maps side by side (grid point across, step upwards, on the truth's colour scale; grey where a rollout blew up), then each model's relative error against the truth at every step (the study's per-frame summand, clipped at 30 as the study clips it)."
                </figcaption>
            </figure>
            <ul id="ic-summary">
                {move || rollouts.get().into_iter().skip(1).map(|r| {
                    let last_error = r.error.last().copied().unwrap_or(f64::NAN);
                    view! { <li data-name=r.name.clone()>{format!("{}: relative error {last_error:.3e} after {} steps", r.name, r.frames.len().saturating_sub(1))}</li> }
                }).collect_view()}
            </ul>
        </section>
    }
}
