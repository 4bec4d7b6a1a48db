//! The one error type of the Burgers core: bad configurations, bad states, backend failures.

/// Everything that can go wrong when configuring or running the Burgers solvers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BurgersError {
    /// The resolution is below the supported minimum.
    #[error("resolution must be at least {min} points, got {got}")]
    ResolutionTooSmall {
        /// The smallest accepted resolution.
        min: usize,
        /// The rejected value.
        got: usize,
    },
    /// The viscosity ν is outside the accepted range.
    #[error("viscosity ν must be in {min}..={max}, got {got}")]
    BadViscosity {
        /// Smallest accepted ν.
        min: f64,
        /// Largest accepted ν.
        max: f64,
        /// The rejected value.
        got: f64,
    },
    /// The sub-step `h` is not a positive finite number.
    #[error("sub-step must be a positive finite number, got {0}")]
    BadSubstep(f64),
    /// Zero sub-steps per learned step.
    #[error("substeps must be at least 1")]
    NoSubsteps,
    /// The fine grid is not a whole multiple of the coarse grid.
    #[error("fine resolution {fine} is not a multiple of the coarse resolution {coarse}")]
    NotAMultiple {
        /// Fine points.
        fine: usize,
        /// Coarse points.
        coarse: usize,
    },
    /// The scheme has no tensor (matrix) form.
    #[error("scheme {0} has no tensor implementation (use the f64 reference)")]
    NoTensorForm(&'static str),
    /// The mode is not studied for Burgers.
    #[error("mode {0} is not available for Burgers (prediction or correction)")]
    UnsupportedMode(&'static str),
    /// Reading a tensor back from the device failed.
    #[error("reading a tensor back failed: {0}")]
    Readback(String),
    /// A refused state or index.
    #[error(transparent)]
    State(#[from] crate::types::StateError),
}

impl From<BurgersError> for crate::train::TrainError {
    fn from(err: BurgersError) -> Self {
        Self::invalid("burgers", err.to_string())
    }
}
