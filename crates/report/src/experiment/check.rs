//! A knob's value checked against the limits of its target and system: ranges, repeated
//! entries, solver settings, learning rates and the scales' parameter range.

use super::knob::{Knob, Value};
use super::limits::{count_range, Target, MAX_SCALES};
use super::problem::Problem;
use unroll_core::system::System;
use unroll_core::types::SolverSetup;

impl Knob {
    /// Parses and checks `text` against the limits of `target` for `system`, the system the
    /// URL or command line selects (its parameter's range applies to the scales).
    pub fn parse_checked(
        self,
        text: &str,
        target: Target,
        system: System,
    ) -> Result<Value, Problem> {
        let value = self.parse(text)?;
        check(self, &value, target, system)?;
        Ok(value)
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
            unroll_core::train::TrainError::Invalid { message, .. } => Problem::Invalid(message),
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
        .preset(unroll_core::system::config::Preset::Quick, 1)
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
