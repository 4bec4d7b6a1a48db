//! The measures of a 2-D flow rollout that the field uses beside the paper's MSE (Kochkov et al.,
//! PNAS 2021, "Machine learning–accelerated computational fluid dynamics"): the vorticity
//! correlation with the truth over time, the time until it drops below 0.95 and 0.8, and the
//! velocity MSE over the first [`EARLY_STEPS`] steps. Not the paper's metrics: shown beside them.

use serde::{Deserialize, Serialize};

/// The correlation levels whose crossing times are kept: 0.95 (Kochkov et al.'s) and 0.8.
pub const CORRELATION_LEVELS: [f64; 2] = [0.95, 0.8];

/// Steps of the early velocity MSE: one of the paper's integral time scales (≈ 8 coarse steps).
pub const EARLY_STEPS: usize = 8;

/// Kochkov et al.'s measures of one test rollout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VorticityMetrics {
    /// `Σ ω ω̃ / √(Σ ω² Σ ω̃²)` of the model's and the truth's vorticity, per frame
    /// `[frames]` (frame 0 is the shared start); 0 where the model is not finite.
    pub correlation: Vec<f64>,
    /// Coarse steps until the correlation first drops below 0.95 (the index of the first frame
    /// below it; the rollout's steps when it never does).
    pub steps_above_095: usize,
    /// The same below 0.8.
    pub steps_above_080: usize,
    /// The paper's integral time scale of this test's truth, in coarse steps (its estimator
    /// `1/rms(W)/Δt` over the test's frames): the unit of the times in time scales.
    #[serde(deserialize_with = "super::nullable::f64")]
    pub time_scale_steps: f64,
    /// Velocity MSE over steps 1..=[`EARLY_STEPS`] (∞ where the model is not finite).
    #[serde(deserialize_with = "super::nullable::f64")]
    pub early_mse: f64,
}

impl VorticityMetrics {
    /// From the per-frame `correlation`, the per-frame velocity MSE `frame_mse` (frame 0
    /// included) and the truth's time scale in steps.
    pub fn new(correlation: Vec<f64>, frame_mse: &[f64], time_scale_steps: f64) -> Self {
        let steps = correlation.len().saturating_sub(1);
        let below = |level: f64| {
            correlation
                .iter()
                .position(|&c| c.is_nan() || c < level)
                .unwrap_or(steps)
        };
        let early = &frame_mse[1.min(frame_mse.len())..(EARLY_STEPS + 1).min(frame_mse.len())];
        let early_mse = if early.is_empty() {
            f64::NAN
        } else {
            early.iter().sum::<f64>() / early.len() as f64
        };
        Self {
            steps_above_095: below(CORRELATION_LEVELS[0]),
            steps_above_080: below(CORRELATION_LEVELS[1]),
            correlation,
            time_scale_steps,
            early_mse,
        }
    }

    /// The crossing time of level `index` of [`CORRELATION_LEVELS`] in coarse steps.
    pub fn steps_above(&self, index: usize) -> usize {
        [self.steps_above_095, self.steps_above_080][index]
    }

    /// The same in the paper's integral time scales.
    pub fn time_scales_above(&self, index: usize) -> f64 {
        self.steps_above(index) as f64 / self.time_scale_steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_times_and_early_mse() {
        let correlation = vec![1.0, 0.99, 0.96, 0.94, 0.85, 0.79, 0.9, 0.5];
        let mse: Vec<f64> = (0..8).map(|t| t as f64).collect();
        let m = VorticityMetrics::new(correlation, &mse, 2.0);
        assert_eq!(m.steps_above_095, 3, "first frame below 0.95");
        assert_eq!(m.steps_above_080, 5, "a later recovery does not count");
        assert_eq!(m.time_scales_above(1), 2.5);
        // Steps 1..=7 exist here (8 frames): the mean of 1..=7.
        assert_eq!(m.early_mse, 4.0);
        let never = VorticityMetrics::new(vec![1.0; 5], &[0.0; 5], 1.0);
        assert_eq!((never.steps_above_095, never.steps_above_080), (4, 4));
        let nan = VorticityMetrics::new(vec![1.0, f64::NAN, 1.0], &[0.0; 3], 1.0);
        assert_eq!(nan.steps_above_095, 1, "a non-finite frame ends the time");
    }

    #[test]
    fn non_finite_values_survive_json() {
        let m = VorticityMetrics::new(vec![1.0, 0.5], &[0.0, f64::INFINITY], 8.0);
        let back: VorticityMetrics =
            serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert!(
            back.early_mse.is_nan(),
            "∞ is written as null and read as NaN"
        );
        assert_eq!(back.correlation, m.correlation);
    }
}
