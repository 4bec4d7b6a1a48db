//! The first screen's live picture: a 1-D system's ground truth (the default system, KS: ETRK2,
//! N = 48, L = 8, the first training IC after the study's 200 warm-up steps) advanced a step at a
//! time and kept as a window of the latest frames, drawn as a space–time bitmap with time running
//! to the right.

use std::collections::VecDeque;

use super::colormap;
use unroll_core::system::playground::{Playground, StepFn};

/// Colour scale of a picture before its state has developed: KS at L = 8 stays within ±3.
const SCALE: f64 = 3.0;

/// A window of the latest `width` frames of a running 1-D solution.
pub struct LiveField {
    step: StepFn,
    frames: VecDeque<Vec<f64>>,
    /// Each frame's colours, made once when the frame is (a redraw copies them).
    columns: VecDeque<Vec<[u8; 3]>>,
    width: usize,
    steps: usize,
    /// The colour map spans ±this ([`colour_scale`] of the developed state).
    scale: f64,
    /// Steps still to run before the state is the developed one (then the window starts).
    warmup: usize,
}

impl std::fmt::Debug for LiveField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveField")
            .field("width", &self.width)
            .field("steps", &self.steps)
            .finish()
    }
}

impl LiveField {
    /// The developed state of `playground`'s system at parameter 1 (KS: the study's first
    /// training trajectory after its warm-up), with a full window of `width` frames already
    /// computed.
    pub fn new(playground: &dyn Playground, width: usize) -> Result<Self, String> {
        let mut field = Self::start(playground, width)?;
        field.fill(usize::MAX);
        Ok(field)
    }

    /// [`Self::new`]'s field before its warm-up: [`Self::fill`] runs the warm-up steps and the
    /// first window (a caller that must not block for long fills it in slices).
    pub fn start(playground: &dyn Playground, width: usize) -> Result<Self, String> {
        let (start, warmup) = playground.undeveloped_state(1.0)?;
        let scale = if warmup == 0 {
            colour_scale(&start)
        } else {
            SCALE
        };
        Ok(Self {
            step: playground.truth_step(1.0)?,
            columns: VecDeque::from([colours(&start, scale)]),
            frames: VecDeque::from([start]),
            width: width.max(2),
            steps: 0,
            scale,
            warmup,
        })
    }

    /// Runs up to `steps` more steps of the warm-up, then of the first window (neither counted
    /// in [`Self::steps`]); true once the window is full.
    pub fn fill(&mut self, steps: usize) -> bool {
        let warmup = steps.min(self.warmup);
        if warmup > 0 {
            let mut state = self.frames.pop_back().unwrap_or_default();
            for _ in 0..warmup {
                state = (self.step)(&state);
            }
            self.warmup -= warmup;
            if self.warmup == 0 {
                self.scale = colour_scale(&state);
            }
            self.columns = VecDeque::from([colours(&state, self.scale)]);
            self.frames = VecDeque::from([state]);
        }
        let missing = self.width - self.frames.len();
        self.advance((steps - warmup).min(missing));
        self.steps = 0;
        self.warmup == 0 && self.frames.len() == self.width
    }

    /// Advances `steps` learned steps (Δt = 1 each), dropping the oldest frames. A state that
    /// stops being finite restarts from the training IC's warm-up end (never happens at L = 8).
    pub fn advance(&mut self, steps: usize) {
        for _ in 0..steps {
            let last = self.frames.back().cloned().unwrap_or_default();
            let next = (self.step)(&last);
            let next = if next.iter().all(|v| v.is_finite()) {
                next
            } else {
                self.frames.front().cloned().unwrap_or_default()
            };
            self.columns.push_back(colours(&next, self.scale));
            self.frames.push_back(next);
            while self.frames.len() > self.width {
                self.frames.pop_front();
                self.columns.pop_front();
            }
            self.steps += 1;
        }
    }

    /// Steps advanced since [`LiveField::new`].
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// `(width, height)` of [`LiveField::rgb`]: frames × grid points.
    pub fn size(&self) -> (u32, u32) {
        let n = self.frames.front().map_or(0, Vec::len);
        (self.width as u32, n as u32)
    }

    /// The window as RGB bytes (row-major): time left to right (newest at the right edge),
    /// grid point top to bottom, on the diverging map over ±[`Self::scale`].
    pub fn rgb(&self) -> Vec<u8> {
        self.newest_rgb(self.width)
    }

