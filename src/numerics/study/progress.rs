//! What a study reports after each piece of work: its [`Phase`] and a [`StudyProgress`].

use serde::{Deserialize, Serialize};

use super::results::{VariantId, VariantResult};

/// What the study is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Generating training and test data (and the baseline).
    Data,
    /// Training a variant.
    Training,
    /// Evaluating a trained variant.
    Evaluating,
    /// All done: [`Study::results`] is ready.
    Done,
}

/// A progress report after each [`Study::advance`].
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
    /// Fraction of the whole study's work done, in [0, 1] (counted in training iterations
    /// plus a fixed share per data and evaluation step).
    pub fraction: f64,
    /// A variant that just finished evaluating (all its seeds), to show its metrics live.
    pub finished_variant: Option<VariantResult>,
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
