//! The one error type of a reader's equation: refused text, a physics check that fails (with
//! what to change), bad states, backend failures.

use crate::types::EquationError;

/// Everything that can go wrong with a reader's equation and its solvers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CustomError {
    /// The text or the numbers of the equation are refused.
    #[error("{0}")]
    Equation(#[from] EquationError),
    /// The linear part grows at the grid's highest mode.
    #[error(
        "the linear part grows at the highest mode of the {grid}-point grid (k = {wavenumber:.4}: \
         Re L̂ = {rate:.4e}, ×e^{{{growth:.3e}}} per learned step): it grows without bound as the \
         grid is refined; damp it: a4 < 0, or a4 = 0 and a2 > 0 (a2 = ν is \
         diffusion){at}"
    )]
    GrowsAtHighestMode {
        /// Points of the grid.
        grid: usize,
        /// Its highest wavenumber `k = (N/2)/L`.
        wavenumber: f64,
        /// `Re L̂` there.
        rate: f64,
        /// `Re L̂ · Δt`.
        growth: f64,
        /// ` at vary = value` where a study value is the cause.
        at: String,
    },
    /// A solver's rollout leaves the finite numbers (or grows 10⁶-fold).
    #[error(
        "the {solver} blows up at step {step} of {steps} from initial state {state}{at}: {advice}"
    )]
    BlowsUp {
        /// `coarse ETD1 solver (Δt = …)` or `truth (…)`.
        solver: String,
        /// The first step that blew up (1-based).
        step: usize,
        /// Steps asked for.
        steps: usize,
        /// Which initial state.
        state: usize,
        /// ` at vary = value`.
        at: String,
        /// What to change.
        advice: &'static str,
    },
    /// The mode is not studied on a reader's equation.
    #[error("mode {0} is not available for a reader's equation (prediction or correction)")]
    UnsupportedMode(&'static str),
    /// Reading a tensor back from the device failed.
    #[error("reading a tensor back failed: {0}")]
    Readback(String),
    /// A refused state or index.
    #[error(transparent)]
    State(#[from] crate::types::StateError),
}

impl From<CustomError> for crate::train::TrainError {
    fn from(err: CustomError) -> Self {
        Self::invalid("equation", err.to_string())
    }
}
