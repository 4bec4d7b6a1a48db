//! The f64 reference solver on rustfft: ETD1, ETRK2 and ETDRK4, one state `[N]` at a time.
//!
//! The state between sub-steps is real (`u = Re IFFT û`), exactly as the matrix form assumes.
//! Used to generate data (the study generated in float64) and to test the tensor path.

use super::config::{KsConfig, Scheme};
use super::error::KsError;
use super::operators::{nonlinear_factor, EtdCoefficients, Etdrk4Coefficients};
use crate::spectral1d::{self, EtdScheme};

/// A rustfft-based f64 solver for one configuration (a step is one learned step).
pub type ReferenceSolver = spectral1d::ReferenceSolver<KsConfig>;

impl ReferenceSolver {
    /// A solver for a validated `config` (`N̂(u) = −½ik FFT(u²)`).
    pub fn new(config: KsConfig) -> Result<Self, KsError> {
        let grid = config.validate()?;
        let h = config.substep;
        let scheme = match config.scheme {
            Scheme::Etd1 => {
                let EtdCoefficients { exp, phi1, .. } = EtdCoefficients::new(&grid, h);
                EtdScheme::Etd1 { exp, phi1 }
            }
            Scheme::Etrk2 => {
                let EtdCoefficients { exp, phi1, phi2 } = EtdCoefficients::new(&grid, h);
                EtdScheme::Etrk2 { exp, phi1, phi2 }
            }
            Scheme::Etdrk4 => {
                EtdScheme::Etdrk4(Etdrk4Coefficients::from_symbol(&grid.linear_symbol(), h))
            }
        };
        let factor = nonlinear_factor(&grid);
        Ok(Self::from_parts(config, config.substeps, scheme, factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::initial::train_ic;

    fn config(scheme: Scheme, resolution: usize, substep: f64, substeps: usize) -> KsConfig {
        KsConfig {
            scheme,
            domain_size: 8.0,
            resolution,
            substep,
            substeps,
        }
    }

    #[test]
    fn linear_modes_decay_as_exp_of_symbol() {
        let n = 48;
        let grid = config(Scheme::Etd1, n, 0.5, 2).grid();
        let symbol = grid.linear_symbol();
        let amplitude = 1e-9;
        for scheme in Scheme::ALL {
            let solver = ReferenceSolver::new(config(scheme, n, 0.5, 2)).expect("solver");
            for mode in [1usize, 3, 6, 10] {
                let u0: Vec<f64> = (0..n)
                    .map(|j| {
                        amplitude * (std::f64::consts::TAU * (mode * j) as f64 / n as f64).cos()
                    })
                    .collect();
                let steps = 3;
                let (states, diverged) = solver.trajectory(&u0, steps);
                assert_eq!(diverged, None);
                let growth = (symbol[mode] * steps as f64).exp();
                for (got, start) in states[steps].iter().zip(&u0) {
                    let want = start * growth;
                    assert!(
                        (got - want).abs() <= 1e-6 * amplitude * growth.max(1e-3),
                        "{scheme:?} mode {mode}: {got} vs {want}"
                    );
                }
            }
        }
    }

    /// Error at `t = horizon` against a tiny-step ETDRK4 solution, for sub-step `h`.
    fn error_at(scheme: Scheme, h: f64, horizon: f64, u0: &[f64], reference: &[f64]) -> f64 {
        let substeps = (horizon / h).round() as usize;
        let solver = ReferenceSolver::new(config(scheme, u0.len(), h, substeps)).expect("solver");
        let got = solver.step(u0);
        got.iter()
            .zip(reference)
            .map(|(g, r)| (g - r).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    #[test]
    fn measured_temporal_orders_are_1_2_4() {
        let n = 32;
        let grid = config(Scheme::Etd1, n, 0.5, 1).grid();
        let u0 = train_ic(&grid, 4).expect("ic");
        let horizon = 2.0;
        let fine = ReferenceSolver::new(config(Scheme::Etdrk4, n, horizon / 2048.0, 2048))
            .expect("solver");
        let reference = fine.step(&u0);
        for (scheme, order, coarse) in [
            (Scheme::Etd1, 1.0, 0.05),
            (Scheme::Etrk2, 2.0, 0.05),
            (Scheme::Etdrk4, 4.0, 0.1),
        ] {
            let e1 = error_at(scheme, coarse, horizon, &u0, &reference);
            let e2 = error_at(scheme, coarse / 2.0, horizon, &u0, &reference);
            let measured = (e1 / e2).log2();
            eprintln!("{scheme:?}: order {measured:.3} (errors {e1:.3e}, {e2:.3e})");
            assert!(
                (measured - order).abs() < 0.3,
                "{scheme:?}: measured order {measured} (errors {e1:e}, {e2:e})"
            );
        }
    }
}
