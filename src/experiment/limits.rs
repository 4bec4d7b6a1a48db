//! The one limits table: what each knob accepts natively (the CLI: the numerics' own bounds)
//! and in the browser (tighter where wasm memory or a page's patience demands), and the checks
//! that use it. The system's parameter range comes from its
//! [`crate::numerics::system::Parameter`].

use super::knob::{Knob, Value};
use super::problem::Problem;
use crate::numerics::metrics::ERROR_HORIZON;
use crate::numerics::nets::{CHANNELS_RANGE, DEPTH_RANGE};
use crate::numerics::study::contract::config::{MAX_ROLLOUT, MAX_TRAININGS};
use crate::numerics::system::System;
use crate::numerics::train::config::MAX_UNROLL;
use crate::numerics::types::SolverSetup;

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
    fn pick<T>(self, (browser, native): (T, T)) -> T {
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

/// Every repeated entry of `items` is a problem.
fn no_repeats<T: PartialEq + ToString>(items: &[T]) -> Result<(), Problem> {
    match items
        .iter()
        .enumerate()
        .find(|(i, x)| items[..*i].contains(x))
    {
        Some((_, x)) => Err(Problem::Repeated(x.to_string())),
        None => Ok(()),
    }
}

/// Checks `value` of `knob` against the limits of `target` (`system` gives the parameter
/// range of the scales).
pub fn check(knob: Knob, value: &Value, target: Target, system: System) -> Result<(), Problem> {
    match value {
        Value::Count(v) => match count_range(knob, target) {
            Some((low, high)) if !(low..=high).contains(v) => Err(Problem::Range(format!(
                "between {low} and {high} {}",
                knob.unit()
            ))),
            _ => Ok(()),
        },
        Value::Real(a) if knob == Knob::Alpha => {
            if a.is_finite() && (0.0..1.0).contains(a) {
                Ok(())
            } else {
                Err(Problem::Range(
                    "in [0, 1) (at α = 1 the network term vanishes)".into(),
                ))
            }
        }
        Value::Real(lr) => check_rate(*lr),
        Value::Reals(rates) if knob == Knob::LearningRate => check_rates(rates, system),
        Value::Reals(scales) => check_scales(scales, target, system),
        Value::Modes(modes) if modes.is_empty() => Err(Problem::Empty),
        Value::Modalities(modalities) if modalities.is_empty() => Err(Problem::Empty),
        Value::Architectures(architectures) if architectures.is_empty() => Err(Problem::Empty),
        Value::Modes(modes) => no_repeats(modes),
        Value::Modalities(modalities) => no_repeats(modalities),
        Value::Architectures(architectures) => no_repeats(architectures),
        Value::Solver(setup) => check_solver(setup, system),
        Value::Architecture(_) | Value::System(_) => Ok(()),
    }
}

/// A set-up `system` offers (the empty name: its default).
fn check_solver(setup: &SolverSetup, system: System) -> Result<(), Problem> {
    system
        .description()
        .solver_setup(setup)
        .map(|_| ())
        .map_err(|err| match err {
            crate::numerics::train::TrainError::Invalid { message, .. } => {
                Problem::Invalid(message)
            }
            other => Problem::Invalid(other.to_string()),
        })
}

/// A learning rate in (0, 1].
fn check_rate(lr: f64) -> Result<(), Problem> {
    if lr.is_finite() && lr > 0.0 && lr <= 1.0 {
        Ok(())
    } else {
        Err(Problem::Range("in (0, 1], e.g. 0.001".into()))
    }
}

/// One learning rate, or one per stage of `system`'s curriculum, each in (0, 1].
fn check_rates(rates: &[f64], system: System) -> Result<(), Problem> {
    if rates.is_empty() {
        return Err(Problem::Empty);
    }
    rates.iter().try_for_each(|&lr| check_rate(lr))?;
    let stages = system
        .description()
        .preset(crate::numerics::study::contract::config::Preset::Quick, 1)
        .base
        .curriculum
        .map_or(1, |c| c.horizons.len());
    match rates.len() {
        1 => Ok(()),
        n if n == stages => Ok(()),
        n if stages == 1 => Err(Problem::Invalid(format!(
            "{n} rates: {} trains one stage, give one rate",
            system.description().title()
        ))),
        n => Err(Problem::Invalid(format!(
            "{n} rates: give one for all stages, or one per curriculum stage ({stages})"
        ))),
    }
}

/// 1 to [`MAX_SCALES`] distinct values in the system parameter's range at `target`, worded
/// with the parameter's name (`domain scale 9 is outside 0.5..=2`).
fn check_scales(scales: &[f64], target: Target, system: System) -> Result<(), Problem> {
    let physics = system.description();
    let parameter = physics.parameter();
    let words = physics.facts().parameter;
    let (low, high) = target.pick((parameter.browser, parameter.native));
    let most = target.pick(MAX_SCALES);
    if scales.is_empty() {
        return Err(Problem::Invalid(format!(
            "at least one {}",
            words.training_unit
        )));
    }
    if scales.len() > most {
        return Err(Problem::Invalid(format!(
            "at most {most} {}s",
            words.training_unit
        )));
    }
    if let Some(bad) = scales
        .iter()
        .find(|s| !(s.is_finite() && (low..=high).contains(*s)))
    {
        return Err(Problem::Invalid(format!(
            "{} {bad} is outside {low}..={high}",
            words.name
        )));
    }
    no_repeats(scales)
}
