//! Which tests a study evaluates on and how long the rollouts are (any system).

use serde::{Deserialize, Serialize};

/// Which tests and how long the rollouts are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalConfig {
    /// The system's parameter of each test size (KS: the domain scales 0.85, 0.93, 1.15, 1.40).
    pub scales: Vec<f64>,
    /// Tests per size (the study: 10).
    pub tests_per_size: usize,
    /// Seed of the test-IC family.
    pub test_seed: u64,
    /// First evaluated frame of each kept series (the study: 200).
    pub start_frame: usize,
    /// Horizon H of the relative error (the study: 12).
    pub error_horizon: usize,
    /// Rollout length for correlation time and stability (the study: 750).
    pub rollout_steps: usize,
}
