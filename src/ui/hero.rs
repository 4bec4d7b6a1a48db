//! The first screen's live picture: the study's ground-truth KS solution computed in the page
//! ([`LiveField`]) and drawn as a scrolling space–time map, with a pause button (moving content
//! must be stoppable; it starts paused when the reader prefers reduced motion). `data-steps` on
//! the canvas counts the steps shown.
//!
//! Woken on every animation frame (none while the tab is hidden): it advances the solver steps
//! owed at [`STEPS_PER_SEC`] and, when there were any, scrolls the picture by them and puts only
//! their columns. A wake-up is a plain call into
//! wasm (the static constructors run once, at start-up: `platform::run_static_constructors`).

use crate::numerics::system::System;
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::charts::LiveField;
use crate::platform::canvas::RgbCanvas;
use crate::platform::prefers_reduced_motion;
use crate::platform::timer::{next_frame, now_secs, sleep};

/// Frames in the window (time steps across the picture).
const WINDOW: usize = 240;
/// Solver steps per second of wall time.
const STEPS_PER_SEC: f64 = 25.0;
/// Solver steps per task while the warm-up runs and the first window fills (the page's load
/// stays in short tasks).
const FILL_PER_TASK: usize = 60;
/// Milliseconds between checks while paused.
const PAUSED_MS: i32 = 250;

/// The live space–time map of the ground truth.
#[component]
pub fn HeroAnimation() -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (playing, set_playing) = signal(!prefers_reduced_motion());
    let (steps, set_steps) = signal(0usize);
    let (error, set_error) = signal(String::new());
    leptos::task::spawn_local(async move {
        // The solver's set-up in a task of its own, not in the one that mounts the page.
        sleep(0).await;
        let Some(playground) = System::default().description().playground() else {
            set_error.set("The default system has no live picture.".into());
            return;
        };
        let mut field = match LiveField::start(playground, WINDOW) {
            Ok(field) => field,
            Err(err) => {
                set_error.set(format!("The live solution could not start: {err}"));
                return;
            }
        };
        // The warm-up to a developed state and the first window in slices, each in a task of
        // its own.
        loop {
            sleep(0).await;
            if field.fill(FILL_PER_TASK) {
                break;
            }
        }
        let mut target: Option<RgbCanvas> = None;
        let mut drawn = false;
        // Wall time (s) up to which the steps shown are owed.
        let mut clock = now_secs();
        loop {
            let Some(play) = playing.try_get_untracked() else {
                return;
            };
            if drawn && !play {
                sleep(PAUSED_MS).await;
                clock = now_secs();
                continue;
            }
            if target.is_none() {
                target = canvas.get_untracked().and_then(RgbCanvas::new);
            }
            if let Some(target) = &target {
                let owed = ((now_secs() - clock) * STEPS_PER_SEC).floor();
                if drawn && owed < 1.0 {
                    next_frame().await;
                    continue;
                }
                let (w, h) = field.size();
                let put = if drawn {
                    // At most a second's steps after a stall (a hidden tab, a long task).
                    let steps = owed.min(STEPS_PER_SEC) as usize;
                    field.advance(steps);
                    let _ = set_steps.try_set(field.steps());
                    // The picture scrolls by the new frames; only they are coloured and put.
                    target.scroll_in(steps as u32, h, &field.newest_rgb(steps))
                } else {
                    target.put(w, h, &field.rgb())
                };
                clock = if owed > STEPS_PER_SEC {
                    now_secs()
                } else {
                    clock + owed / STEPS_PER_SEC
                };
                if let Err(err) = put {
                    let _ = set_error.try_set(err);
                }
                drawn = true;
            }
            next_frame().await;
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
