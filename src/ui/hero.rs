//! The first screen's live picture: the study's ground-truth KS solution computed in the page a
//! step every other animation frame ([`LiveField`]) and drawn as a scrolling space–time map,
//! with a pause button (moving content must be stoppable). `data-steps` on the canvas counts
//! the steps shown.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::charts::LiveField;
use crate::platform::canvas::put_rgb;
use crate::platform::timer::next_frame;

/// Frames in the window (time steps across the picture).
const WINDOW: usize = 240;
/// Animation frames per solver step (30 steps/s at 60 Hz).
const FRAMES_PER_STEP: usize = 2;

/// The live space–time map of the ground truth.
#[component]
pub fn HeroAnimation() -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (playing, set_playing) = signal(true);
    let (steps, set_steps) = signal(0usize);
    let (error, set_error) = signal(String::new());
    leptos::task::spawn_local(async move {
        let mut field = match LiveField::new(WINDOW) {
            Ok(field) => field,
            Err(err) => {
                set_error.set(format!("The live solution could not start: {err}"));
                return;
            }
        };
        let mut frame = 0usize;
        let mut drawn = false;
        loop {
            next_frame().await;
            let Some(element) = canvas.get_untracked() else {
                continue;
            };
            let Some(play) = playing.try_get_untracked() else {
                return;
            };
            frame += 1;
            let step = play && frame.is_multiple_of(FRAMES_PER_STEP);
            if step {
                field.advance(1);
                let _ = set_steps.try_set(field.steps());
            }
            if step || !drawn {
                let (w, h) = field.size();
                if let Err(err) = put_rgb(&element, w, h, &field.rgb()) {
                    let _ = set_error.try_set(err);
                }
                drawn = true;
            }
        }
    });
    view! {
        <figure class="hero-figure">
            <canvas id="hero-canvas" node_ref=canvas width=WINDOW.to_string() height="48"
                data-steps=move || steps.get().to_string()
                role="img"
                aria-label="Live space–time map of the Kuramoto–Sivashinsky ground truth: position runs top to bottom, time to the right; blue is negative u, red positive."></canvas>
            <figcaption>
                <strong>"Kuramoto–Sivashinsky, live"</strong>
                " — u"<sub>"t"</sub>" = −u u"<sub>"x"</sub>" − u"<sub>"xx"</sub>" − u"<sub>"xxxx"</sub>
                ", computed in this page with the study's ground-truth solver (ETRK2, 48 points, L = 8). "
                "Position runs down, time to the right (the last 240 steps); blue u < 0, red u > 0. "
                <button id="hero-toggle" type="button" aria-pressed=move || (!playing.get()).to_string()
                    on:click=move |_| set_playing.update(|p| *p = !*p)>
                    {move || if playing.get() { "Pause animation" } else { "Play animation" }}
                </button>
                <span class="chart-error" role="alert">{error}</span>
            </figcaption>
        </figure>
    }
}