    /// The newest `count` frames of the window as RGB bytes, `count` wide (row-major, as
    /// [`Self::rgb`]): the right edge of the picture.
    fn newest_rgb(&self, count: usize) -> Vec<u8> {
        let (_, h) = self.size();
        let count = count.min(self.width);
        let mut out = Vec::with_capacity(3 * count * h as usize);
        let offset = self.width - self.columns.len();
        let blank = colormap::diverging(0.0, self.scale);
        for j in 0..h as usize {
            for t in self.width - count..self.width {
                let colour = t
                    .checked_sub(offset)
                    .and_then(|k| self.columns.get(k))
                    .map_or(blank, |c| c[j]);
                out.extend_from_slice(&colour);
            }
        }
        out
    }

    /// The colour map's span: the picture shows `-scale..=scale`.
    pub fn scale(&self) -> f64 {
        self.scale
    }
}

/// The span of a picture whose developed state is `state`: its largest |u| rounded up to 1,
/// 1.5, 2, 3, 4, 5 or 7.5 times a power of ten (KS at L = 8: 3; a larger value later only
/// saturates its colour).
fn colour_scale(state: &[f64]) -> f64 {
    let largest = state.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let wanted = largest.max(1e-9);
    let decade = 10f64.powf(wanted.log10().floor());
    [1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.5, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&s| s >= wanted * (1.0 - 1e-12))
        .unwrap_or(10.0 * decade)
}

/// A frame's colours on the diverging map over ±`scale`.
fn colours(frame: &[f64], scale: f64) -> Vec<[u8; 3]> {
    frame
        .iter()
        .map(|&v| colormap::diverging(v, scale))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colour_scale_is_a_round_number_above_the_largest_value() {
        assert_eq!(colour_scale(&[0.5, -2.3, 1.0]), 3.0);
        assert_eq!(colour_scale(&[0.7]), 0.75);
        assert_eq!(colour_scale(&[-8.1]), 10.0);
        assert_eq!(colour_scale(&[0.0012]), 0.0015);
        assert_eq!(colour_scale(&[2.0]), 2.0);
        assert!(colour_scale(&[0.0]) > 0.0);
    }
    use unroll_core::system::System;

    #[test]
    fn the_window_moves_and_stays_finite() {
        let ks = System::Ks
            .description()
            .playground()
            .expect("KS has a playground");
        let mut field = LiveField::new(ks, 64).expect("field");
        assert_eq!(field.size(), (64, 48));
        // The window starts at the developed state: its warm-up run by `fill` is the
        // playground's own, bit for bit.
        assert_eq!(field.frames[0], ks.developed_state(1.0).expect("developed"));
        // Filled in slices, the window is the one filled at once.
        let mut sliced = LiveField::start(ks, 64).expect("field");
        let warmup = sliced.warmup;
        assert!(warmup > 0, "KS warms up step by step");
        assert!(!sliced.fill(warmup + 20), "the warm-up and 20 of 63 frames");
        assert_eq!(sliced.frames.len(), 21);
        while !sliced.fill(20) {}
        assert_eq!(sliced.steps(), 0);
        assert_eq!(sliced.frames, field.frames);
        let before = field.rgb();
        assert_eq!(before.len(), 3 * 64 * 48);
        field.advance(5);
        assert_eq!(field.steps(), 5);
        assert_ne!(field.rgb(), before, "the picture changes as it advances");
        // Each pixel is its frame's value on the map (the newest frame at the right edge).
        let rgb = field.rgb();
        let newest = field.frames.back().expect("frames");
        for (j, &v) in newest.iter().enumerate() {
            let at = 3 * (j * 64 + 63);
            assert_eq!(rgb[at..at + 3], colormap::diverging(v, field.scale()));
        }
        assert!(field
            .frames
            .iter()
            .flatten()
            .all(|v| v.is_finite() && v.abs() < 10.0));
        assert_eq!(field.scale(), 3.0, "KS at L = 8 spans ±3");
        // The newest columns are the picture's right edge: the picture before, moved left by 3,
        // with the newest 3 columns at the right edge, is the picture after.
        let before = field.rgb();
        field.advance(3);
        let newest = field.newest_rgb(3);
        let scrolled: Vec<u8> = (0..48)
            .flat_map(|j| {
                let row = &before[3 * 64 * j..3 * 64 * (j + 1)];
                let new = &newest[3 * 3 * j..3 * 3 * (j + 1)];
                row[3 * 3..].iter().chain(new).copied().collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(scrolled, field.rgb());
    }
}
