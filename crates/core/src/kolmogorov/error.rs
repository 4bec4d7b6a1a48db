//! The one error type of the Kolmogorov-flow core: bad configurations, bad user states, backend
//! failures.

/// Everything that can go wrong when configuring or running the Kolmogorov solvers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum KolmogorovError {
    /// The resolution is outside the supported range or odd.
    #[error("resolution must be an even number of points in {min}..={max}, got {got}")]
    BadResolution {
        /// The smallest accepted resolution.
        min: usize,
        /// The largest accepted resolution.
        max: usize,
        /// The rejected value.
        got: usize,
    },
    /// The Reynolds number is not a positive finite number.
    #[error("Reynolds number must be a positive finite number, got {0}")]
    BadReynolds(f64),
    /// The time step is not a positive finite number.
    #[error("time step must be a positive finite number, got {0}")]
    BadTimeStep(f64),
    /// The forcing amplitude is not finite.
    #[error("forcing amplitude must be finite, got {0}")]
    BadForcing(f64),
    /// The spectral solver's 2/3 rule would remove the forcing's wavenumber.
    #[error("the forcing sin(6y) needs a spectral resolution of at least 20 (2/3 rule), got {0}")]
    ForcingUnresolved(usize),
    /// A down-sampling asked for a coarse grid finer than the fine one.
    #[error("coarse resolution {coarse} exceeds the fine resolution {fine}")]
    CoarserThanFine {
        /// The fine resolution.
        fine: usize,
        /// The requested coarse resolution.
        coarse: usize,
    },
    /// A coarse-solver set-up name that Kolmogorov flow does not offer.
    #[error(
        "unknown Kolmogorov solver set-up '{0}' (expected piso, piso-exact, piso-advective, piso-official or ssp-rk3)"
    )]
    UnknownSetup(String),
    /// A shipped spun-up state file that does not decode.
    #[error("spun-up state file: {0}")]
    BadStateFile(String),
    /// Reading a tensor back from the device failed.
    #[error("reading a tensor back failed: {0}")]
    Readback(String),
    /// A refused state or index.
    #[error(transparent)]
    State(#[from] crate::types::StateError),
}
