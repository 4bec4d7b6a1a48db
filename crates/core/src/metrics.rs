//! The study's evaluation metrics as pure functions on row-major trajectories `[frames][N]`
//! (`truth` = ground truth, `model` = the rollout being judged; frame 0 is the common start).
//!
//! - [`relative_error`]: `E = 1/(H+1) Σ_{t=0..H} clip(mean_x (ũ_t − u_t)² / max_{t,x} u_t², −30, 30)`
//!   over the first `H + 1` frames (H = 12 in the study; t = 0 included);
//! - [`l2_error`]: the same without the normalisation;
//! - [`correlation_time`]: first step whose Pearson correlation with the truth is below 0.2 and
//!   stays below for 5 more steps (the horizon when that never happens);
//! - [`stability`]: the class of a long rollout from its physics residuals
//!   `e_t = Σ_x (ũ_{t+1} − S_ETRK2(ũ_t))²` and its own frames, see [`Stability`].

use serde::{Deserialize, Serialize};

/// The study's error horizon H.
pub const ERROR_HORIZON: usize = 12;
/// Correlation below which a rollout counts as decorrelated.
pub const CORRELATION_THRESHOLD: f64 = 0.2;
/// Extra steps the correlation must stay below the threshold.
pub const CORRELATION_HOLD: usize = 5;
/// Physics residual above which a rollout is unstable.
pub const DIVERGENCE_THRESHOLD: f64 = 500.0;
/// Frame stride of the correlation-with-last-frame series used for the classes.
pub const CLASS_STRIDE: usize = 5;
/// The study's default horizon for the stability classes (learned steps).
pub const STABILITY_HORIZON: usize = 750;

/// `mean_x (a − b)²`.
fn mean_squared_difference(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().max(1) as f64;
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>() / n
}

/// The relative error over the first `horizon + 1` frames; `NaN`-free (clipped to ±30, a
/// non-finite frame counts as 30).
pub fn relative_error(truth: &[Vec<f64>], model: &[Vec<f64>], horizon: usize) -> f64 {
    let frames = (horizon + 1).min(truth.len()).min(model.len());
    let peak = truth[..frames]
        .iter()
        .flatten()
        .map(|v| v * v)
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    clipped_mean(truth, model, frames, peak)
}

/// [`relative_error`] without the normalisation by `max u²`.
pub fn l2_error(truth: &[Vec<f64>], model: &[Vec<f64>], horizon: usize) -> f64 {
    let frames = (horizon + 1).min(truth.len()).min(model.len());
    clipped_mean(truth, model, frames, 1.0)
}

/// Clip of one frame's error in [`relative_error`] (a non-finite frame counts as this).
pub const FRAME_ERROR_CLIP: f64 = 30.0;

/// `mean_x (ũ − u)² / scale`, clipped to ±[`FRAME_ERROR_CLIP`] (non-finite → the clip).
fn clipped_frame_error(truth: &[f64], model: &[f64], scale: f64) -> f64 {
    let value = mean_squared_difference(model, truth) / scale;
    if value.is_finite() {
        value.clamp(-FRAME_ERROR_CLIP, FRAME_ERROR_CLIP)
    } else {
        FRAME_ERROR_CLIP
    }
}

fn clipped_mean(truth: &[Vec<f64>], model: &[Vec<f64>], frames: usize, scale: f64) -> f64 {
    if frames == 0 {
        return f64::NAN;
    }
    let sum: f64 = (0..frames)
        .map(|t| clipped_frame_error(&truth[t], &model[t], scale))
        .sum();
    sum / frames as f64
}

/// The error over rollout time: for every frame `t`, [`relative_error`]'s summand
/// `clip(mean_x (ũ_t − u_t)² / max_{t,x} u_t²)` with the peak taken over the same first
/// `horizon + 1` frames, so the first `horizon + 1` values average to [`relative_error`].
pub fn relative_error_per_frame(
    truth: &[Vec<f64>],
    model: &[Vec<f64>],
    horizon: usize,
) -> Vec<f64> {
    let frames = truth.len().min(model.len());
    let peak = truth[..(horizon + 1).min(frames)]
        .iter()
        .flatten()
        .map(|v| v * v)
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    (0..frames)
        .map(|t| clipped_frame_error(&truth[t], &model[t], peak))
        .collect()
}

