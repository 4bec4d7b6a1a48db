//! Statistics of a developed flow: vorticity rms, the integral time scale, and the paper's
//! "integral time scale" estimator.

/// Published values of [`paper_time_scale_steps`] on the paper's six test starts (the
/// evaluation notebook): Re 1000, then Re 600.
pub const PAPER_TIME_SCALES: [(f64, [f64; 6]); 2] = [
    (1000.0, [8.25, 7.86, 8.28, 8.33, 7.95, 8.28]),
    (600.0, [9.04, 9.11, 8.98, 8.54, 8.53, 8.62]),
];

/// The paper's "integral time scale" in coarse steps (`kolm_evaluation.ipynb`, cells 4–6):
/// `1/rms(W)/dt` over all frames and points, `W[i][j] = (u[i−1][j] − u[i+1][j] − v[i][j+1] +
/// v[i][j−1])/h` (`h = 2π/N`, rows `i = y`, columns `j = x`, periodic; the notebook's
/// `np.roll` of channel 1 = u along y and channel 0 = v along x). Frames are staggered
/// velocities `[2·N²]` (u then v) as in [`super::staggered`].
pub fn paper_time_scale_steps(frames: &[Vec<f64>], n: usize, dt: f64) -> f64 {
    let h = std::f64::consts::TAU / n as f64;
    let (mut sum, mut count) = (0.0, 0usize);
    for frame in frames {
        let (u, v) = frame.split_at(n * n);
        let at = |field: &[f64], i: usize, j: usize| field[(i % n) * n + j % n];
        for i in 0..n {
            for j in 0..n {
                let w = (at(u, i + n - 1, j) - at(u, i + 1, j) - at(v, i, j + 1)
                    + at(v, i, j + n - 1))
                    / h;
                sum += w * w;
                count += 1;
            }
        }
    }
    1.0 / (sum / count.max(1) as f64).sqrt() / dt
}

/// The vorticity rms over all frames (each `[N²]`).
pub fn vorticity_rms(frames: &[Vec<f64>]) -> f64 {
    let (sum, count) = frames
        .iter()
        .flatten()
        .fold((0.0, 0usize), |(s, c), w| (s + w * w, c + 1));
    (sum / count.max(1) as f64).sqrt()
}

/// The normalised temporal autocorrelation `C(τ)/C(0)` for lags `0..=max_lag` frames of
/// fluctuations about the time-mean field: `C(τ) = ⟨ω'(t)·ω'(t + τ)⟩` averaged over space and all
/// available `t`. Frames are `[N²]`, equally spaced in time.
pub fn autocorrelation(frames: &[Vec<f64>], max_lag: usize) -> Vec<f64> {
    let Some(first) = frames.first() else {
        return Vec::new();
    };
    let count = frames.len() as f64;
    let mut time_mean = vec![0.0; first.len()];
    for frame in frames {
        for (m, w) in time_mean.iter_mut().zip(frame) {
            *m += w / count;
        }
    }
    let fluctuations: Vec<Vec<f64>> = frames
        .iter()
        .map(|frame| frame.iter().zip(&time_mean).map(|(w, m)| w - m).collect())
        .collect();
    let lags = max_lag.min(frames.len().saturating_sub(1));
    let correlation: Vec<f64> = (0..=lags)
        .map(|lag| {
            let pairs = fluctuations.len() - lag;
            let sum: f64 = (0..pairs)
                .map(|t| {
                    fluctuations[t]
                        .iter()
                        .zip(&fluctuations[t + lag])
                        .map(|(a, b)| a * b)
                        .sum::<f64>()
                })
                .sum();
            sum / pairs as f64
        })
        .collect();
    let zero = correlation[0];
    correlation
        .iter()
        .map(|c| if zero > 0.0 { c / zero } else { 0.0 })
        .collect()
}

/// The integral of a normalised correlation (lags in frames) up to its first zero, by the
/// trapezoidal rule with the zero crossing interpolated linearly; in frames. `None` if the
/// correlation never reaches zero within the lags given.
pub fn integral_time_scale(correlation: &[f64]) -> Option<f64> {
    let mut integral = 0.0;
    for pair in correlation.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if b <= 0.0 {
            let fraction = a / (a - b);
            return Some(integral + 0.5 * a * fraction);
        }
        integral += 0.5 * (a + b);
    }
    None
}

/// The first lag (in frames, interpolated linearly) at which a normalised correlation falls to
/// `level`, e.g. `1/e` for the e-folding time; `None` if it stays above.
pub fn first_crossing(correlation: &[f64], level: f64) -> Option<f64> {
    correlation
        .windows(2)
        .enumerate()
        .find(|(_, pair)| pair[1] <= level)
        .map(|(lag, pair)| lag as f64 + (pair[0] - level) / (pair[0] - pair[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_time_scale_of_a_shear_wave() {
        // u = sin(y), v = 0 at the rows y_i: W = (sin(y − h) − sin(y + h))/h = −2 sin(h) cos(y)/h,
        // rms √2·sin(h)/h.
        let n = 32;
        let h = std::f64::consts::TAU / n as f64;
        let mut frame = vec![0.0; 2 * n * n];
        for i in 0..n {
            for j in 0..n {
                frame[i * n + j] = (i as f64 * h).sin();
            }
        }
        let want = 1.0 / (2f64.sqrt() * h.sin() / h) / 0.02;
        let got = paper_time_scale_steps(&[frame.clone(), frame], n, 0.02);
        assert!((got - want).abs() < 1e-9 * want, "{got} vs {want}");
    }

    #[test]
    fn time_scale_of_a_linear_decay_and_of_a_cosine() {
        // C(τ) = 1 − τ/10: the integral to the zero at τ = 10 is 5.
        let linear: Vec<f64> = (0..=20).map(|t| 1.0 - t as f64 / 10.0).collect();
        assert!((integral_time_scale(&linear).expect("zero") - 5.0).abs() < 1e-12);
        assert_eq!(integral_time_scale(&[1.0, 0.9, 0.8]), None);
        assert!((first_crossing(&linear, 0.25).expect("crossing") - 7.5).abs() < 1e-12);
        assert_eq!(first_crossing(&[1.0, 0.9, 0.8], 0.5), None);
        // Frames cos(ωt)·field: the normalised correlation is ≈ cos(ω τ) (mean removed).
        let frames: Vec<Vec<f64>> = (0..400)
            .map(|t| {
                let a = (0.1 * t as f64).cos();
                vec![a, -2.0 * a, 0.5 * a]
            })
            .collect();
        let c = autocorrelation(&frames, 40);
        assert!((c[0] - 1.0).abs() < 1e-12);
        assert!((c[10] - 1f64.cos()).abs() < 0.02, "{}", c[10]);
        let scale = integral_time_scale(&c).expect("zero");
        // ∫₀^{π/2} cos(s) ds / 0.1 = 10 frames.
        assert!((scale - 10.0).abs() < 0.3, "{scale}");
        assert!((vorticity_rms(&[vec![3.0, -3.0], vec![3.0, 3.0]]) - 3.0).abs() < 1e-12);
    }
}
