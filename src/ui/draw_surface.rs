//! The playground's drawing surface: the state as a curve over one period, and a stroke drawn
//! with the mouse, a pen or a finger that becomes the state (kept as its lowest Fourier modes)
//! when the pointer is released.

use leptos::prelude::*;

use unroll_browser::pointer;
use unroll_core::system::playground::Playground;
use unroll_report::experiment::initial_state::{paint, InitialState};

/// Samples across the drawing surface.
pub const SAMPLES: usize = 96;
/// The surface's value range: ±this.
const RANGE: f64 = 4.0;
/// The SVG's coordinate box: width.
const BOX_W: f64 = 960.0;
/// The SVG's coordinate box: height.
const BOX_H: f64 = 240.0;

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

/// The surface showing and setting `state`.
#[component]
pub fn DrawSurface(
    playground: &'static dyn Playground,
    state: RwSignal<InitialState>,
) -> impl IntoView {
    let (stroke, set_stroke) = signal(None::<Vec<f64>>);
    let last = StoredValue::new(None::<usize>);
    let down = move |ev: leptos::ev::PointerEvent| {
        pointer::capture(&ev);
        let Some(at) = pointer::fraction(&ev) else {
            return;
        };
        let mut samples = state.with_untracked(|s| s.values_on(playground, SAMPLES));
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
            let parameter = state.with_untracked(|s| s.parameter);
            state.set(InitialState::drawn(&samples, parameter));
        }
        set_stroke.set(None);
    };
    view! {
        <div id="draw-surface" class="draw-surface" aria-describedby="draw-hint"
            on:pointerdown=down on:pointermove=moved on:pointerup=up on:pointercancel=up>
            <svg viewBox=format!("0 0 {BOX_W} {BOX_H}") preserveAspectRatio="none" aria-hidden="true">
                <line x1="0" y1=BOX_H / 2.0 x2=BOX_W y2=BOX_H / 2.0 class="axis" />
                <polyline id="ic-curve" class="state" points=move || state.with(|s| points(&s.values(playground))) />
                <polyline class="stroke" points=move || stroke.get().map(|s| points(&s)).unwrap_or_default() />
            </svg>
        </div>
    }
}
