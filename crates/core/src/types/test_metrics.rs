//! The metrics of one test rollout (any system).

use serde::{Deserialize, Serialize};

use super::VorticityMetrics;

use crate::metrics::{
    correlation_time, divergence_time, frame_peaks, frame_squared_errors, l2_error, relative_error,
    relative_error_per_frame, stability, Stability,
};

/// The metrics of one test rollout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestMetrics {
    /// Relative error over H steps.
    #[serde(deserialize_with = "super::nullable::f64")]
    pub relative_error: f64,
    /// L2 error over H steps.
    #[serde(deserialize_with = "super::nullable::f64")]
    pub l2: f64,
    /// Correlation time (steps).
    pub correlation_time: usize,
    /// Divergence time (steps; the rollout length when stable).
    pub divergence_time: usize,
    /// The stability class.
    pub stability: Stability,
    /// Relative error of every frame of the rollout (the error over rollout time).
    pub frame_errors: Vec<f64>,
    /// Kochkov et al.'s vorticity measures (2-D flows only; not the paper's metrics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vorticity: Option<VorticityMetrics>,
    /// `mean_x (ũ_t − u_t)²` of every frame of the rollout, unclipped (a blown-up frame is not
    /// finite), f32: with [`Self::truth_peaks`] the relative and L2 errors at any horizon
    /// ([`crate::metrics::errors_at_horizon`]). Empty in older files.
    #[serde(default, with = "super::packed::packed_f32s")]
    pub frame_mse: Vec<f32>,
    /// `max_x u_t²` of the truth, every frame (f32). Empty in older files.
    #[serde(default, with = "super::packed::packed_f32s")]
    pub truth_peaks: Vec<f32>,
}

impl TestMetrics {
    /// The metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth`, with
    /// the rollout's physics `residuals` (see [`physics_residuals`]): relative and L2 error over
    /// `error_horizon` steps, correlation and divergence time, stability, the error per frame.
    pub fn of_rollout(
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        residuals: &[f64],
        error_horizon: usize,
    ) -> Self {
        Self {
            relative_error: relative_error(truth, rollout, error_horizon),
            l2: l2_error(truth, rollout, error_horizon),
            correlation_time: correlation_time(truth, rollout),
            divergence_time: divergence_time(residuals).unwrap_or(residuals.len()),
            stability: stability(rollout, residuals),
            frame_errors: relative_error_per_frame(truth, rollout, error_horizon),
            vorticity: None,
            frame_mse: frame_squared_errors(truth, rollout),
            truth_peaks: frame_peaks(truth),
        }
    }
}

/// The physics residuals `e_t = Σ_x (ũ_{t+1} − S(ũ_t))²` of a rollout `[frames][N]` under the
/// reference step `step` (∞ after a non-finite frame).
pub fn physics_residuals(rollout: &[Vec<f64>], step: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    rollout
        .windows(2)
        .map(|w| {
            if w[0].iter().any(|v| !v.is_finite()) {
                return f64::INFINITY;
            }
            let next = step(&w[0]);
            next.iter().zip(&w[1]).map(|(a, b)| (a - b) * (a - b)).sum()
        })
        .collect()
}
