//! The f64 pseudo-spectral solver on rustfft: ETD1 and ETDRK4, one state `[N]` at a time.
//!
//! `û_t = −νk² û − ½ik·m(k)·FFT(u²)` with the 2/3 mask `m`; the state between sub-steps is
//! real (`u = Re IFFT û`), as the matrix form assumes. ETDRK4 on the fine grid is the ground
//! truth; ETD1 on the coarse grid is the coarse baseline and tests the tensor solver.

use super::config::{BurgersConfig, Scheme};
use super::error::BurgersError;
use super::operators::{etdrk4_coefficients, nonlinear_factor, Etd1Coefficients};
use crate::numerics::etd::Etdrk4Coefficients;
use crate::numerics::spectral1d::{repeat, trajectory, Spectral1d};

enum Coefficients {
    Etd1(Etd1Coefficients),
    Etdrk4(Etdrk4Coefficients),
}

/// A rustfft-based f64 solver for one configuration.
pub struct ReferenceSolver {
    config: BurgersConfig,
    coefficients: Coefficients,
    /// The FFT pair and `N̂(u) = −½ik·m(k)·FFT(u²)`.
    spectral: Spectral1d,
}

impl std::fmt::Debug for ReferenceSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceSolver")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl ReferenceSolver {
    /// A solver for a validated `config`.
    pub fn new(config: BurgersConfig) -> Result<Self, BurgersError> {
        let grid = config.validate()?;
        let (nu, h) = (config.viscosity, config.substep);
        let coefficients = match config.scheme {
            Scheme::Etd1 => Coefficients::Etd1(Etd1Coefficients::new(&grid, nu, h)),
            Scheme::Etdrk4 => Coefficients::Etdrk4(etdrk4_coefficients(&grid, nu, h)),
        };
        Ok(Self {
            config,
            coefficients,
            spectral: Spectral1d::new(nonlinear_factor(&grid)),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &BurgersConfig {
        &self.config
    }

    /// One step (`substeps` sub-steps of `h`): `u [N] → u' [N]`.
    pub fn step(&self, u: &[f64]) -> Vec<f64> {
        repeat(|v| self.substep(v), u, self.config.substeps)
    }

    /// `steps` steps from `u0`: `steps + 1` states (`[0]` = `u0`), stopping before the first
    /// non-finite state; with the index of that state if it stopped early.
    pub fn trajectory(&self, u0: &[f64], steps: usize) -> (Vec<Vec<f64>>, Option<usize>) {
        trajectory(|u| self.step(u), u0, steps)
    }

    /// One sub-step of the configured scheme: `u [N] → u' [N]`.
    pub fn substep(&self, u: &[f64]) -> Vec<f64> {
        let spectral = &self.spectral;
        match &self.coefficients {
            Coefficients::Etd1(c) => {
                spectral.real_ifft(spectral.etd1_spectrum(&c.exp, &c.phi1, u).0)
            }
            Coefficients::Etdrk4(c) => spectral.etdrk4(c, u),
        }
    }
}
