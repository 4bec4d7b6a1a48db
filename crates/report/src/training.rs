//! `train.json`: what `unroll-lab train` writes next to the weights.

use serde::{Deserialize, Serialize};

use unroll_core::train::run::TrainOutcome;

/// The schema tag of [`TrainReport`].
pub const TRAIN_SCHEMA: &str = "unroll-lab/train@1";

/// One training run: the full config, the loss history and timings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainReport {
    /// [`TRAIN_SCHEMA`].
    pub schema: String,
    /// Trainable parameters of the network.
    pub parameters: usize,
    /// Seconds spent generating the training data (f64 reference).
    pub data_generation_secs: f64,
    /// Config, losses, iterations/s, wall time.
    #[serde(flatten)]
    pub outcome: TrainOutcome,
}

impl TrainReport {
    /// Wraps an outcome.
    pub fn new(outcome: TrainOutcome, parameters: usize, data_generation_secs: f64) -> Self {
        Self {
            schema: TRAIN_SCHEMA.to_string(),
            parameters,
            data_generation_secs,
            outcome,
        }
    }
}
