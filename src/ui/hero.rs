//! The first screen's live picture: a 1-D system's ground truth computed in the page
//! ([`LiveField`]; KS, or the reader's equation when the experiment is one) and drawn as a
//! scrolling space–time map, with a pause button (moving content
//! must be stoppable; it starts paused when the reader prefers reduced motion). `data-steps` on
//! the picture counts the steps that have scrolled in.
//!
//! The compositor scrolls it, so no script runs while it moves: the picture is a strip of
//! [`TILES`] small canvases of [`TILE`] steps each, side by side, and one long
//! [`Slide`] moves the strip left at [`STEPS_PER_SEC`]. Four times a second the page asks the
//! slide where it is, draws the tiles that will scroll in next (up to [`AHEAD`] tiles beyond
//! the window's left edge) and moves the tiles that have scrolled out to the right end of the
//! strip. Every tile is drawn and placed seconds before it shows and moved seconds after it
//! left, so nothing the page does has to land in a particular frame. The slide pauses while
//! the tab is hidden; after [`SLIDE_SECS`] it starts again from the left.

use leptos::html::Div;
use leptos::prelude::*;
use unroll_core::system::System;

use unroll_browser::canvas::RgbCanvas;
use unroll_browser::slide::Slide;
use unroll_browser::timer::{next_frame, sleep};
use unroll_browser::{document_hidden, prefers_reduced_motion};
use unroll_report::charts::LiveField;
use unroll_report::experiment::equation_form::EquationForm;

/// Steps across the visible window.
const WINDOW: usize = 240;
/// Steps per tile (one canvas, one second of the scroll).
const TILE: usize = 25;
/// Tiles in the strip: the window's 9.6, one partly out at each edge, and the ones drawn ahead.
const TILES: usize = 16;
/// Tiles kept drawn from the one at the window's left edge on: the window's 10 and 4.4 seconds
/// of scroll ahead of its right edge.
const AHEAD: usize = 14;
/// Solver steps scrolled in per second.
const STEPS_PER_SEC: f64 = 25.0;
/// The slide's length: an hour, after which it restarts from the left (the one moment the
/// picture jumps).
const SLIDE_SECS: f64 = 3600.0;
/// Milliseconds between two looks at the slide.
const TICK_MS: i32 = 250;

/// `steps` as a percentage of the window's width (the strip is as wide).
fn percent(steps: usize) -> f64 {
    100.0 * steps as f64 / WINDOW as f64
}

/// The style that puts tile `index` at its place in the strip: moved by `index` tile widths (a
/// transform, so placing a tile moves nothing else and is no layout shift; a tile is 1 px wider
/// than its steps, `static/style.css`).
fn place(index: usize) -> String {
    format!("transform: translateX(calc({index} * (100% - 1px)))")
}

/// The running picture: the solution, the strip's canvases and which tile comes next.
struct Scroller {
    field: LiveField,
    tiles: Vec<RgbCanvas>,
    slide: Slide,
    /// Index (from the slide's start) of the next tile to draw.
    next: usize,
    /// While paused: the steps scrolled in when the pause was asked for (a pause takes effect
    /// at the next frame, so the slide may still move a little after it).
    held: Option<usize>,
}

impl Scroller {
    /// The picture of `field` on `tiles` (none drawn yet) moved by `slide`, which it pauses
    /// until the first [`Self::tick`].
    fn start(field: LiveField, tiles: Vec<RgbCanvas>, slide: Slide) -> Self {
        slide.pause();
        Self {
            field,
            tiles,
            slide,
            next: 0,
            held: None,
        }
    }

    /// Draws the next tile if it is due (at most [`AHEAD`] tiles beyond the one at the window's
    /// left edge); true if it drew one.
    fn draw_due(&mut self) -> Result<bool, String> {
        let first = (self.scrolled() / TILE as f64).floor() as usize;
        // Tiles that scrolled by unseen (a stalled page) are skipped, not drawn.
        self.next = self.next.max(first);
        if self.next > first + AHEAD {
            return Ok(false);
        }
        self.draw_tile()?;
        Ok(true)
    }

    /// Draws the next tile: the field [`TILE`] steps on, its window on the tile's canvas,
    /// placed at its position in the strip.
    fn draw_tile(&mut self) -> Result<(), String> {
        self.field.advance(TILE);
        let tile = &self.tiles[self.next % TILES];
        let (w, h) = self.field.size();
        tile.put(w, h, &self.field.rgb())?;
        tile.set_style(&place(self.next));
        self.next += 1;
        Ok(())
    }

    /// Where the slide is: steps scrolled in since it started.
    fn scrolled(&self) -> f64 {
        self.slide.position_ms() / 1000.0 * STEPS_PER_SEC
    }

    /// Plays or pauses the slide (paused while `hidden` whatever `playing` says), draws the
    /// tiles due and restarts the slide at its end; the steps scrolled in (while paused: when
    /// the pause was asked for).
    fn tick(&mut self, playing: bool, hidden: bool) -> Result<usize, String> {
        if playing && !hidden {
            self.slide.play();
            self.held = None;
        } else {
            self.slide.pause();
            self.held.get_or_insert(self.scrolled() as usize);
        }
        if self.slide.position_ms() >= SLIDE_SECS * 1000.0 {
            self.slide.seek(0.0);
            self.next = 0;
        }
        while self.draw_due()? {}
        Ok(self.held.unwrap_or(self.scrolled() as usize))
    }
}

