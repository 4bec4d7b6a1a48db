//! The f64 pseudo-spectral solver of a reader's equation, one state `[n]` at a time:
//! `û_t = L̂ û + N̂(u)` advanced by ETD1, ETRK2 or Cox–Matthews ETDRK4 (the stages in spectral
//! space, the Kassam–Trefethen form of [`crate::spectral1d`], with complex
//! coefficients), the state real between sub-steps (`u = Re IFFT û`) as the matrix form of the
//! coarse solver assumes. The truth is [`Solver::truth`] (the equation's integrator and
//! sub-steps on `N·fine` points), the coarse solver [`Solver::coarse`] (ETD1, `coarse`
//! sub-steps of `Δt/coarse` on `N` points).

use num_complex::Complex64;

use super::operators::{linear_symbol, NonlinearFactors, StepCoefficients};
use crate::spectral1d::Spectral1d;
use crate::types::{Equation, Integrator};

/// One solver: grid, integrator, sub-step and sub-steps per learned step.
#[derive(Debug, Clone)]
pub struct Solver {
    points: usize,
    substeps: usize,
    coefficients: StepCoefficients,
    nonlinear: NonlinearFactors,
    /// The FFT pair (its own nonlinear factor is unused).
    spectral: Spectral1d,
}

impl Solver {
    /// `substeps` sub-steps of `Δt/substeps` of `integrator` per step, on `points` points.
    pub fn new(
        equation: &Equation,
        points: usize,
        integrator: Integrator,
        substeps: usize,
    ) -> Self {
        let substeps = substeps.max(1);
        let h = equation.dt / substeps as f64;
        let symbol = linear_symbol(equation, points);
        Self {
            points,
            substeps,
            coefficients: StepCoefficients::new(integrator, &symbol, h),
            nonlinear: NonlinearFactors::new(equation, points),
            spectral: Spectral1d::new(vec![Complex64::new(0.0, 0.0); points]),
        }
    }

    /// The truth: the equation's integrator and sub-steps on its `N·fine` points.
    pub fn truth(equation: &Equation) -> Self {
        Self::new(
            equation,
            equation.fine_points(),
            equation.scheme,
            equation.substeps,
        )
    }

    /// The coarse solver: ETD1 with `coarse` sub-steps on the `N` points.
    pub fn coarse(equation: &Equation) -> Self {
        Self::new(equation, equation.points, Integrator::Etd1, equation.coarse)
    }

    /// The physics step of the residuals: the truth's integrator and sub-steps on `N` points.
    pub fn physics(equation: &Equation) -> Self {
        Self::new(
            equation,
            equation.points,
            equation.scheme,
            equation.substeps,
        )
    }

    /// Grid points.
    pub fn points(&self) -> usize {
        self.points
    }

    /// `N̂(u)` of a real state `[n]`.
    pub fn nonlinear(&self, u: &[f64]) -> Vec<Complex64> {
        let f = &self.nonlinear;
        let mut out = vec![Complex64::new(0.0, 0.0); u.len()];
        let mut add = |values: Vec<f64>, factor: &[Complex64]| {
            let spectrum = self.spectral.fft(&values);
            for ((o, z), f) in out.iter_mut().zip(spectrum).zip(factor) {
                *o += z * f;
            }
        };
        if let Some(square) = &f.square {
            add(u.iter().map(|v| v * v).collect(), square);
        }
        if let Some((derivative, factor)) = &f.gradient {
            let mut spectrum = self.spectral.fft(u);
            for (z, d) in spectrum.iter_mut().zip(derivative) {
                *z *= d;
            }
            let ux = self.spectral.real_ifft(spectrum);
            add(ux.iter().map(|v| v * v).collect(), factor);
        }
        if let Some(cube) = &f.cube {
            add(u.iter().map(|v| v * v * v).collect(), cube);
        }
        out
    }

    /// One sub-step: `u [n] → u' [n]`.
    pub fn substep(&self, u: &[f64]) -> Vec<f64> {
        let c = &self.coefficients;
        let v = self.spectral.fft(u);
        let n_v = self.nonlinear(u);
        let next = match c.integrator {
            Integrator::Etd1 => combine(&[(&c.exp, &v), (&c.phi1, &n_v)]),
            Integrator::Etrk2 => {
                let a = combine(&[(&c.exp, &v), (&c.phi1, &n_v)]);
                let n_a = self.nonlinear(&self.spectral.real_ifft(a.clone()));
                let difference: Vec<Complex64> = n_a.iter().zip(&n_v).map(|(x, y)| x - y).collect();
                let correction = combine(&[(&c.phi2, &difference)]);
                a.iter().zip(correction).map(|(a, d)| a + d).collect()
            }
            Integrator::Etdrk4 => self.etdrk4(&v, &n_v),
        };
        self.spectral.real_ifft(next)
    }

    /// Cox–Matthews ETDRK4 from `v = FFT(u)` and `N̂(u)`: the next spectrum.
    fn etdrk4(&self, v: &[Complex64], n_v: &[Complex64]) -> Vec<Complex64> {
        let c = &self.coefficients;
        let [half, q, f1, f2, f3] = &c.rk4;
        let nonlinear_of = |s: &[Complex64]| self.nonlinear(&self.spectral.real_ifft(s.to_vec()));
        let a = combine(&[(half, v), (q, n_v)]);
        let n_a = nonlinear_of(&a);
        let b = combine(&[(half, v), (q, &n_a)]);
        let n_b = nonlinear_of(&b);
        let twice: Vec<Complex64> = n_b.iter().zip(n_v).map(|(b, v)| 2.0 * b - v).collect();
        let cc = combine(&[(half, &a), (q, &twice)]);
        let n_c = nonlinear_of(&cc);
        let sum: Vec<Complex64> = n_a.iter().zip(&n_b).map(|(a, b)| 2.0 * (a + b)).collect();
        combine(&[(&c.exp, v), (f1, n_v), (f2, &sum), (f3, &n_c)])
    }

    /// One learned step (`substeps` sub-steps): `u [n] → u' [n]`.
    pub fn step(&self, u: &[f64]) -> Vec<f64> {
        let mut state = u.to_vec();
        for _ in 0..self.substeps {
            state = self.substep(&state);
        }
        state
    }

    /// `steps` steps from `u0`: `steps + 1` states (`[0]` = `u0`), stopping before the first
    /// state that is not finite or is 10⁶ times larger than `max(1, max|u0|)`; with the index of
    /// that state if it stopped early.
    pub fn trajectory(&self, u0: &[f64], steps: usize) -> (Vec<Vec<f64>>, Option<usize>) {
        let bound = 1e6 * largest(u0).max(1.0);
        let mut states = Vec::with_capacity(steps + 1);
        states.push(u0.to_vec());
        for k in 1..=steps {
            let next = self.step(&states[k - 1]);
            if !next.iter().all(|v| v.is_finite() && v.abs() <= bound) {
                return (states, Some(k));
            }
            states.push(next);
        }
        (states, None)
    }
}

/// `max |u|` (0 for an empty state).
pub fn largest(u: &[f64]) -> f64 {
    u.iter().fold(0.0, |m, v| m.max(v.abs()))
}

/// `Σ coefficient ⊙ spectrum` over the pairs, per mode.
fn combine(pairs: &[(&Vec<Complex64>, &[Complex64])]) -> Vec<Complex64> {
    let n = pairs.first().map_or(0, |(_, s)| s.len());
    (0..n)
        .map(|j| pairs.iter().map(|(c, s)| c[j] * s[j]).sum())
        .collect()
}
