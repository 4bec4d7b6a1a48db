//! Solver configuration: scheme, domain, resolution, sub-step and sub-steps per learned step.

use serde::{Deserialize, Serialize};

use super::error::KsError;
use super::grid::Grid;

/// An exponential time-differencing scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Exponential Euler, first order: the study's coarse solver.
    Etd1,
    /// Exponential Runge–Kutta 2: the study's ground truth.
    Etrk2,
    /// Cox–Matthews ETDRK4 with Kassam–Trefethen coefficients (f64 reference only).
    Etdrk4,
}

impl Scheme {
    /// All schemes, in order of accuracy.
    pub const ALL: [Scheme; 3] = [Scheme::Etd1, Scheme::Etrk2, Scheme::Etdrk4];

    /// Lower-case name as used on the command line and in JSON (`"etd1"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Etd1 => "etd1",
            Scheme::Etrk2 => "etrk2",
            Scheme::Etdrk4 => "etdrk4",
        }
    }

    /// Parses [`Scheme::name`]; `None` for anything else.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scheme| scheme.name() == name)
    }
}

/// The study's sub-step `h`.
pub const DEFAULT_SUBSTEP: f64 = 0.5;
/// The study's sub-steps per learned step ("double step": Δt = 1 per network step).
pub const DEFAULT_SUBSTEPS: usize = 2;
/// The study's resolution.
pub const DEFAULT_RESOLUTION: usize = 48;
/// The study's base domain parameter `L` (s = 1).
pub const BASE_DOMAIN_SIZE: f64 = 8.0;

/// Accepted domain scales `s` (L = 8·s) of training and test cases.
pub const SCALE_RANGE: std::ops::RangeInclusive<f64> = 0.25..=4.0;

/// Everything a KS solver needs. One learned step advances `substep · substeps` time units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KsConfig {
    /// The time integrator.
    pub scheme: Scheme,
    /// Domain parameter `L` (= 8·s).
    pub domain_size: f64,
    /// Grid points `N` (≥ 8).
    pub resolution: usize,
    /// Sub-step `h` (time units).
    pub substep: f64,
    /// Sub-steps per learned step `K`.
    pub substeps: usize,
}

impl Default for KsConfig {
    fn default() -> Self {
        Self {
            scheme: Scheme::Etrk2,
            domain_size: BASE_DOMAIN_SIZE,
            resolution: DEFAULT_RESOLUTION,
            substep: DEFAULT_SUBSTEP,
            substeps: DEFAULT_SUBSTEPS,
        }
    }
}

impl KsConfig {
    /// The study's configuration for `scheme` at scale `s` (L = 8·s).
    pub fn paper(scheme: Scheme, scale: f64) -> Self {
        Self {
            scheme,
            domain_size: BASE_DOMAIN_SIZE * scale,
            ..Self::default()
        }
    }

    /// Floating-point operations of one learned step of the matrix-form tensor solver for
    /// `batch` rows: matmuls `2·batch·N²` each plus the elementwise products and sums (a pure
    /// count: nothing is built).
    pub fn flops_per_step(&self, batch: usize) -> f64 {
        let n = self.resolution as f64;
        let b = batch as f64;
        let (matmuls, elementwise) = match self.scheme {
            Scheme::Etd1 => (2.0, 2.0),
            _ => (3.0, 5.0),
        };
        self.substeps as f64 * (matmuls * 2.0 * b * n * n + elementwise * b * n)
    }

    /// Checks every field; the grid it describes on success.
    pub fn validate(&self) -> Result<Grid, KsError> {
        if !(self.substep.is_finite() && self.substep > 0.0) {
            return Err(KsError::BadSubstep(self.substep));
        }
        if self.substeps == 0 {
            return Err(KsError::NoSubsteps);
        }
        Grid::new(self.resolution, self.domain_size)
    }

    /// The grid (unchecked fields are checked by [`KsConfig::validate`]).
    pub fn grid(&self) -> Grid {
        Grid {
            resolution: self.resolution,
            domain_size: self.domain_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_names_round_trip() {
        for scheme in Scheme::ALL {
            assert_eq!(Scheme::from_name(scheme.name()), Some(scheme));
        }
        assert_eq!(Scheme::from_name("rk4"), None);
    }

    #[test]
    fn default_is_the_study() {
        let config = KsConfig::default();
        assert_eq!(config.resolution, 48);
        assert_eq!(config.substep, 0.5);
        assert_eq!(config.substeps, 2);
        assert!(config.validate().is_ok());
        assert!(KsConfig {
            substeps: 0,
            ..config
        }
        .validate()
        .is_err());
    }
}
