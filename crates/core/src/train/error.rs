//! Training errors: bad configurations (shown next to the field in the UI, exit code 2 in the CLI)
//! and failures while training.

use crate::nets::NetError;
use crate::readback::ReadbackError;

/// Why a training configuration is rejected or a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A field is out of range; `field` names it as in the JSON config.
    #[error("{field}: {message}")]
    Invalid {
        /// The config field, e.g. `"horizon"`.
        field: &'static str,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The system's solver configuration is invalid (its error, in words).
    #[error("solver: {0}")]
    Solver(String),
    /// The network configuration is invalid.
    #[error("network: {0}")]
    Net(#[from] NetError),
    /// Reading a value back from the device failed.
    #[error(transparent)]
    Readback(#[from] ReadbackError),
    /// A checkpoint could not be written or does not fit this training.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// The trainer was stepped again after a step failed (its network was lost with it).
    #[error("the trainer was used after a failed step")]
    Poisoned,
}

impl TrainError {
    /// An [`TrainError::Invalid`] for `field`.
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid {
            field,
            message: message.into(),
        }
    }
}