/// `mean_x (ũ_t − u_t)²` of every frame both hold, unclipped, as f32; a frame that is not
/// finite (a blown-up rollout) is +∞, which every metric counts as the clip (and which equals
/// itself, where NaN would not).
pub fn frame_squared_errors(truth: &[Vec<f64>], model: &[Vec<f64>]) -> Vec<f32> {
    truth
        .iter()
        .zip(model)
        .map(|(u, m)| {
            let value = mean_squared_difference(m, u) as f32;
            if value.is_finite() {
                value
            } else {
                f32::INFINITY
            }
        })
        .collect()
}

/// `max_x u_t²` of every frame, as f32.
pub fn frame_peaks(truth: &[Vec<f64>]) -> Vec<f32> {
    truth
        .iter()
        .map(|u| u.iter().map(|v| v * v).fold(0.0, f64::max) as f32)
        .collect()
}

/// [`relative_error`] and [`l2_error`] at `horizon` from a rollout's per-frame squared errors
/// ([`frame_squared_errors`]) and its truth's peaks ([`frame_peaks`]): the same clipped means
/// over the first `horizon + 1` frames, normalised by the peak over those frames. Exact up to
/// the f32 rounding of the stored curves.
pub fn errors_at_horizon(mse: &[f32], peaks: &[f32], horizon: usize) -> (f64, f64) {
    let frames = (horizon + 1).min(mse.len()).min(peaks.len());
    if frames == 0 {
        return (f64::NAN, f64::NAN);
    }
    let peak = peaks[..frames]
        .iter()
        .map(|&p| f64::from(p))
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let clipped = |value: f64| {
        if value.is_finite() {
            value.clamp(-FRAME_ERROR_CLIP, FRAME_ERROR_CLIP)
        } else {
            FRAME_ERROR_CLIP
        }
    };
    let mean = |scale: f64| {
        mse[..frames]
            .iter()
            .map(|&e| clipped(f64::from(e) / scale))
            .sum::<f64>()
            / frames as f64
    };
    (mean(peak), mean(1.0))
}

/// Pearson correlation of two equally long vectors (0 when either is constant or non-finite).
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    if n == 0 {
        return 0.0;
    }
    let mean_a = a[..n].iter().sum::<f64>() / n as f64;
    let mean_b = b[..n].iter().sum::<f64>() / n as f64;
    correlation_of((0..n).map(|i| (a[i] - mean_a, b[i] - mean_b)))
}

/// `Σ a b / √(Σ a² Σ b²)` (jax-cfd's `correlation` of normalised fields, no mean removed: a
/// periodic curl has zero mean); 0 where either is not finite or zero.
pub fn field_correlation(a: &[f64], b: &[f64]) -> f64 {
    correlation_of(a.iter().copied().zip(b.iter().copied()))
}

/// `Σ x y / √(Σ x² Σ y²)` over the pairs `(x, y)`, summed in order; 0 where not finite.
fn correlation_of(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in pairs {
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    let r = ab / (aa * bb).sqrt();
    if r.is_finite() {
        r
    } else {
        0.0
    }
}

/// `max |a − b|` over the common length (the L∞ distance; 0 for empty vectors).
pub fn max_abs_difference(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// `max |a|` (the L∞ norm; 0 for an empty vector).
pub fn max_abs(a: &[f64]) -> f64 {
    a.iter().map(|x| x.abs()).fold(0.0, f64::max)
}

/// Steps until the correlation with the truth falls below 0.2 and stays below for 5 more steps;
/// the number of compared frames − 1 (the horizon) when it never does.
pub fn correlation_time(truth: &[Vec<f64>], model: &[Vec<f64>]) -> usize {
    let frames = truth.len().min(model.len());
    let below: Vec<bool> = (0..frames)
        .map(|t| pearson(&truth[t], &model[t]) < CORRELATION_THRESHOLD)
        .collect();
    (0..frames)
        .find(|&t| {
            t + CORRELATION_HOLD < frames && below[t..=t + CORRELATION_HOLD].iter().all(|&b| b)
        })
        .unwrap_or(frames.saturating_sub(1))
}

/// The stability classes of a long rollout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stability {
    /// Settles to a steady state: the correlation of every 5th frame with the last frame has no
    /// peak (it approaches 1 monotonically), or the state stops moving.
    Static,
    /// The physics residual exceeds 500 (or a value stops being finite).
    Unstable,
    /// Periodic: the rollout keeps returning close to its final state (≥ 3 peaks of the
    /// correlation with the last frame above 0.9, regularly spaced: spacing CV ≤ 0.25).
    Recurring,
    /// Stays dynamic without settling or repeating, like the chaotic ground truth.
    Regular,
}

impl Stability {
    /// Every class.
    pub const ALL: [Stability; 4] = [
        Stability::Static,
        Stability::Unstable,
        Stability::Recurring,
        Stability::Regular,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Stability::Static => "static",
            Stability::Unstable => "unstable",
            Stability::Recurring => "recurring",
            Stability::Regular => "regular",
        }
    }
}

