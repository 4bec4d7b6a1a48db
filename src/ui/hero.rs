//! The first screen's live picture: the study's ground-truth KS solution computed in the page
//! ([`LiveField`]) and drawn as a scrolling space–time map, with a pause button (moving content
//! must be stoppable; it starts paused when the reader prefers reduced motion). `data-steps` on
//! the canvas counts the steps shown.
//!
//! The scroll is the compositor's: the canvas is [`CHUNK`] columns wider than its window and a
//! CSS animation (`static/style.css`, `hero-scroll-a`/`-b`) slides it left by those columns in
//! one second, with no script. When a slide ends (`animationend`) the page advances the solver
//! [`CHUNK`] steps, moves the canvas's picture left by them, puts their columns at its right
//! edge and starts the next slide from the left, all in one task, so the next frame shows the
//! same picture it showed. The main thread works once a second, not on every frame; pausing
//! pauses the slide (`animation-play-state`), and a hidden tab runs no slide at all.

use crate::numerics::system::System;
use leptos::html::Canvas;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::charts::LiveField;
use crate::platform::canvas::RgbCanvas;
use crate::platform::prefers_reduced_motion;
use crate::platform::timer::{next_frame, sleep};

/// Frames in the visible window (time steps across the picture).
const WINDOW: usize = 240;
/// Solver steps per slide: the columns the canvas has beyond its window, scrolled in one
/// second (the slide's length in `static/style.css`), so the picture moves 25 steps a second.
const CHUNK: usize = 25;
/// Solver steps per task while the warm-up runs and the first window fills (the page's load
/// stays in short tasks).
const FILL_PER_TASK: usize = 60;

/// The running picture: the solution, the canvas it is drawn on and which slide runs.
struct Scroller {
    field: LiveField,
    canvas: HtmlCanvasElement,
    target: RgbCanvas,
    /// `a` or `b`: the slide's name, switched to start the next slide from the left.
    slide: char,
}

impl Scroller {
    /// Draws the whole picture and starts the first slide.
    fn start(field: LiveField, canvas: HtmlCanvasElement) -> Result<Self, String> {
        let target =
            RgbCanvas::new(canvas.clone()).ok_or("the canvas has no 2-D context".to_string())?;
        let (w, h) = field.size();
        target.put(w, h, &field.rgb())?;
        let mut scroller = Self {
            field,
            canvas,
            target,
            slide: 'b',
        };
        scroller.next_slide();
        Ok(scroller)
    }

    /// The slide's end: [`CHUNK`] more steps scrolled into the picture and the next slide
    /// started from the left, in this one task.
    fn slid(&mut self) -> Result<(), String> {
        self.field.advance(CHUNK);
        let (_, h) = self.field.size();
        let put = self
            .target
            .scroll_in(CHUNK as u32, h, &self.field.newest_rgb(CHUNK));
        self.next_slide();
        put
    }

    fn next_slide(&mut self) {
        self.slide = if self.slide == 'a' { 'b' } else { 'a' };
        let _ = self
            .canvas
            .set_attribute("data-slide", &self.slide.to_string());
    }
}

/// The live space–time map of the ground truth.
#[component]
pub fn HeroAnimation() -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (playing, set_playing) = signal(!prefers_reduced_motion());
    let (steps, set_steps) = signal(0usize);
    let (error, set_error) = signal(String::new());
    let scroller = StoredValue::new_local(None::<Scroller>);
    leptos::task::spawn_local(async move {
        // The solver's set-up in a task of its own, not in the one that mounts the page.
        sleep(0).await;
        let Some(playground) = System::default().description().playground() else {
            set_error.set("The default system has no live picture.".into());
            return;
        };
        let mut field = match LiveField::start(playground, WINDOW + CHUNK) {
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
        let element = loop {
            match canvas.try_get_untracked() {
                None => return,
                Some(Some(element)) => break element,
                Some(None) => next_frame().await,
            }
        };
        match Scroller::start(field, element) {
            Ok(started) => {
                let _ = set_steps.try_set(started.field.steps());
                let _ = scroller.try_set_value(Some(started));
            }
            Err(err) => {
                let _ = set_error.try_set(format!("The live picture could not be drawn: {err}"));
            }
        }
    });
    let slid = move |_| {
        let done = scroller.try_update_value(|scroller| {
            scroller.as_mut().map(|s| s.slid().map(|()| s.field.steps()))
        });
        match done.flatten() {
            Some(Ok(shown)) => set_steps.set(shown),
            Some(Err(err)) => set_error.set(err),
            None => {}
        }
    };
    view! {
        <figure class="hero-figure">
            <div class="hero-window" class:paused=move || !playing.get()>
                <canvas id="hero-canvas" node_ref=canvas width=(WINDOW + CHUNK).to_string() height="48"
                    data-steps=move || steps.get().to_string()
                    on:animationend=slid
                    role="img"
                    aria-label="Live space–time map of the Kuramoto–Sivashinsky ground truth: position runs top to bottom, time to the right; blue is negative u, red positive."></canvas>
            </div>
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
