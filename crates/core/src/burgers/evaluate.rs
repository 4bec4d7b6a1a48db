//! The metrics of a Burgers test rollout: [`crate::metrics`]' relative error, L2
//! error, correlation time and stability, with physics residuals against the accurate coarse
//! step `S` = ETDRK4 on the coarse grid ([`super::config::FINE_SUBSTEPS`] sub-steps of Δt).

use super::config::{check_viscosity, BurgersConfig, COARSE_RESOLUTION};
use super::error::BurgersError;
use super::reference::ReferenceSolver;
use crate::types::test_metrics::physics_residuals as residuals;
use crate::types::TestMetrics;

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
    Ok(residuals(rollout, |u| solver.step(u)))
}

/// The metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth` at `ν`.
pub fn test_metrics(
    truth: &[Vec<f64>],
    rollout: &[Vec<f64>],
    viscosity: f64,
    error_horizon: usize,
) -> Result<TestMetrics, BurgersError> {
    let residuals = physics_residuals(rollout, viscosity)?;
    Ok(TestMetrics::of_rollout(
        truth,
        rollout,
        &residuals,
        error_horizon,
    ))
}
