//! A seeded family of smooth random 1-D states of a few low Fourier modes (ChaCha8: the same
//! draws natively and in wasm), the initial states of viscous Burgers and of a reader's
//! equation:
//!
//! `u0(θ) = A · Σ_{m=1..M} a_m sin(m·θ + φ_m) / Σ_m a_m`, `A ~ U[0.5, 1]`, `a_m ~ U[0, 1]`,
//! `φ_m ~ U[0, 2π)`, `M = 3`: zero mean, `max |u0| ≤ A ≤ 1`. Written in the angle `θ ∈ [0, 2π)`
//! so one draw is the same function on every grid and every domain length.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fourier modes `m = 1..=MODES` of a state.
pub const MODES: usize = 3;
/// Range of the overall amplitude `A`.
pub const AMPLITUDE: (f64, f64) = (0.5, 1.0);

/// One random state of the family.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomModes {
    /// Overall amplitude `A` (the bound of `|u0|`).
    pub amplitude: f64,
    /// `(a_m, φ_m)` of the modes `m = 1..=MODES`.
    pub modes: [(f64, f64); MODES],
}

impl RandomModes {
    /// Draws `A`, then `(a_m, φ_m)` for `m = 1..=MODES`, from `rng`.
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

    /// Draw `index` of the family of `seed`.
    pub fn nth(seed: u64, index: usize) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Self::draw(&mut rng);
        for _ in 0..index {
            state = Self::draw(&mut rng);
        }
        state
    }

    /// The state at the angles `θ` (radians); shape `[angles]`.
    pub fn at(&self, angles: &[f64]) -> Vec<f64> {
        let total: f64 = self.modes.iter().map(|(a, _)| a).sum::<f64>().max(1e-12);
        angles
            .iter()
            .map(|&theta| {
                let sum: f64 = self
                    .modes
                    .iter()
                    .enumerate()
                    .map(|(m, (a, phase))| a * ((m + 1) as f64 * theta + phase).sin())
                    .sum();
                self.amplitude * sum / total
            })
            .collect()
    }

    /// The state on `points` equispaced points `θ_j = 2π·j/points`; shape `[points]`.
    pub fn state(&self, points: usize) -> Vec<f64> {
        let angles: Vec<f64> = (0..points)
            .map(|j| std::f64::consts::TAU * j as f64 / points as f64)
            .collect();
        self.at(&angles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_is_seeded_bounded_and_zero_mean() {
        let family = RandomModes::family(3, 20);
        assert_eq!(family, RandomModes::family(3, 20));
        assert_ne!(family, RandomModes::family(4, 20));
        assert_eq!(RandomModes::nth(3, 7), family[7]);
        for ic in &family {
            assert!((AMPLITUDE.0..=AMPLITUDE.1).contains(&ic.amplitude));
            let u = ic.state(48);
            let mean = u.iter().sum::<f64>() / 48.0;
            assert!(mean.abs() < 1e-14, "{mean}");
            assert!(u.iter().all(|v| v.abs() <= ic.amplitude + 1e-12));
            assert!(u.iter().map(|v| v.abs()).fold(0.0, f64::max) > 0.1);
        }
        // Coarse points are every fourth fine point.
        let fine = family[0].state(192);
        let coarse = family[0].state(48);
        for (j, value) in coarse.iter().enumerate() {
            assert!((value - fine[4 * j]).abs() < 1e-14);
        }
    }
}
