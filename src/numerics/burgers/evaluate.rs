//! The metrics of a Burgers test rollout: [`crate::numerics::metrics`]' relative error, L2
//! error, correlation time and stability, with physics residuals against the accurate coarse
//! step `S` = ETDRK4 on the coarse grid ([`super::config::FINE_SUBSTEPS`] sub-steps of Δt).

use super::config::{check_viscosity, BurgersConfig, COARSE_RESOLUTION};
use super::error::BurgersError;
use super::reference::ReferenceSolver;
use crate::numerics::metrics::{
    correlation_time, divergence_time, l2_error, relative_error, relative_error_per_frame,
    stability,
};
use crate::numerics::types::TestMetrics;

/// The physics step `S` of the residuals at `ν`: ETDRK4 on the coarse grid.
pub fn physics_solver(viscosity: f64) -> Result<ReferenceSolver, BurgersError> {
    ReferenceSolver::new(BurgersConfig {
        resolution: COARSE_RESOLUTION,
        ..BurgersConfig::truth(check_viscosity(viscosity)?)
    })
}

/// The residuals `e_t = Σ_x (ũ_{t+1} − S(ũ_t))²` of a rollout `[frames][N]` (∞ after a
/// non-finite frame).
pub fn physics_residuals(rollout: &[Vec<f64>], viscosity: f64) -> Result<Vec<f64>, BurgersError> {
    let solver = physics_solver(viscosity)?;
    Ok(rollout
        .windows(2)
        .map(|w| {
            if w[0].iter().any(|v| !v.is_finite()) {
                return f64::INFINITY;
            }
            let next = solver.step(&w[0]);
            next.iter().zip(&w[1]).map(|(a, b)| (a - b) * (a - b)).sum()
        })
        .collect())
}

/// The metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth` at `ν`.
pub fn test_metrics(
    truth: &[Vec<f64>],
    rollout: &[Vec<f64>],
    viscosity: f64,
    error_horizon: usize,
) -> Result<TestMetrics, BurgersError> {
    let residuals = physics_residuals(rollout, viscosity)?;
    Ok(TestMetrics {
        relative_error: relative_error(truth, rollout, error_horizon),
        l2: l2_error(truth, rollout, error_horizon),
        correlation_time: correlation_time(truth, rollout),
        divergence_time: divergence_time(&residuals).unwrap_or(residuals.len()),
        stability: stability(rollout, &residuals),
        frame_errors: relative_error_per_frame(truth, rollout, error_horizon),
    })
}
