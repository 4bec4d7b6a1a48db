//! What a study reports after each piece of work: its [`Phase`] and a [`StudyProgress`]; the
//! one ETA rule ([`eta_secs`]) of the driver and the pool controller.

use serde::{Deserialize, Serialize};

use super::aggregate::SeedOutcome;
use super::results::{VariantId, VariantResult};

/// Estimated seconds left after `elapsed_secs` with `fraction` ∈ [0, 1] of the work done
/// (linear extrapolation); `None` until 1 % is done.
pub fn eta_secs(elapsed_secs: f64, fraction: f64) -> Option<f64> {
    (fraction > 0.01).then(|| elapsed_secs * (1.0 - fraction) / fraction)
}

/// What the study is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Generating training and test data (and the baseline).
    Data,
    /// Training a variant.
    Training,
    /// Evaluating a trained variant.
    Evaluating,
    /// All done: [`Study::results`](crate::study::run::runner::Study::results) is ready.
    Done,
}

/// One ensemble member's losses since the previous report.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberLosses {
    /// The member's variant.
    pub variant: VariantId,
    /// The member's seed.
    pub seed: u64,
    /// Its losses, for the same iterations as [`StudyProgress::new_losses`].
    pub new_losses: Vec<f32>,
}

/// A progress report after each
/// [`Study::advance`](crate::study::run::runner::Study::advance).
#[derive(Debug, Clone, PartialEq)]
pub struct StudyProgress {
    /// Current phase.
    pub phase: Phase,
    /// The current job's variant (`None` during data generation).
    pub variant: Option<VariantId>,
    /// Number of the current training job (variant × seed), from 1 (0 before the first).
    pub job: usize,
    /// Number of jobs.
    pub jobs: usize,
    /// Seed of the current job.
    pub seed: u64,
    /// Iterations done in the current job.
    pub iteration: usize,
    /// Iterations planned for the current job.
    pub iterations: usize,
    /// Losses read back since the previous report (the live curve).
    pub new_losses: Vec<f32>,
    /// An ensemble's other members' losses since the previous report, each its own live curve
    /// (empty for a training alone).
    pub member_losses: Vec<MemberLosses>,
    /// Fraction of the whole study's work done, in [0, 1] (counted in training iterations
    /// plus a fixed share per data and evaluation step).
    pub fraction: f64,
    /// A variant that just finished evaluating (all its seeds), to show its metrics live.
    pub finished_variant: Option<VariantResult>,
    /// A training that just finished (and was evaluated, unless it diverged): its variant index
    /// and outcome.
    pub finished_training: Option<(usize, SeedOutcome)>,
}

impl StudyProgress {
    /// One line for a progress display, e.g. `Training C-NOG seed 0 (4/6), iteration 120/300`.
    pub fn describe(&self) -> String {
        let variant = self.variant.map(|id| id.label()).unwrap_or_default();
        match self.phase {
            Phase::Data => "Generating data".to_string(),
            Phase::Training => format!(
                "Training {variant} seed {} ({}/{}), iteration {}/{}",
                self.seed, self.job, self.jobs, self.iteration, self.iterations
            ),
            Phase::Evaluating => format!("Evaluating {variant} seed {}", self.seed),
            Phase::Done => "Done".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::eta_secs;

    #[test]
    fn the_eta_extrapolates_after_one_percent() {
        assert_eq!(eta_secs(10.0, 0.005), None);
        assert_eq!(eta_secs(10.0, 0.25), Some(30.0));
        assert_eq!(eta_secs(10.0, 1.0), Some(0.0));
    }
}
