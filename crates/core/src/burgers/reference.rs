//! The f64 pseudo-spectral solver on rustfft: ETD1 and ETDRK4, one state `[N]` at a time.
//!
//! `û_t = −νk² û − ½ik·m(k)·FFT(u²)` with the 2/3 mask `m`; the state between sub-steps is
//! real (`u = Re IFFT û`), as the matrix form assumes. ETDRK4 on the fine grid is the ground
//! truth; ETD1 on the coarse grid is the coarse baseline and tests the tensor solver.

use super::config::{BurgersConfig, Scheme};
use super::error::BurgersError;
use super::operators::{etdrk4_coefficients, nonlinear_factor, Etd1Coefficients};
use crate::spectral1d::{self, EtdScheme};

/// A rustfft-based f64 solver for one configuration.
pub type ReferenceSolver = spectral1d::ReferenceSolver<BurgersConfig>;

impl ReferenceSolver {
    /// A solver for a validated `config` (`N̂(u) = −½ik·m(k)·FFT(u²)`).
    pub fn new(config: BurgersConfig) -> Result<Self, BurgersError> {
        let grid = config.validate()?;
        let (nu, h) = (config.viscosity, config.substep);
        let scheme = match config.scheme {
            Scheme::Etd1 => {
                let Etd1Coefficients { exp, phi1 } = Etd1Coefficients::new(&grid, nu, h);
                EtdScheme::Etd1 { exp, phi1 }
            }
            Scheme::Etdrk4 => EtdScheme::Etdrk4(etdrk4_coefficients(&grid, nu, h)),
        };
        let factor = nonlinear_factor(&grid);
        Ok(Self::from_parts(config, config.substeps, scheme, factor))
    }
}
