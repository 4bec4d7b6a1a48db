//! The Burgers study's constants, written once, and the solver configuration.
//!
//! One learned step advances [`TIME_STEP`]. The truth is ETDRK4 on [`FINE_RESOLUTION`] points
//! with [`FINE_SUBSTEPS`] sub-steps per learned step, point-sampled onto the
//! [`COARSE_RESOLUTION`]-point grid; the coarse solver is ETD1 with one step of Δt there.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::error::BurgersError;
use super::grid::Grid;

/// Grid points of the learned state (the study's N).
pub const COARSE_RESOLUTION: usize = 48;
/// Grid points of the ground-truth solver (a multiple of [`COARSE_RESOLUTION`]).
pub const FINE_RESOLUTION: usize = 384;
/// Time advanced by one learned step, Δt.
pub const TIME_STEP: f64 = 0.1;
/// ETDRK4 sub-steps of the ground truth per learned step (h = Δt/10 = 0.01).
pub const FINE_SUBSTEPS: usize = 10;

/// Accepted viscosities ν natively: the fine grid resolves the fronts down to ν = 0.01, and
/// the coarse ETD1 stays stable there.
pub const VISCOSITY_RANGE: RangeInclusive<f64> = 0.01..=0.2;
/// Accepted viscosities ν in the browser.
pub const BROWSER_VISCOSITY_RANGE: RangeInclusive<f64> = 0.01..=0.05;
/// Training viscosities: where the 48-point grid under-resolves the fronts (above ν ≈ 0.05 the
/// coarse solver alone is within 1e-4 of the truth and there is little to correct).
pub const TRAIN_VISCOSITIES: [f64; 4] = [0.01, 0.015, 0.02, 0.03];
/// Test viscosities: interpolation {0.0125, 0.025}, extrapolation {0.04}.
pub const TEST_VISCOSITIES: [f64; 3] = [0.0125, 0.025, 0.04];
/// The network's parameter channel is `ν / VISCOSITY_SCALE` (O(1) over the training range).
pub const VISCOSITY_SCALE: f64 = 0.02;

/// Training initial conditions per viscosity (the same draws for every ν).
pub const TRAIN_ICS: usize = 8;
/// Seed of the training initial conditions.
pub const TRAIN_SEED: u64 = 0xB0E6_0001;
/// Base seed of the test initial conditions (plus the evaluation's seed and the size index).
pub const TEST_SEED: u64 = 0xB0E6_1000;
/// Learned steps simulated and dropped before the first kept frame (t = 1: the fronts formed).
pub const WARMUP_STEPS: usize = 10;
/// Frames kept per training trajectory (t = 25).
pub const KEPT_FRAMES: usize = 250;
/// Test trajectories per test viscosity.
pub const TESTS_PER_VISCOSITY: usize = 5;
/// Steps of a test rollout (t = 20).
pub const ROLLOUT_STEPS: usize = 200;

/// The network term's factor in correction mode, `u' = ETD1(u) + Δt·f(u, ν)`: the network
/// predicts a rate.
pub const CORRECTION_FACTOR: f64 = TIME_STEP;

/// An exponential time-differencing scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Exponential Euler, first order: the coarse solver.
    Etd1,
    /// Cox–Matthews ETDRK4 (Kassam–Trefethen coefficients): the ground truth.
    Etdrk4,
}

impl Scheme {
    /// Lower-case name (`"etd1"`, `"etdrk4"`).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Etd1 => "etd1",
            Scheme::Etdrk4 => "etdrk4",
        }
    }
}

/// Checks `ν` against [`VISCOSITY_RANGE`].
pub fn check_viscosity(viscosity: f64) -> Result<f64, BurgersError> {
    if VISCOSITY_RANGE.contains(&viscosity) {
        Ok(viscosity)
    } else {
        Err(BurgersError::BadViscosity {
            min: *VISCOSITY_RANGE.start(),
            max: *VISCOSITY_RANGE.end(),
            got: viscosity,
        })
    }
}

/// Everything a Burgers solver needs. One call of `step` advances `substep · substeps`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BurgersConfig {
    /// The time integrator.
    pub scheme: Scheme,
    /// Viscosity ν (any positive value here; the study checks [`VISCOSITY_RANGE`]).
    pub viscosity: f64,
    /// Grid points `N` (≥ 8).
    pub resolution: usize,
    /// Sub-step `h` (time units).
    pub substep: f64,
    /// Sub-steps per step.
    pub substeps: usize,
}

impl BurgersConfig {
    /// The ground truth at `ν`: ETDRK4, [`FINE_RESOLUTION`], Δt in [`FINE_SUBSTEPS`] sub-steps.
    pub fn truth(viscosity: f64) -> Self {
        Self {
            scheme: Scheme::Etdrk4,
            viscosity,
            resolution: FINE_RESOLUTION,
            substep: TIME_STEP / FINE_SUBSTEPS as f64,
            substeps: FINE_SUBSTEPS,
        }
    }

    /// The coarse solver at `ν`: ETD1, [`COARSE_RESOLUTION`], one step of Δt.
    pub fn coarse(viscosity: f64) -> Self {
        Self {
            scheme: Scheme::Etd1,
            viscosity,
            resolution: COARSE_RESOLUTION,
            substep: TIME_STEP,
            substeps: 1,
        }
    }

    /// Checks every field; the grid it describes on success.
    pub fn validate(&self) -> Result<Grid, BurgersError> {
        if !(self.substep.is_finite() && self.substep > 0.0) {
            return Err(BurgersError::BadSubstep(self.substep));
        }
        if self.substeps == 0 {
            return Err(BurgersError::NoSubsteps);
        }
        if !(self.viscosity.is_finite() && self.viscosity > 0.0) {
            return Err(BurgersError::BadViscosity {
                min: 0.0,
                max: f64::INFINITY,
                got: self.viscosity,
            });
        }
        Grid::new(self.resolution)
    }

    /// Floating-point operations of one step of the matrix-form ETD1 for `batch` rows: two
    /// matmuls `2·batch·N²` plus the square and the sum.
    pub fn flops_per_step(&self, batch: usize) -> f64 {
        let n = self.resolution as f64;
        let b = batch as f64;
        self.substeps as f64 * (2.0 * 2.0 * b * n * n + 2.0 * b * n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_consistent() {
        assert!(FINE_RESOLUTION.is_multiple_of(COARSE_RESOLUTION));
        for nu in TRAIN_VISCOSITIES.iter().chain(&TEST_VISCOSITIES) {
            assert!(BROWSER_VISCOSITY_RANGE.contains(nu));
            assert!(check_viscosity(*nu).is_ok());
        }
        assert!(check_viscosity(0.5).is_err());
        assert!(BurgersConfig::truth(0.05).validate().is_ok());
        assert!(BurgersConfig {
            substeps: 0,
            ..BurgersConfig::coarse(0.05)
        }
        .validate()
        .is_err());
        assert!(BurgersConfig::coarse(-1.0).validate().is_err());
    }
}
