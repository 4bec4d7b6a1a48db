//! A study's running training as data (what `study run-cell` saves between two ticks): one
//! training's trainer state and losses ([`TrainingCheckpoint`]), or an ensemble's, which names
//! its other members ([`TrainingCheckpoint::together`]). The study makes and resumes one in
//! [`crate::study::run::resume`].

use serde::{Deserialize, Serialize};

use crate::train::checkpoint::TrainerCheckpoint;
use crate::train::TrainError;

/// One training (variant × seed) between two iterations, or an ensemble's (its first member's
/// here, the others' in `together`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingCheckpoint {
    /// Index of the variant in the study's variants.
    pub variant: usize,
    /// The training's seed.
    pub seed: u64,
    /// The trainer's state (an ensemble's: every member's, stacked).
    pub trainer: TrainerCheckpoint,
    /// Every loss read so far (index = iteration).
    pub losses: Vec<f32>,
    /// Seconds spent in training steps so far (an ensemble's: all members together).
    pub training_secs: f64,
    /// The other members of the ensemble this training is the first member of, in member
    /// order (empty: it trains alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<MemberCheckpoint>,
}

/// A member of a checkpointed ensemble after its first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberCheckpoint {
    /// Index of the variant in the study's variants.
    pub variant: usize,
    /// The member's seed.
    pub seed: u64,
    /// Every loss read so far (index = iteration).
    pub losses: Vec<f32>,
}

impl TrainingCheckpoint {
    /// `(variant, seed)` of every training it holds, the first member's first.
    pub fn trainings(&self) -> Vec<(usize, u64)> {
        std::iter::once((self.variant, self.seed))
            .chain(self.together.iter().map(|m| (m.variant, m.seed)))
            .collect()
    }

    /// Whether it holds training `(variant, seed)`.
    pub fn holds(&self, variant: usize, seed: u64) -> bool {
        self.trainings().contains(&(variant, seed))
    }

    /// An error unless every member holds one loss per iteration done.
    pub fn check_losses(&self) -> Result<(), TrainError> {
        let iterations = self.trainer.iteration;
        let counts =
            std::iter::once(self.losses.len()).chain(self.together.iter().map(|m| m.losses.len()));
        for count in counts {
            if count != iterations {
                return Err(TrainError::Checkpoint(format!(
                    "it holds {count} losses for {iterations} iterations"
                )));
            }
        }
        Ok(())
    }
}
