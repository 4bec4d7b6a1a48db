//! The Kolmogorov test metrics (PAPER.md): velocity MSE over the test frames; a model whose
//! MSE is NaN or above [`DIVERGED_MSE`] is "diverged".

use crate::numerics::metrics::{correlation_time, stability};
use crate::numerics::types::TestMetrics;

/// A model with a larger (or NaN) velocity MSE is diverged: excluded from the mean, flagged.
pub const DIVERGED_MSE: f64 = 100.0;

/// Velocity MSE of every frame (`∞`, never NaN, where the model is not finite).
pub fn frame_mse(truth: &[Vec<f64>], model: &[Vec<f64>]) -> Vec<f64> {
    truth
        .iter()
        .zip(model)
        .map(|(t, m)| {
            let sum: f64 = t.iter().zip(m).map(|(a, b)| (a - b) * (a - b)).sum();
            let mse = sum / t.len().max(1) as f64;
            if mse.is_finite() {
                mse
            } else {
                f64::INFINITY
            }
        })
        .collect()
}

/// The metrics of one rollout (`[frames][2·N²]`, frame 0 = truth's): `relative_error` holds
/// the velocity MSE over every frame (frame 0 included, as the KS error includes t = 0), `l2`
/// the MSE over the first `error_horizon` steps, the correlation time of the velocity, the
/// divergence time (first frame with MSE above [`DIVERGED_MSE`] or not finite) and the
/// stability class (unstable when diverged).
pub fn test_metrics(truth: &[Vec<f64>], model: &[Vec<f64>], error_horizon: usize) -> TestMetrics {
    let frame_errors = frame_mse(truth, model);
    let mean = |errors: &[f64]| errors.iter().sum::<f64>() / errors.len().max(1) as f64;
    let divergence = frame_errors
        .iter()
        .position(|&e| e > DIVERGED_MSE)
        .unwrap_or(frame_errors.len());
    let residuals: Vec<f64> = frame_errors
        .iter()
        .map(|&e| {
            if e <= DIVERGED_MSE {
                0.0
            } else {
                f64::INFINITY
            }
        })
        .collect();
    let horizon = (error_horizon + 1).min(frame_errors.len());
    TestMetrics {
        relative_error: mean(&frame_errors),
        l2: mean(&frame_errors[..horizon]),
        correlation_time: correlation_time(truth, model),
        divergence_time: divergence,
        stability: stability(model, &residuals),
        frame_errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::metrics::Stability;

    #[test]
    fn mse_divergence_and_stability() {
        let truth: Vec<Vec<f64>> = (0..6).map(|t| vec![t as f64, -(t as f64)]).collect();
        let exact = test_metrics(&truth, &truth, 2);
        assert_eq!(exact.relative_error, 0.0);
        assert_eq!(exact.divergence_time, 6);
        let mut model = truth.clone();
        model[1] = vec![1.0 + 2.0, -1.0];
        let off = test_metrics(&truth, &model, 2);
        // Frame 1: (2² + 0)/2 = 2; mean over 6 frames 1/3, over the first 3: 2/3.
        assert!((off.relative_error - 2.0 / 6.0).abs() < 1e-12);
        assert!((off.l2 - 2.0 / 3.0).abs() < 1e-12);
        model[3] = vec![f64::NAN, 0.0];
        let nan = test_metrics(&truth, &model, 2);
        assert_eq!(nan.divergence_time, 3);
        assert_eq!(nan.stability, Stability::Unstable);
        assert!(nan.relative_error.is_infinite());
        model[3] = vec![30.0, 0.0];
        assert_eq!(
            test_metrics(&truth, &model, 2).divergence_time,
            3,
            "MSE > 100"
        );
    }
}
