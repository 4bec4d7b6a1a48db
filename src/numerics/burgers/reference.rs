//! The f64 pseudo-spectral solver on rustfft: ETD1 and ETDRK4, one state `[N]` at a time.
//!
//! `û_t = −νk² û − ½ik·m(k)·FFT(u²)` with the 2/3 mask `m`; the state between sub-steps is
//! real (`u = Re IFFT û`), as the matrix form assumes. ETDRK4 on the fine grid is the ground
//! truth; ETD1 on the coarse grid is the coarse baseline and tests the tensor solver.

use super::config::{BurgersConfig, Scheme};
use super::error::BurgersError;
use super::operators::{etdrk4_coefficients, nonlinear_factor, Etd1Coefficients};
use crate::numerics::etd::Etdrk4Coefficients;
use crate::numerics::spectral1d::{self, Spectral1d, Substep};

/// The coefficients of Burgers's schemes for one `(ν, h)`.
pub enum Coefficients {
    /// Exponential Euler.
    Etd1(Etd1Coefficients),
    /// Cox–Matthews ETDRK4.
    Etdrk4(Etdrk4Coefficients),
}

impl Substep for Coefficients {
    fn substep(&self, spectral: &Spectral1d, u: &[f64]) -> Vec<f64> {
        match self {
            Coefficients::Etd1(c) => spectral.etd1(&c.exp, &c.phi1, u),
            Coefficients::Etdrk4(c) => spectral.etdrk4(c, u),
        }
    }
}

/// A rustfft-based f64 solver for one configuration.
pub type ReferenceSolver = spectral1d::ReferenceSolver<BurgersConfig, Coefficients>;

impl ReferenceSolver {
    /// A solver for a validated `config` (`N̂(u) = −½ik·m(k)·FFT(u²)`).
    pub fn new(config: BurgersConfig) -> Result<Self, BurgersError> {
        let grid = config.validate()?;
        let (nu, h) = (config.viscosity, config.substep);
        let coefficients = match config.scheme {
            Scheme::Etd1 => Coefficients::Etd1(Etd1Coefficients::new(&grid, nu, h)),
            Scheme::Etdrk4 => Coefficients::Etdrk4(etdrk4_coefficients(&grid, nu, h)),
        };
        let factor = nonlinear_factor(&grid);
        Ok(Self::from_parts(
            config,
            config.substeps,
            coefficients,
            factor,
        ))
    }
}
