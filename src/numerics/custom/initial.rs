//! The band-limited random initial states of a reader's equation, seeded (ChaCha8: the same
//! draws natively and in wasm), written in the grid's angle `θ_j = 2π·j/n` so one draw is the
//! same function on every grid and every `L`:
//!
//! `u0(θ) = A · Σ_{m=1..M} a_m sin(m·θ + φ_m) / Σ_m a_m`, `A ~ U[0.5, 1]`, `a_m ~ U[0, 1]`,
//! `φ_m ~ U[0, 2π)`, `M = 3`: zero mean, `max |u0| ≤ A ≤ 1`, modes `k = m/L`. (The Burgers
//! system's family on `L = 1`.)

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fourier modes `m = 1..=MODES` of a state.
pub const MODES: usize = 3;
/// Range of the overall amplitude `A`.
pub const AMPLITUDE: (f64, f64) = (0.5, 1.0);
/// Seed of the training states (the same for every parameter value).
pub const TRAIN_SEED: u64 = 0xC057_0001;
/// Base seed of the test states (plus the evaluation's seed and the test size).
pub const TEST_SEED: u64 = 0xC057_1000;

/// One band-limited random state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandLimited {
    /// Overall amplitude `A` (the bound of `|u0|`).
    pub amplitude: f64,
    /// `(a_m, φ_m)` of the modes `m = 1..=MODES`.
    pub modes: [(f64, f64); MODES],
}

impl BandLimited {
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

    /// The state on `points` points; shape `[points]`.
    pub fn state(&self, points: usize) -> Vec<f64> {
        let total: f64 = self.modes.iter().map(|(a, _)| a).sum::<f64>().max(1e-12);
        (0..points)
            .map(|j| {
                let theta = std::f64::consts::TAU * j as f64 / points as f64;
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
}
