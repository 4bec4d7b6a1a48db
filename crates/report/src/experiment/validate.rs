//! Per-field validation of an experiment (every applicable knob against the limits of its
//! target, in [`KNOBS`] order, then the browser's memory ceiling) and the workload shown before
//! a run ([`unroll_core::study::cells::cost`]).

use super::check;
use super::limits::{Target, BROWSER_MEMORY_LIMIT_BYTES};
use super::{Experiment, Knob, KNOBS};
use crate::units::format_bytes;
use unroll_core::study::cells::cost::{cost, Cost};

/// A problem with one field: `(field, message)`; `field` is the knob's URL key (or
/// `workload`).
pub type FieldError = (&'static str, String);

/// The field of the memory ceiling's message.
pub const WORKLOAD: &str = "workload";

impl Experiment {
    /// Every applicable knob's problem, in [`KNOBS`] order (empty when valid); the depth is
    /// also checked against the architecture, the architectures against the system.
    pub fn knob_errors(&self) -> Vec<FieldError> {
        KNOBS
            .into_iter()
            .filter(|knob| knob.applies(self))
            .filter_map(|knob| {
                check::check(knob, &knob.read(self), self.target, self.system)
                    .err()
                    .or_else(|| {
                        (knob == Knob::Depth)
                            .then(|| self.depth_problem())
                            .flatten()
                    })
                    .or_else(|| self.architecture_problem(knob))
                    .map(|problem| (knob.key(), problem.for_form(knob)))
            })
            .collect()
    }

    /// Every field's problem (empty when valid), `(URL key, message)` in [`KNOBS`] order; the
    /// last may be `workload` when the study as a whole is refused (a combination of knobs) or
    /// the estimated memory exceeds the browser's ceiling.
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errors = self.knob_errors();
        if errors.is_empty() {
            // What the runner would refuse (a combination no single knob shows).
            if let Err(err) = self.study_config().validate(self.system.description()) {
                errors.push((WORKLOAD, format!("this study cannot run: {err}")));
                return errors;
            }
        }
        if errors.is_empty() && self.target == Target::Browser {
            let memory = unroll_core::study::cells::cost::memory_bytes(
                &self.study_config(),
                self.system.description(),
            );
            if memory > BROWSER_MEMORY_LIMIT_BYTES {
                errors.push((
                    WORKLOAD,
                    format!(
                        "estimated memory {} exceeds the browser limit of {}: use a smaller \
                         network, horizon, warm-up or rollout (or run it from the CLI)",
                        format_bytes(memory),
                        format_bytes(BROWSER_MEMORY_LIMIT_BYTES)
                    ),
                ));
            }
        }
        errors
    }

    /// The message of `field`, empty when it is valid.
    pub fn error_of(&self, field: &str) -> String {
        self.validate()
            .into_iter()
            .find(|(f, _)| *f == field)
            .map(|(_, message)| message)
            .unwrap_or_default()
    }

    /// Trainings, iterations, counted FLOPs and memory of the study; `None` while a knob is
    /// invalid.
    pub fn workload(&self) -> Option<Cost> {
        self.knob_errors()
            .is_empty()
            .then(|| cost(&self.study_config(), self.system.description()))
    }
}
