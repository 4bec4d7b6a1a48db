//! The one error type of the KS core: bad configurations, bad user states, backend failures.

/// Everything that can go wrong when configuring or running the KS solvers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum KsError {
    /// The resolution is below the supported minimum.
    #[error("resolution must be at least {min} points, got {got}")]
    ResolutionTooSmall {
        /// The smallest accepted resolution.
        min: usize,
        /// The rejected value.
        got: usize,
    },
    /// The domain parameter `L` is not a positive finite number.
    #[error("domain size must be a positive finite number, got {0}")]
    BadDomainSize(f64),
    /// The sub-step `h` is not a positive finite number.
    #[error("sub-step must be a positive finite number, got {0}")]
    BadSubstep(f64),
    /// Zero sub-steps per learned step.
    #[error("substeps must be at least 1")]
    NoSubsteps,
    /// A training-IC index outside `0..6`.
    #[error("training initial condition index must be in 0..{count}, got {got}")]
    BadTrainingIndex {
        /// The number of training ICs.
        count: usize,
        /// The rejected index.
        got: usize,
    },
    /// The scheme has no tensor (matrix) form.
    #[error("scheme {0} has no tensor implementation (use the f64 reference)")]
    NoTensorForm(&'static str),
    /// Reading a tensor back from the device failed.
    #[error("reading a tensor back failed: {0}")]
    Readback(String),
    /// A refused state or index.
    #[error(transparent)]
    State(#[from] crate::types::StateError),
}

impl From<KsError> for crate::train::TrainError {
    fn from(err: KsError) -> Self {
        Self::Solver(err.to_string())
    }
}
