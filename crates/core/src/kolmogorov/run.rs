//! What names a run of the Kolmogorov ground truth and its frames: the seeds, the frame
//! spacing, the [`Run`] (solver and seed, as the shipped files' header encodes it), how the fine
//! truth becomes coarse frames ([`Sampling`]), and where the tests of a long run start.

use super::config::{check_reynolds, COARSE_RESOLUTION, FINE_DT, FINE_RESOLUTION, TRAIN_REYNOLDS};
use super::spectral::SpectralSolver;
use super::staggered::{coarse_from_fine, coarse_point_sampled};
use super::KolmogorovError;

/// Fine steps per coarse frame (Δt = 0.02 = 4 × 0.005).
pub const FRAME_EVERY: usize = 4;
/// Seed offset of the training fields ([`training_seed`]).
pub const TRAIN_SEED: u64 = 1000;
/// Seed offset of the test runs (test size `s`: `TEST_SEED + test_seed + 100·s`, one run per
/// size).
pub const TEST_SEED: u64 = 2000;
/// Coarse frames between consecutive test starts of one long run (t = 25: six tests from
/// t = 50 start at t = 50, 75, …, 175, within the paper's t ≈ 54–201).
pub const TEST_SPACING_FRAMES: usize = 1250;
/// Coarse velocity values per frame: `2·32²`.
pub fn frame_values() -> usize {
    2 * COARSE_RESOLUTION * COARSE_RESOLUTION
}

/// How the 128² truth becomes the 32² staggered velocity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sampling {
    /// Exact face averages ([`coarse_from_fine`]; discretely divergence-free).
    #[default]
    FaceAverage,
    /// The official code's point sampling by linear interpolation ([`coarse_point_sampled`]).
    PointSampled,
}

impl Sampling {
    /// The coarse velocity `[2·32²]` of the fine vorticity `[128²]`.
    pub(super) fn coarse(self, fine_vorticity: &[f64]) -> Result<Vec<f64>, KolmogorovError> {
        match self {
            Self::FaceAverage => {
                coarse_from_fine(fine_vorticity, FINE_RESOLUTION, COARSE_RESOLUTION)
            }
            Self::PointSampled => {
                coarse_point_sampled(fine_vorticity, FINE_RESOLUTION, COARSE_RESOLUTION)
            }
        }
    }
}

/// A run of the ground truth: its solver (grid side, Re, time step, forcing amplitude) and the
/// seed of its initial field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Grid side N of the fine solver.
    pub resolution: usize,
    /// Reynolds number.
    pub reynolds: f64,
    /// Fine time step.
    pub dt: f64,
    /// Forcing amplitude.
    pub forcing: f64,
    /// Seed of the initial vorticity field.
    pub seed: u64,
}

impl Run {
    /// Run `seed` of the study's ground truth at `reynolds` (128², dt 0.005, unit forcing):
    /// the identity [`SpectralSolver::new`] gives, without building the solver (the page's
    /// estimate asks for these on its main thread).
    pub fn study(reynolds: f64, seed: u64) -> Result<Self, KolmogorovError> {
        Ok(Self {
            resolution: FINE_RESOLUTION,
            reynolds: check_reynolds(reynolds)?,
            dt: FINE_DT,
            forcing: 1.0,
            seed,
        })
    }

    /// The identity of run `seed` on `solver`.
    pub(super) fn of(solver: &SpectralSolver, seed: u64) -> Self {
        Self {
            resolution: solver.resolution(),
            reynolds: solver.reynolds(),
            dt: solver.dt(),
            forcing: solver.forcing(),
            seed,
        }
    }

    /// Bytes of [`Run::encode`]: `u32` N, `f64` Re, `f64` fine dt, `f64` forcing, `u64` seed.
    pub const BYTES: usize = 4 + 8 * 3 + 8;

    /// Appends the run's little-endian bytes (the header of the shipped files) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.resolution as u32).to_le_bytes());
        for value in [self.reynolds, self.dt, self.forcing] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&self.seed.to_le_bytes());
    }

    /// The run whose [`Run::encode`] bytes start `bytes`, or `None` when they are too short.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let bytes = bytes.get(..Self::BYTES)?;
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        Some(Self {
            resolution: u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as usize,
            reynolds: f64::from_bits(u64_at(4)),
            dt: f64::from_bits(u64_at(12)),
            forcing: f64::from_bits(u64_at(20)),
            seed: u64_at(28),
        })
    }

    /// The solver of this run.
    pub(super) fn solver(&self) -> Result<SpectralSolver, KolmogorovError> {
        SpectralSolver::unforced(self.resolution, self.reynolds, self.dt)?
            .with_forcing(self.forcing)
    }
}

/// The seed of the training run at `reynolds`, trajectory `index` of its study: one of the
/// study's own Reynolds numbers keeps its run (`TRAIN_SEED` + its place in [`TRAIN_REYNOLDS`]),
/// so a study of some of them reuses their runs and the shipped data; any other `TRAIN_SEED +
/// index`.
pub fn training_seed(reynolds: f64, index: usize) -> u64 {
    let place = TRAIN_REYNOLDS.iter().position(|&re| re == reynolds);
    TRAIN_SEED + place.unwrap_or(index) as u64
}

/// The coarse frame at which test `test` of a long run starts: `start + test·`
/// [`TEST_SPACING_FRAMES`].
pub fn test_start(start: usize, test: usize) -> usize {
    start + test * TEST_SPACING_FRAMES
}