/// First step whose physics residual exceeds [`DIVERGENCE_THRESHOLD`] (or is non-finite).
pub fn divergence_time(residuals: &[f64]) -> Option<usize> {
    residuals
        .iter()
        .position(|&e| !e.is_finite() || e > DIVERGENCE_THRESHOLD)
}

/// Peak height above which a return to the final state counts.
const RECURRENCE_LEVEL: f64 = 0.9;
/// Minimum prominence of a counted peak (smaller wiggles are noise).
const PEAK_PROMINENCE: f64 = 0.05;
/// Relative motion per step below which a state is steady.
const STEADY_MOTION: f64 = 1e-6;

/// Local maxima of `series` with prominence ≥ [`PEAK_PROMINENCE`]: `(index, value)`.
fn peaks(series: &[f64]) -> Vec<(usize, f64)> {
    let mut found = Vec::new();
    for i in 1..series.len().saturating_sub(1) {
        let v = series[i];
        if !(v > series[i - 1] && v >= series[i + 1]) {
            continue;
        }
        let left_min = series[..i]
            .iter()
            .rev()
            .take_while(|&&x| x <= v)
            .fold(v, |m, &x| m.min(x));
        let right_min = series[i + 1..]
            .iter()
            .take_while(|&&x| x <= v)
            .fold(v, |m, &x| m.min(x));
        if v - left_min.max(right_min) >= PEAK_PROMINENCE {
            found.push((i, v));
        }
    }
    found
}

/// The class of a rollout `model` (`[frames][N]`) given its physics residuals
/// (`residuals[t]` for the step `t → t + 1`).
pub fn stability(model: &[Vec<f64>], residuals: &[f64]) -> Stability {
    if divergence_time(residuals).is_some() || model.iter().flatten().any(|v| !v.is_finite()) {
        return Stability::Unstable;
    }
    let Some(last) = model.last() else {
        return Stability::Static;
    };
    // Steady: the last quarter hardly moves relative to the state's own variation.
    let tail = &model[model.len() * 3 / 4..];
    let variation = tail
        .iter()
        .map(|u| {
            let mean = u.iter().sum::<f64>() / u.len().max(1) as f64;
            u.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>()
        })
        .fold(0.0, f64::max)
        .max(1e-12);
    let motion = tail
        .windows(2)
        .map(|w| mean_squared_difference(&w[0], &w[1]) * w[0].len() as f64)
        .fold(0.0, f64::max);
    if motion / variation < STEADY_MOTION {
        return Stability::Static;
    }
    let series: Vec<f64> = model[..model.len() - 1]
        .iter()
        .step_by(CLASS_STRIDE)
        .map(|u| pearson(u, last))
        .collect();
    let found = peaks(&series);
    if found.is_empty() {
        return Stability::Static;
    }
    let high: Vec<usize> = found
        .iter()
        .filter(|(_, v)| *v >= RECURRENCE_LEVEL)
        .map(|(i, _)| *i)
        .collect();
    if high.len() >= 3 {
        let gaps: Vec<f64> = high.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let variance =
            gaps.iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / gaps.len() as f64;
        if variance.sqrt() <= 0.25 * mean {
            return Stability::Recurring;
        }
    }
    Stability::Regular
}

