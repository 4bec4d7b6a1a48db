//! The Kolmogorov test metrics (docs/src/study.md): velocity MSE over the test frames; a model whose
//! MSE is NaN or above [`DIVERGED_MSE`] is "diverged". Beside them, not the paper's: Kochkov et
//! al.'s vorticity correlation over time ([`VorticityMetrics`]).

use super::staggered::vorticity_from_velocity;
use super::statistics::paper_time_scale_steps;
pub use crate::metrics::field_correlation;
use crate::metrics::{correlation_time, stability};
use crate::types::TestMetrics;
use crate::types::VorticityMetrics;

/// The coarse step of the test frames (time units): the time scale's unit.
const FRAME_DT: f64 = super::config::COARSE_DT;

/// The grid size `N` of a staggered velocity `[2·N²]`.
fn resolution(state: &[f64]) -> usize {
    ((state.len() / 2) as f64).sqrt().round() as usize
}

/// The vorticity correlation of every frame of `model` with `truth` (`[frames][2·N²]`).
pub fn vorticity_correlation(truth: &[Vec<f64>], model: &[Vec<f64>]) -> Vec<f64> {
    truth
        .iter()
        .zip(model)
        .map(|(t, m)| {
            let n = resolution(t);
            match (vorticity_from_velocity(n, t), vorticity_from_velocity(n, m)) {
                (Ok(a), Ok(b)) => field_correlation(&a, &b),
                _ => 0.0,
            }
        })
        .collect()
}

/// Kochkov et al.'s measures of one rollout (`[frames][2·N²]`), with the per-frame velocity
/// MSE `frame_mse` already computed.
pub fn vorticity_metrics(
    truth: &[Vec<f64>],
    model: &[Vec<f64>],
    frame_mse: &[f64],
) -> VorticityMetrics {
    let n = truth.first().map_or(0, |t| resolution(t));
    VorticityMetrics::new(
        vorticity_correlation(truth, model),
        frame_mse,
        paper_time_scale_steps(truth, n, FRAME_DT),
    )
}

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
        vorticity: Some(vorticity_metrics(truth, model, &frame_errors)),
        frame_errors,
        // The paper's Kolmogorov metric is the whole rollout's MSE: no horizon to re-score.
        frame_mse: Vec::new(),
        truth_peaks: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::initial::random_vorticity;
    use crate::kolmogorov::staggered::velocity_from_vorticity;
    use crate::metrics::Stability;

    /// A developed-looking staggered velocity on 16² from seed `seed`.
    fn field(seed: u64) -> Vec<f64> {
        let omega = random_vorticity(16, seed, 4, 3.0).unwrap();
        velocity_from_vorticity(16, &omega).unwrap()
    }

    #[test]
    fn vorticity_correlation_is_kochkovs() {
        let (a, b) = (field(1), field(2));
        let scaled: Vec<f64> = a.iter().map(|x| 2.5 * x).collect();
        let negated: Vec<f64> = a.iter().map(|x| -x).collect();
        let truth = vec![a.clone(), a.clone(), a.clone(), a.clone()];
        let model = vec![a.clone(), scaled, negated, b];
        let c = vorticity_correlation(&truth, &model);
        assert!(
            (c[0] - 1.0).abs() < 1e-12 && (c[1] - 1.0).abs() < 1e-12,
            "scale-free"
        );
        assert!((c[2] + 1.0).abs() < 1e-12);
        assert!(c[3].abs() < 0.5, "independent fields: {}", c[3]);
        let nan = vec![f64::NAN; a.len()];
        assert_eq!(
            vorticity_correlation(std::slice::from_ref(&a), &[nan]),
            vec![0.0]
        );
        let metrics = test_metrics(&truth, &model, 2);
        let v = metrics
            .vorticity
            .expect("Kolmogorov keeps the vorticity measures");
        assert_eq!(v.steps_above_095, 2, "the negated frame is the first below");
        assert!(v.time_scale_steps.is_finite() && v.time_scale_steps > 0.0);
    }

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
