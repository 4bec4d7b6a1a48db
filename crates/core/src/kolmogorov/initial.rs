//! Initial vorticity: seeded random low-wavenumber fields and their spin-up to developed flow.

use std::f64::consts::TAU;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::config::check_resolution;
use super::error::KolmogorovError;
use super::grid::{mean, rms, sample};
use super::spectral::SpectralSolver;

/// Highest wavenumber of the study's random initial fields.
pub const DEFAULT_MAX_WAVENUMBER: usize = 4;
/// Vorticity rms of the study's random initial fields.
pub const DEFAULT_RMS: f64 = 3.0;

/// A random vorticity field `[N²]` from `ChaCha8Rng::seed_from_u64(seed)` (portable: the same
/// on every target): `Σ a_k cos(k_x x + k_y y + φ_k)` over the half plane of modes with
/// `1 ≤ max(|k_x|, |k_y|) ≤ max_wavenumber`, `a_k ~ U(−1, 1)/|k|`, `φ_k ~ U(0, 2π)` drawn in the
/// order `k_y = 0..`, `k_x = −K..=K`; mean removed and scaled to vorticity rms `target_rms`.
pub fn random_vorticity(
    n: usize,
    seed: u64,
    max_wavenumber: usize,
    target_rms: f64,
) -> Result<Vec<f64>, KolmogorovError> {
    let n = check_resolution(n)?;
    let k_max = max_wavenumber.clamp(1, n / 2 - 1) as i64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut modes = Vec::new();
    for ky in 0..=k_max {
        for kx in -k_max..=k_max {
            if ky == 0 && kx <= 0 {
                continue;
            }
            let amplitude: f64 = rng.random_range(-1.0..=1.0);
            let phase: f64 = rng.random_range(0.0..TAU);
            let norm = ((kx * kx + ky * ky) as f64).sqrt();
            modes.push((kx as f64, ky as f64, amplitude / norm, phase));
        }
    }
    let field = sample(n, |x, y| {
        modes
            .iter()
            .map(|&(kx, ky, a, phase)| a * (kx * x + ky * y + phase).cos())
            .sum()
    });
    let m = mean(&field);
    let centred: Vec<f64> = field.iter().map(|w| w - m).collect();
    let scale = target_rms / rms(&centred).max(f64::MIN_POSITIVE);
    Ok(centred.iter().map(|w| w * scale).collect())
}

/// `vorticity` advanced by `solver` for `time` (rounded to whole steps).
pub fn spin_up(
    solver: &SpectralSolver,
    vorticity: &[f64],
    time: f64,
) -> Result<Vec<f64>, KolmogorovError> {
    let steps = (time.max(0.0) / solver.dt()).round() as usize;
    solver.advance(vorticity, steps)
}

/// A developed state `[N²]`: the seeded random field ([`DEFAULT_MAX_WAVENUMBER`],
/// [`DEFAULT_RMS`]) on `solver`'s grid spun up for `time`.
pub fn developed_state(
    solver: &SpectralSolver,
    seed: u64,
    time: f64,
) -> Result<Vec<f64>, KolmogorovError> {
    let start = random_vorticity(
        solver.resolution(),
        seed,
        DEFAULT_MAX_WAVENUMBER,
        DEFAULT_RMS,
    )?;
    spin_up(solver, &start, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_fields_are_seeded_mean_free_and_scaled() {
        let a = random_vorticity(16, 7, 4, 2.5).expect("ic");
        let b = random_vorticity(16, 7, 4, 2.5).expect("ic");
        let c = random_vorticity(16, 8, 4, 2.5).expect("ic");
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(mean(&a).abs() < 1e-12);
        assert!((rms(&a) - 2.5).abs() < 1e-12);
        assert!(random_vorticity(15, 7, 4, 2.5).is_err());
    }

    #[test]
    fn spin_up_moves_the_state_and_stays_finite() {
        let solver = SpectralSolver::new(32, 300.0, 0.02).expect("solver");
        let start = random_vorticity(32, 1, 4, 3.0).expect("ic");
        let developed = spin_up(&solver, &start, 2.0).expect("spin-up");
        assert!(developed.iter().all(|w| w.is_finite()));
        let change: f64 = developed
            .iter()
            .zip(&start)
            .map(|(a, b)| (a - b).abs())
            .sum();
        assert!(change > 1.0);
    }
}
