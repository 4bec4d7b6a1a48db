//! The unroll curriculum of a training run (the Kolmogorov study: horizon 1 → 2 → 4, one
//! learning rate per stage; ONE trains as many stages, each at horizon 1): its stages, the
//! horizon and learning rate at each iteration, and its validation.

use serde::{Deserialize, Serialize};

/// An unroll curriculum (the Kolmogorov study: 1 → 2 → 4): stage `i` trains
/// `stage_iterations` iterations at horizon `horizons[i]` and learning rate `learning_rates[i]`,
/// starting from the previous stage's weights. ONE trains the same stages at horizon 1 (the
/// paper's one-step curriculum: the same iterations and learning rates as NOG and WIG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curriculum {
    /// Horizon of each stage (increasing; the last is the variant's horizon).
    pub horizons: Vec<usize>,
    /// Iterations per stage.
    pub stage_iterations: usize,
    /// Initial learning rate of each stage (decayed within the stage by the optimiser's
    /// schedule).
    pub learning_rates: Vec<f64>,
    /// Stages with a horizon above 1 ramp their learning rate up linearly over their first
    /// `64 · horizon` iterations (as the paper's Kolmogorov code does in its first epoch).
    pub ramp: bool,
    /// Each stage after the first starts a fresh optimiser (Adam's moments at zero) and fresh
    /// gradient-guard bounds, as the paper's Kolmogorov code does (a new graph per stage);
    /// `false`: both carry over between stages.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
}

/// One stage of a run: its horizon and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageAt {
    /// Stage index.
    pub stage: usize,
    /// Iteration of the run at which it starts.
    pub start: usize,
    /// Its horizon.
    pub horizon: usize,
}
