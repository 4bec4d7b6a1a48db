//! Initial conditions: smooth random states of a few low Fourier modes, seeded (ChaCha8, the
//! same draws natively and in wasm).
//!
//! `u0(x) = A · Σ_{k=1..K} a_k sin(kx + φ_k) / Σ_k a_k` with `A ~ U[0.5, 1]`, `a_k ~ U[0, 1]`,
//! `φ_k ~ U[0, 2π)`: zero mean, `max |u0| ≤ A ≤ 1`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::grid::Grid;

/// Fourier modes `k = 1..=MODES` of an initial condition.
pub const MODES: usize = 3;
/// Range of the overall amplitude `A`.
pub const AMPLITUDE: (f64, f64) = (0.5, 1.0);

/// One random initial condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BurgersIc {
    /// Overall amplitude `A` (the bound of `|u0|`).
    pub amplitude: f64,
    /// `(a_k, φ_k)` of the modes `k = 1..=MODES`.
    pub modes: [(f64, f64); MODES],
}

impl BurgersIc {
    /// Draws `A`, then `(a_k, φ_k)` for `k = 1..=MODES`, from `rng`.
    pub fn draw(rng: &mut ChaCha8Rng) -> Self {
        let amplitude = rng.random_range(AMPLITUDE.0..=AMPLITUDE.1);
        let modes = std::array::from_fn(|_| {
            let weight = rng.random_range(0.0..=1.0);
            let phase = rng.random_range(0.0..std::f64::consts::TAU);
            (weight, phase)
        });
        Self { amplitude, modes }
    }

    /// `count` successive draws from `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn family(seed: u64, count: usize) -> Vec<Self> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..count).map(|_| Self::draw(&mut rng)).collect()
    }

    /// The state at the points of `grid`; shape `[N]`.
    pub fn state(&self, grid: &Grid) -> Vec<f64> {
        let total: f64 = self.modes.iter().map(|(a, _)| a).sum::<f64>().max(1e-12);
        grid.points()
            .iter()
            .map(|&x| {
                let sum: f64 = self
                    .modes
                    .iter()
                    .enumerate()
                    .map(|(k, (a, phase))| a * ((k + 1) as f64 * x + phase).sin())
                    .sum();
                self.amplitude * sum / total
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_is_seeded_bounded_and_zero_mean() {
        let family = BurgersIc::family(3, 20);
        assert_eq!(family, BurgersIc::family(3, 20));
        assert_ne!(family, BurgersIc::family(4, 20));
        let grid = Grid::new(48).expect("grid");
        for ic in &family {
            assert!((AMPLITUDE.0..=AMPLITUDE.1).contains(&ic.amplitude));
            let u = ic.state(&grid);
            let mean = u.iter().sum::<f64>() / 48.0;
            assert!(mean.abs() < 1e-14, "{mean}");
            assert!(u.iter().all(|v| v.abs() <= ic.amplitude + 1e-12));
            assert!(u.iter().map(|v| v.abs()).fold(0.0, f64::max) > 0.1);
        }
        // Coarse points are every fourth fine point.
        let fine = family[0].state(&Grid::new(192).expect("grid"));
        let coarse = family[0].state(&grid);
        for (j, value) in coarse.iter().enumerate() {
            assert!((value - fine[4 * j]).abs() < 1e-14);
        }
    }
}
