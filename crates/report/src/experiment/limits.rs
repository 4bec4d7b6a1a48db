//! The one limits table: what each knob accepts natively (the CLI: the numerics' own bounds)
//! and in the browser (tighter where wasm memory or a page's patience demands), and the checks
//! that use it. The system's parameter range comes from its
//! [`unroll_core::system::Parameter`].

use super::knob::Knob;
use unroll_core::metrics::ERROR_HORIZON;
use unroll_core::nets::{CHANNELS_RANGE, DEPTH_RANGE};
use unroll_core::system::config::{MAX_ROLLOUT, MAX_TRAININGS};
use unroll_core::train::config::MAX_UNROLL;

/// Where an experiment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The page (CPU backend in wasm or WebGPU): tighter limits, a memory ceiling.
    Browser,
    /// The native CLI: the numerics' own limits.
    Native,
}

/// Whole-number knobs: `(knob, smallest, largest in the browser, largest natively)`.
pub const COUNT_LIMITS: [(Knob, usize, usize, usize); 8] = [
    (Knob::Seeds, 1, 5, MAX_TRAININGS),
    (Knob::Iterations, 1, 20_000, 100_000_000),
    (Knob::Rollout, ERROR_HORIZON, MAX_ROLLOUT, MAX_ROLLOUT),
    (Knob::Channels, 1, 64, *CHANNELS_RANGE.end()),
    (Knob::Depth, 0, 16, *DEPTH_RANGE.end()),
    (Knob::Horizon, 1, 32, MAX_UNROLL),
    (Knob::Warmup, 0, 32, MAX_UNROLL - 1),
    (Knob::Detach, 0, 32, MAX_UNROLL),
];

/// Most training parameter values (domain sizes): `(browser, native)`.
pub const MAX_SCALES: (usize, usize) = (8, 16);

/// Estimated memory above which the browser refuses to run (1.5 GiB); natively there is no
/// ceiling (the estimate is printed before the study runs).
pub const BROWSER_MEMORY_LIMIT_BYTES: f64 = 1.5 * 1024.0 * 1024.0 * 1024.0;

/// The largest preset budget (iterations per variant) the page runs whole by default: KS's
/// quick preset, 82 s on one worker of this project's 2-core machine.
pub const BROWSER_WHOLE_BUDGET: usize = 900;
/// Default iterations per variant in the browser for a preset whose budget is larger
/// (Kolmogorov's curricula).
pub const BROWSER_ITERATIONS: usize = 300;

/// Default iterations per variant in the browser for a preset of `budget` iterations: all of
/// them up to [`BROWSER_WHOLE_BUDGET`], else [`BROWSER_ITERATIONS`].
pub fn browser_iterations(budget: usize) -> usize {
    if budget <= BROWSER_WHOLE_BUDGET {
        budget
    } else {
        BROWSER_ITERATIONS
    }
}
/// Default seeds: `(browser, native)`.
pub const DEFAULT_SEEDS: (usize, usize) = (1, 3);

impl Target {
    /// The browser's or the native value of a pair.
    pub(super) fn pick<T>(self, (browser, native): (T, T)) -> T {
        match self {
            Target::Browser => browser,
            Target::Native => native,
        }
    }
}

/// `(smallest, largest)` of a whole-number knob at `target`.
pub fn count_range(knob: Knob, target: Target) -> Option<(usize, usize)> {
    COUNT_LIMITS
        .iter()
        .find(|(k, ..)| *k == knob)
        .map(|&(_, low, browser, native)| (low, target.pick((browser, native))))
}

/// Largest accepted seeds at `target`.
pub fn max_seeds(target: Target) -> usize {
    count_range(Knob::Seeds, target).map_or(1, |(_, high)| high)
}

/// The accepted values in words, for the URL's messages (`1..=64`, `[0, 1)`, `(0, 1]`).
pub fn range_text(knob: Knob, target: Target) -> String {
    match (knob, count_range(knob, target)) {
        (_, Some((low, high))) => format!("{low}..={high}"),
        (Knob::Alpha, _) => "[0, 1)".into(),
        (Knob::LearningRate, _) => "(0, 1]".into(),
        _ => String::new(),
    }
}
