//! Initial conditions: the study's six training ICs, its seeded test-IC family, user states.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::error::KsError;
use super::grid::Grid;

/// `(a, b)` of the six training ICs `u0 = cos(2πx) + a·cos(2πx/L)·(1 + b·sin(2πx/L))` (docs/src/study.md).
pub const TRAIN_IC_PARAMETERS: [(f64, f64); 6] = [
    (0.1, 0.1),
    (0.1, -0.1),
    (-0.2, 0.3),
    (-0.2, -0.3),
    (0.3, 0.5),
    (0.3, -0.5),
];

/// Training IC `index` (0..6) on `grid`; shape `[N]`.
pub fn train_ic(grid: &Grid, index: usize) -> Result<Vec<f64>, KsError> {
    let &(a, b) = TRAIN_IC_PARAMETERS
        .get(index)
        .ok_or(KsError::BadTrainingIndex {
            count: TRAIN_IC_PARAMETERS.len(),
            got: index,
        })?;
    Ok(training_family(grid, a, b))
}

/// The training family's state of parameters `(a, b)` on `grid`:
/// `u0 = cos(2πx) + a·cos(2πx/L)·(1 + b·sin(2πx/L))`.
pub fn training_family(grid: &Grid, a: f64, b: f64) -> Vec<f64> {
    let tau = std::f64::consts::TAU;
    let l = grid.domain_size;
    grid.points()
        .iter()
        .map(|&x| (tau * x).cos() + a * (tau * x / l).cos() * (1.0 + b * (tau * x / l).sin()))
        .collect()
}

/// Parameters of one test IC `u0 = cos(πx) + c·cos(2πx/L)·(1 − s'·sin(2πx/L))`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestIc {
    /// `c ~ U[−0.1, 0.1]`.
    pub c: f64,
    /// `s' ~ U[−2, 2]`.
    pub s_prime: f64,
}

impl TestIc {
    /// Draws `c`, then `s'`, from `rng`.
    pub fn draw(rng: &mut ChaCha8Rng) -> Self {
        let c = rng.random_range(-0.1..=0.1);
        let s_prime = rng.random_range(-2.0..=2.0);
        Self { c, s_prime }
    }

    /// The first draw of `ChaCha8Rng::seed_from_u64(seed)` (the CLI's `paper-test:SEED`).
    pub fn from_seed(seed: u64) -> Self {
        Self::draw(&mut ChaCha8Rng::seed_from_u64(seed))
    }

    /// `count` successive draws from `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn family(seed: u64, count: usize) -> Vec<Self> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..count).map(|_| Self::draw(&mut rng)).collect()
    }

    /// The state on `grid`; shape `[N]`.
    pub fn state(&self, grid: &Grid) -> Vec<f64> {
        let pi = std::f64::consts::PI;
        let l = grid.domain_size;
        grid.points()
            .iter()
            .map(|&x| {
                (pi * x).cos()
                    + self.c
                        * (2.0 * pi * x / l).cos()
                        * (1.0 - self.s_prime * (2.0 * pi * x / l).sin())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_training_ics_match_the_formula() {
        let grid = Grid::new(48, 8.0).expect("grid");
        let tau = std::f64::consts::TAU;
        for (index, (a, b)) in TRAIN_IC_PARAMETERS.iter().enumerate() {
            let u = train_ic(&grid, index).expect("ic");
            assert_eq!(u.len(), 48);
            // x_0 = 0: u = 1 + a.
            assert!((u[0] - (1.0 + a)).abs() < 1e-15);
            // x_12 = 2: cos(4π) = 1, 2πx/L = π/2 → cos = 0.
            assert!((u[12] - 1.0).abs() < 1e-12);
            // x_3 = 0.5: cos(π) = −1, 2πx/L = π/8.
            let want = -1.0 + a * (tau / 16.0).cos() * (1.0 + b * (tau / 16.0).sin());
            assert!((u[3] - want).abs() < 1e-12);
        }
        assert!(train_ic(&grid, 6).is_err());
        let first = train_ic(&grid, 0).expect("ic");
        // x_6 = 1: cos(2π) = 1, 2πx/L = π/4.
        assert!(
            (first[6] - (1.0 + 0.1 * (tau / 8.0).cos() * (1.0 + 0.1 * (tau / 8.0).sin()))).abs()
                < 1e-12
        );
    }

    #[test]
    fn test_ics_are_seeded_and_in_range() {
        let family = TestIc::family(7, 50);
        assert_eq!(family, TestIc::family(7, 50));
        assert_ne!(family, TestIc::family(8, 50));
        assert_eq!(family[0], TestIc::from_seed(7));
        for ic in &family {
            assert!((-0.1..=0.1).contains(&ic.c));
            assert!((-2.0..=2.0).contains(&ic.s_prime));
        }
        let grid = Grid::new(48, 8.0).expect("grid");
        let ic = TestIc {
            c: 0.05,
            s_prime: 1.0,
        };
        let u = ic.state(&grid);
        assert!((u[0] - 1.05).abs() < 1e-15);
        // x_6 = 1: cos(π) = −1, 2πx/L = π/4.
        let q = std::f64::consts::FRAC_PI_4;
        assert!((u[6] - (-1.0 + 0.05 * q.cos() * (1.0 - q.sin()))).abs() < 1e-12);
    }
}
