//! The metrics of one test rollout (any system).

use serde::{Deserialize, Serialize};

use crate::numerics::metrics::Stability;

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
}
