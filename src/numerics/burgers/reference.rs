//! The f64 pseudo-spectral solver on rustfft: ETD1 and ETDRK4, one state `[N]` at a time.
//!
//! `û_t = −νk² û − ½ik·m(k)·FFT(u²)` with the 2/3 mask `m`; the state between sub-steps is
//! real (`u = Re IFFT û`), as the matrix form assumes. ETDRK4 on the fine grid is the ground
//! truth; ETD1 on the coarse grid is the coarse baseline and tests the tensor solver.

use std::sync::Arc;

use num_complex::Complex64;
use rustfft::{Fft, FftPlanner};

use super::config::{BurgersConfig, Scheme};
use super::error::BurgersError;
use super::operators::{etdrk4_coefficients, nonlinear_factor, Etd1Coefficients};
use crate::numerics::etd::Etdrk4Coefficients;

enum Coefficients {
    Etd1(Etd1Coefficients),
    Etdrk4(Etdrk4Coefficients),
}

/// A rustfft-based f64 solver for one configuration.
pub struct ReferenceSolver {
    config: BurgersConfig,
    coefficients: Coefficients,
    /// `−½ik·m(k)` per mode.
    factor: Vec<Complex64>,
    forward: Arc<dyn Fft<f64>>,
    inverse: Arc<dyn Fft<f64>>,
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
        let mut planner = FftPlanner::new();
        Ok(Self {
            config,
            coefficients,
            factor: nonlinear_factor(&grid),
            forward: planner.plan_fft_forward(grid.resolution),
            inverse: planner.plan_fft_inverse(grid.resolution),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &BurgersConfig {
        &self.config
    }

    /// One step (`substeps` sub-steps of `h`): `u [N] → u' [N]`.
    pub fn step(&self, u: &[f64]) -> Vec<f64> {
        let mut state = u.to_vec();
        for _ in 0..self.config.substeps {
            state = self.substep(&state);
        }
        state
    }

    /// `steps` steps from `u0`: `steps + 1` states (`[0]` = `u0`), stopping before the first
    /// non-finite state; with the index of that state if it stopped early.
    pub fn trajectory(&self, u0: &[f64], steps: usize) -> (Vec<Vec<f64>>, Option<usize>) {
        let mut states = Vec::with_capacity(steps + 1);
        states.push(u0.to_vec());
        for k in 1..=steps {
            let next = self.step(&states[k - 1]);
            if next.iter().any(|v| !v.is_finite()) {
                return (states, Some(k));
            }
            states.push(next);
        }
        (states, None)
    }

    /// One sub-step of the configured scheme: `u [N] → u' [N]`.
    pub fn substep(&self, u: &[f64]) -> Vec<f64> {
        match &self.coefficients {
            Coefficients::Etd1(c) => {
                let (u_hat, n_u) = (self.fft(u), self.nonlinear(u));
                self.real_ifft(
                    (0..u.len())
                        .map(|j| c.exp[j] * u_hat[j] + c.phi1[j] * n_u[j])
                        .collect(),
                )
            }
            Coefficients::Etdrk4(c) => self.etdrk4(c, u),
        }
    }

    fn fft(&self, u: &[f64]) -> Vec<Complex64> {
        let mut buffer: Vec<Complex64> = u.iter().map(|&v| Complex64::new(v, 0.0)).collect();
        self.forward.process(&mut buffer);
        buffer
    }

    /// `Re IFFT(û)`, normalised by `1/N`.
    fn real_ifft(&self, mut spectrum: Vec<Complex64>) -> Vec<f64> {
        self.inverse.process(&mut spectrum);
        let n = spectrum.len() as f64;
        spectrum.iter().map(|z| z.re / n).collect()
    }

    /// `N̂(u) = −½ik·m(k)·FFT(u²)` for a real state `u`.
    fn nonlinear(&self, u: &[f64]) -> Vec<Complex64> {
        let squared: Vec<f64> = u.iter().map(|v| v * v).collect();
        let mut spectrum = self.fft(&squared);
        for (z, f) in spectrum.iter_mut().zip(&self.factor) {
            *z *= f;
        }
        spectrum
    }

    /// `N̂` of the real state of a spectrum.
    fn nonlinear_of(&self, spectrum: &[Complex64]) -> Vec<Complex64> {
        self.nonlinear(&self.real_ifft(spectrum.to_vec()))
    }

    /// Cox–Matthews ETDRK4 (stages `a`, `b`, `c` kept in spectral space).
    fn etdrk4(&self, c: &Etdrk4Coefficients, u: &[f64]) -> Vec<f64> {
        let v = self.fft(u);
        let n_v = self.nonlinear(u);
        let stage = |base: &[Complex64], forcing: &[Complex64]| -> Vec<Complex64> {
            base.iter()
                .zip(forcing)
                .zip(c.exp_half.iter().zip(&c.q))
                .map(|((&b, &f), (&e, &q))| e * b + q * f)
                .collect()
        };
        let a = stage(&v, &n_v);
        let n_a = self.nonlinear_of(&a);
        let b = stage(&v, &n_a);
        let n_b = self.nonlinear_of(&b);
        let forcing: Vec<Complex64> = n_b.iter().zip(&n_v).map(|(b, v)| 2.0 * b - v).collect();
        let n_c = self.nonlinear_of(&stage(&a, &forcing));
        self.real_ifft(
            (0..u.len())
                .map(|j| {
                    c.exp[j] * v[j]
                        + c.f1[j] * n_v[j]
                        + 2.0 * c.f2[j] * (n_a[j] + n_b[j])
                        + c.f3[j] * n_c[j]
                })
                .collect(),
        )
    }
}