/// `system`'s developed state as a [`LiveField`] of [`TILE`]-step tiles, its warm-up in
/// slices, each in a task of its own; `None` (the error said) when it cannot start.
async fn developed_field(system: System, error: WriteSignal<String>) -> Option<LiveField> {
    let Some(playground) = system.description().playground() else {
        error.set(format!("{} has no live picture.", system.title()));
        return None;
    };
    let mut field = match LiveField::start(playground, TILE) {
        Ok(field) => field,
        Err(err) => {
            error.set(format!("The live solution could not start: {err}"));
            return None;
        }
    };
    while !field.fill(TILE) {
        sleep(0).await;
    }
    Some(field)
}

/// Sets the picture up in tasks of their own (the solver, then the first window and the tiles
/// ahead, one tile per task), then `tick`s until it is gone or fails.
async fn animate(
    system: System,
    strip: NodeRef<Div>,
    scroller: StoredValue<Option<Scroller>, LocalStorage>,
    error: WriteSignal<String>,
    tick: impl Fn() -> bool,
) {
    sleep(0).await;
    let Some(field) = developed_field(system, error).await else {
        return;
    };
    let element = loop {
        match strip.try_get_untracked() {
            None => return,
            Some(Some(element)) => break element,
            Some(None) => next_frame().await,
        }
    };
    let fail = move |err: String| {
        let _ = error.try_set(format!("The live picture could not be drawn: {err}"));
    };
    let Some(tiles) = RgbCanvas::append_to(&element, "hero-tile", TILES) else {
        return fail("no canvases".into());
    };
    let slide_length = percent(TILE) * SLIDE_SECS;
    let Some(slide) = Slide::start(&element, slide_length, SLIDE_SECS * 1000.0) else {
        return fail("this browser cannot animate it (no Web Animations)".into());
    };
    let _ = scroller.try_set_value(Some(Scroller::start(field, tiles, slide)));
    loop {
        match scroller.try_update_value(|s| s.as_mut().map(Scroller::draw_due)) {
            Some(Some(Ok(true))) => sleep(0).await,
            Some(Some(Ok(false))) => break,
            Some(Some(Err(err))) => return fail(err),
            _ => return,
        }
    }
    while tick() {
        sleep(TICK_MS).await;
    }
}

/// The system the picture shows for an experiment on `system`: the reader's equation when it
/// is one, otherwise the default system (KS).
pub fn hero_system(system: System) -> System {
    if system.equation().is_some() {
        system
    } else {
        System::default()
    }
}

/// The picture's caption for `system`: its heading, the sentence after it and the picture's
/// accessible label.
fn caption(system: System) -> (String, String, String) {
    let reading =
        "Position runs down, time to the right (the last 240 steps); blue u < 0, red u > 0.";
    match system.equation() {
        Some(equation) => {
            let written = EquationForm::of(equation).written().unwrap_or_default();
            (
                "Your equation, live".into(),
                format!(
                    " — {written}, computed in this page with its ground-truth solver ({} points, L = {}). {reading} ",
                    equation.points, equation.length
                ),
                format!("Live space–time map of your equation's ground truth, {written}: position runs top to bottom, time to the right; blue is negative u, red positive."),
            )
        }
        None => (
            "Kuramoto–Sivashinsky, live".into(),
            format!(" — uₜ = −u uₓ − uₓₓ − uₓₓₓₓ, computed in this page with the study's ground-truth solver (ETRK2, 48 points, L = 8). {reading} "),
            "Live space–time map of the Kuramoto–Sivashinsky ground truth: position runs top to bottom, time to the right; blue is negative u, red positive.".into(),
        ),
    }
}

/// The live space–time map of `system`'s ground truth.
#[component]
pub fn HeroAnimation(system: System) -> impl IntoView {
    let strip = NodeRef::<Div>::new();
    let (playing, set_playing) = signal(!prefers_reduced_motion());
    let (steps, set_steps) = signal(0usize);
    let (error, set_error) = signal(String::new());
    let scroller = StoredValue::new_local(None::<Scroller>);
    // Plays or pauses, draws what is due and shows the steps; false once the picture is gone
    // or failed.
    let tick = move || {
        let Some(play) = playing.try_get_untracked() else {
            return false;
        };
        let ticked = scroller
            .try_update_value(|s| s.as_mut().map(|s| s.tick(play, document_hidden())))
            .flatten();
        match ticked {
            Some(Ok(shown)) => {
                if steps.try_get_untracked() != Some(shown) {
                    let _ = set_steps.try_set(shown);
                }
                true
            }
            Some(Err(err)) => {
                let _ = set_error.try_set(err);
                false
            }
            None => false,
        }
    };
    leptos::task::spawn_local(animate(system, strip, scroller, set_error, tick));
    let (heading, sentence, label) = caption(system);
    view! {
        <figure class="hero-figure">
            <div class="hero-window" id="hero-picture" data-steps=move || steps.get().to_string()
                data-system=system.name() role="img" aria-label=label>
                <div class="hero-strip" node_ref=strip></div>
            </div>
            <figcaption>
                <strong>{heading}</strong>
                {sentence}
                <button id="hero-toggle" type="button" aria-pressed=move || (!playing.get()).to_string()
                    on:click=move |_| {
                        set_playing.update(|p| *p = !*p);
                        tick();
                    }>
                    {move || if playing.get() { "Pause animation" } else { "Play animation" }}
                </button>
                <span class="chart-error" role="alert">{error}</span>
            </figcaption>
        </figure>
    }
}