/// Mean and (population) standard deviation; `(NaN, NaN)` for no values.
pub fn mean_std(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, variance.sqrt())
}

/// Least-squares slope of `log y` against `log x` (the convergence slope); `None` with fewer
/// than two positive points.
pub fn log_log_slope(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if logs.len() < 2 {
        return None;
    }
    let n = logs.len() as f64;
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored curves give the relative and L2 errors at every horizon, to f32 rounding:
    /// growing errors, a truth whose peak rises late (the normalisation moves with H) and a
    /// rollout that blows up (clipped frames).
    #[test]
    fn errors_at_any_horizon_from_the_stored_curves() {
        let truth: Vec<Vec<f64>> = (0..40)
            .map(|t| {
                (0..8)
                    .map(|x| ((x + t) as f64 * 0.7).sin() * (1.0 + t as f64 / 10.0))
                    .collect()
            })
            .collect();
        let model: Vec<Vec<f64>> = truth
            .iter()
            .enumerate()
            .map(|(t, u)| match t {
                0..=29 => u.iter().map(|v| v + 0.05 * t as f64).collect(),
                30 => vec![1e30; 8],
                _ => vec![f64::NAN; 8],
            })
            .collect();
        let (mse, peaks) = (frame_squared_errors(&truth, &model), frame_peaks(&truth));
        assert_eq!(mse[35], f32::INFINITY, "a NaN frame is stored as +∞");
        assert_eq!(
            mse,
            frame_squared_errors(&truth, &model),
            "curves equal themselves"
        );
        for horizon in [0, 1, 5, 12, 24, 30, 39, 100] {
            let (relative, l2) = errors_at_horizon(&mse, &peaks, horizon);
            let (want_relative, want_l2) = (
                relative_error(&truth, &model, horizon),
                l2_error(&truth, &model, horizon),
            );
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-12);
            assert!(close(relative, want_relative), "H {horizon}");
            assert!(close(l2, want_l2), "H {horizon}");
        }
        assert!(errors_at_horizon(&[], &[], 3).0.is_nan());
    }

    #[test]
    fn relative_error_by_hand() {
        // Truth peak u² = 4; errors per frame: 0, mean(1,0)=0.5, mean(4,0)=2 → /4 → 0, .125, .5.
        let truth = vec![vec![2.0, 0.0], vec![1.0, 1.0], vec![0.0, 1.0]];
        let model = vec![vec![2.0, 0.0], vec![2.0, 1.0], vec![2.0, 1.0]];
        let e = relative_error(&truth, &model, 2);
        assert!((e - (0.0 + 0.125 + 0.5) / 3.0).abs() < 1e-15);
        assert!((l2_error(&truth, &model, 2) - (0.0 + 0.5 + 2.0) / 3.0).abs() < 1e-15);
        // H shorter than the data: only frames 0..=1.
        assert!((relative_error(&truth, &model, 1) - 0.0625).abs() < 1e-15);
        // Clipped: a blown-up frame counts 30, a NaN too.
        let wild = vec![vec![2.0, 0.0], vec![1e9, 0.0], vec![f64::NAN, 0.0]];
        assert!((relative_error(&truth, &wild, 2) - 20.0).abs() < 1e-12);
    }

    #[test]
    fn per_frame_error_by_hand_averages_to_the_relative_error() {
        let truth = vec![vec![2.0, 0.0], vec![1.0, 1.0], vec![0.0, 1.0]];
        let model = vec![vec![2.0, 0.0], vec![2.0, 1.0], vec![2.0, 1.0]];
        assert_eq!(
            relative_error_per_frame(&truth, &model, 2),
            vec![0.0, 0.125, 0.5]
        );
        // Peak over frames 0..=1 only (u² = 4 still); every frame is reported.
        assert_eq!(relative_error_per_frame(&truth, &model, 1).len(), 3);
        let wild = vec![vec![2.0, 0.0], vec![1e9, 0.0], vec![f64::NAN, 0.0]];
        let errors = relative_error_per_frame(&truth, &wild, 2);
        assert_eq!(errors[1..], [FRAME_ERROR_CLIP, FRAME_ERROR_CLIP]);
        let mean = errors.iter().sum::<f64>() / 3.0;
        assert!((mean - relative_error(&truth, &wild, 2)).abs() < 1e-12);
    }

    #[test]
    fn pearson_and_correlation_time_by_hand() {
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 1.0).abs() < 1e-15);
        assert!((pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-15);
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
        let truth: Vec<Vec<f64>> = (0..20).map(|_| vec![1.0, 2.0, 3.0]).collect();
        // Correlated for frames 0..=6, anti-correlated from 7 on, with a blip at 9.
        let mut model: Vec<Vec<f64>> = (0..20)
            .map(|t| {
                if t < 7 {
                    vec![1.0, 2.0, 3.0]
                } else {
                    vec![3.0, 2.0, 1.0]
                }
            })
            .collect();
        assert_eq!(correlation_time(&truth, &model), 7);
        model[9] = vec![1.0, 2.0, 3.0];
        // 7, 8 below, 9 above: the first 6-long run below starts at 10.
        assert_eq!(correlation_time(&truth, &model), 10);
        // Never decorrelates: the horizon.
        assert_eq!(correlation_time(&truth, &truth), 19);
    }

    #[test]
    fn divergence_time_is_the_first_large_residual() {
        assert_eq!(divergence_time(&[1.0, 499.0, 501.0, 1e9]), Some(2));
        assert_eq!(divergence_time(&[1.0, f64::NAN]), Some(1));
        assert_eq!(divergence_time(&[1.0, 2.0]), None);
    }

    fn field(frames: usize, f: impl Fn(usize, f64) -> f64) -> Vec<Vec<f64>> {
        (0..frames)
            .map(|t| {
                (0..48)
                    .map(|j| f(t, 2.0 * std::f64::consts::PI * j as f64 / 48.0))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn classes_of_synthetic_trajectories() {
        let quiet = vec![0.0; 400];
        // Decaying to a constant.
        let decaying = field(400, |t, x| 1.0 + (-(t as f64) / 10.0).exp() * x.sin());
        assert_eq!(stability(&decaying, &quiet), Stability::Static);
        // Exploding: residuals beyond 500.
        let exploding = field(400, |t, x| (t as f64 / 20.0).exp() * x.sin());
        let residuals: Vec<f64> = (0..399).map(|t| (t as f64 / 10.0).exp()).collect();
        assert_eq!(stability(&exploding, &residuals), Stability::Unstable);
        // Periodic: a wave travelling once around the domain every 40 steps.
        let periodic = field(400, |t, x| {
            (x - 2.0 * std::f64::consts::PI * t as f64 / 40.0).sin()
        });
        assert_eq!(stability(&periodic, &quiet), Stability::Recurring);
    }

    #[test]
    fn chaotic_ground_truth_is_regular() {
        use crate::ks::initial::train_ic;
        use crate::ks::{KsConfig, ReferenceSolver};
        let config = KsConfig::default();
        let solver = ReferenceSolver::new(config).expect("solver");
        let u0 = train_ic(&config.grid(), 0).expect("ic");
        let (warm, _) = solver.trajectory(&u0, 300);
        let (truth, diverged) = solver.trajectory(&warm[300], STABILITY_HORIZON);
        assert_eq!(diverged, None);
        let residuals: Vec<f64> = truth
            .windows(2)
            .map(|w| {
                let next = solver.step(&w[0]);
                next.iter().zip(&w[1]).map(|(a, b)| (a - b) * (a - b)).sum()
            })
            .collect();
        assert!(residuals.iter().all(|&e| e < 1e-9));
        assert_eq!(stability(&truth, &residuals), Stability::Regular);
    }

    #[test]
    fn aggregation_and_slope() {
        let (mean, std) = mean_std(&[1.0, 3.0]);
        assert_eq!((mean, std), (2.0, 1.0));
        let points: Vec<(f64, f64)> = [1e3, 1e4, 1e5]
            .iter()
            .map(|&p: &f64| (p, 5.0 * p.powf(-1.0 / 3.0)))
            .collect();
        assert!((log_log_slope(&points).expect("slope") + 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(log_log_slope(&points[..1]), None);
    }
}
