//! The shared machinery of the 1-D f64 pseudo-spectral reference solvers (KS, Burgers):
//! `û_t = L̂ û + N̂(u)` with `N̂(u) = factor ⊙ FFT(u²)` (the system's `−½ik`, masked or not), the
//! FFT pair, exponential Euler and Cox–Matthews ETDRK4 sub-steps in the Kassam–Trefethen form,
//! and trajectories that stop at the first non-finite state. The state between sub-steps is real
//! (`u = Re IFFT û`), as the matrix forms of the tensor solvers assume.

use std::sync::Arc;

use num_complex::Complex64;
use rustfft::{Fft, FftDirection};

use super::etd::Etdrk4Coefficients;

/// An `n`-point transform: rustfft's planner, or with the `compact-fft` feature (the page's
/// build) [`compact`], which links a fraction of the planner's code (every algorithm, ≈ 150 kB of
/// wasm). Both agree to rounding.
fn plan(n: usize, direction: FftDirection) -> Arc<dyn Fft<f64>> {
    if cfg!(feature = "compact-fft") {
        compact(n, direction)
    } else {
        rustfft::FftPlanner::new().plan_fft(n, direction)
    }
}

/// An `n = 2^k · m` point transform (`m` odd) from two of rustfft's algorithms: its radix-4 FFT
/// of the `2^k` points and a direct DFT of the `m`, combined by its mixed-radix algorithm.
/// `O(n log n)` for a small odd factor (the page's 48 = 16 · 3 points), `O(n²)` at worst.
fn compact(n: usize, direction: FftDirection) -> Arc<dyn Fft<f64>> {
    use rustfft::algorithm::{Dft, MixedRadix, Radix4};
    if n <= 1 {
        return Arc::new(Dft::new(n, direction));
    }
    let power = 1 << n.trailing_zeros();
    let odd = n / power;
    let radix4: Arc<dyn Fft<f64>> = Arc::new(Radix4::new(power, direction));
    match (power, odd) {
        (_, 1) => radix4,
        (1, _) => Arc::new(Dft::new(odd, direction)),
        _ => Arc::new(MixedRadix::new(radix4, Arc::new(Dft::new(odd, direction)))),
    }
}

/// The integer modes of an `n`-point transform in FFT order `[0, 1, …, ⌈n/2⌉−1, −⌊n/2⌋, …, −1]`
/// (`numpy.fft.fftfreq(n, 1/n)`); `[n]`.
pub fn fft_modes(n: usize) -> Vec<f64> {
    let positive = n.div_ceil(2);
    (0..n)
        .map(|j| {
            if j < positive {
                j as f64
            } else {
                j as f64 - n as f64
            }
        })
        .collect()
}

/// The FFT pair of an `N`-point grid and the nonlinear factor per mode.
#[derive(Clone)]
pub struct Spectral1d {
    /// `N̂(u) = factor ⊙ FFT(u²)`, per mode.
    factor: Vec<Complex64>,
    forward: Arc<dyn Fft<f64>>,
    inverse: Arc<dyn Fft<f64>>,
}

impl std::fmt::Debug for Spectral1d {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spectral1d")
            .field("points", &self.factor.len())
            .finish_non_exhaustive()
    }
}

impl Spectral1d {
    /// The machinery of a grid of `factor.len()` points.
    pub fn new(factor: Vec<Complex64>) -> Self {
        let n = factor.len();
        Self {
            forward: plan(n, FftDirection::Forward),
            inverse: plan(n, FftDirection::Inverse),
            factor,
        }
    }

    /// `FFT(u)` of a real state `[N]`.
    pub fn fft(&self, u: &[f64]) -> Vec<Complex64> {
        let mut buffer: Vec<Complex64> = u.iter().map(|&v| Complex64::new(v, 0.0)).collect();
        self.forward.process(&mut buffer);
        buffer
    }

    /// `Re IFFT(û)`, normalised by `1/N`.
    pub fn real_ifft(&self, mut spectrum: Vec<Complex64>) -> Vec<f64> {
        self.inverse.process(&mut spectrum);
        let n = spectrum.len() as f64;
        spectrum.iter().map(|z| z.re / n).collect()
    }

    /// `N̂(u) = factor ⊙ FFT(u²)` for a real state `u`.
    pub fn nonlinear(&self, u: &[f64]) -> Vec<Complex64> {
        let squared: Vec<f64> = u.iter().map(|v| v * v).collect();
        let mut spectrum = self.fft(&squared);
        for (z, f) in spectrum.iter_mut().zip(&self.factor) {
            *z *= f;
        }
        spectrum
    }

    /// Exponential Euler in spectral space: `â = e^{L̂h} û + φ₁ N̂(u)`, with `N̂(u)`.
    pub fn etd1_spectrum(
        &self,
        exp: &[f64],
        phi1: &[f64],
        u: &[f64],
    ) -> (Vec<Complex64>, Vec<Complex64>) {
        let u_hat = self.fft(u);
        let n_u = self.nonlinear(u);
        let a_hat = (0..u.len())
            .map(|j| exp[j] * u_hat[j] + n_u[j] * phi1[j])
            .collect();
        (a_hat, n_u)
    }

    /// One exponential Euler sub-step: `u' = Re IFFT(e^{L̂h} û + φ₁ N̂(u))`.
    pub fn etd1(&self, exp: &[f64], phi1: &[f64], u: &[f64]) -> Vec<f64> {
        self.real_ifft(self.etd1_spectrum(exp, phi1, u).0)
    }

    /// One ETRK2 sub-step: exponential Euler `â`, then `û' = â + (N̂(a) − N̂(u)) φ₂`.
    pub fn etrk2(&self, exp: &[f64], phi1: &[f64], phi2: &[f64], u: &[f64]) -> Vec<f64> {
        let (a_hat, n_u) = self.etd1_spectrum(exp, phi1, u);
        let a = self.real_ifft(a_hat.clone());
        let n_a = self.nonlinear(&a);
        let next = (0..u.len())
            .map(|j| a_hat[j] + (n_a[j] - n_u[j]) * phi2[j])
            .collect();
        self.real_ifft(next)
    }

    /// Cox–Matthews ETDRK4 in the Kassam–Trefethen form (stages kept in spectral space).
    pub fn etdrk4(&self, c: &Etdrk4Coefficients, u: &[f64]) -> Vec<f64> {
        let n = u.len();
        let v = self.fft(u);
        let nonlinear_of =
            |spectrum: &[Complex64]| self.nonlinear(&self.real_ifft(spectrum.to_vec()));
        let n_v = self.nonlinear(u);
        let a: Vec<Complex64> = (0..n)
            .map(|j| c.exp_half[j] * v[j] + c.q[j] * n_v[j])
            .collect();
        let n_a = nonlinear_of(&a);
        let b: Vec<Complex64> = (0..n)
            .map(|j| c.exp_half[j] * v[j] + c.q[j] * n_a[j])
            .collect();
        let n_b = nonlinear_of(&b);
        let cc: Vec<Complex64> = (0..n)
            .map(|j| c.exp_half[j] * a[j] + c.q[j] * (2.0 * n_b[j] - n_v[j]))
            .collect();
        let n_c = nonlinear_of(&cc);
        let next = (0..n)
            .map(|j| {
                c.exp[j] * v[j]
                    + n_v[j] * c.f1[j]
                    + 2.0 * (n_a[j] + n_b[j]) * c.f2[j]
                    + n_c[j] * c.f3[j]
            })
            .collect();
        self.real_ifft(next)
    }
}

/// An exponential time-differencing scheme with its coefficients for one `(L̂, h)`.
pub enum EtdScheme {
    /// Exponential Euler: `e^{L̂h}` and `φ₁` per mode.
    Etd1 {
        /// `e^{L̂h}`.
        exp: Vec<f64>,
        /// `φ₁`.
        phi1: Vec<f64>,
    },
    /// ETRK2 (exponential Euler, then the `φ₂` correction).
    Etrk2 {
        /// `e^{L̂h}`.
        exp: Vec<f64>,
        /// `φ₁`.
        phi1: Vec<f64>,
        /// `φ₂`.
        phi2: Vec<f64>,
    },
    /// Cox–Matthews ETDRK4.
    Etdrk4(Etdrk4Coefficients),
}

impl EtdScheme {
    /// One sub-step `h`: `u [N] → u' [N]`.
    pub fn substep(&self, spectral: &Spectral1d, u: &[f64]) -> Vec<f64> {
        match self {
            EtdScheme::Etd1 { exp, phi1 } => spectral.etd1(exp, phi1, u),
            EtdScheme::Etrk2 { exp, phi1, phi2 } => spectral.etrk2(exp, phi1, phi2, u),
            EtdScheme::Etdrk4(c) => spectral.etdrk4(c, u),
        }
    }
}

/// A rustfft-based f64 solver of one configuration `C`: `substeps` sub-steps of its
/// [`EtdScheme`] per step, one state `[N]` at a time.
pub struct ReferenceSolver<C> {
    config: C,
    substeps: usize,
    scheme: EtdScheme,
    /// The FFT pair and the system's `N̂(u)`.
    spectral: Spectral1d,
}

impl<C: std::fmt::Debug> std::fmt::Debug for ReferenceSolver<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceSolver")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<C> ReferenceSolver<C> {
    /// The solver of a validated `config` taking `substeps` sub-steps of `scheme` per step, with
    /// the system's `N̂(u) = factor ⊙ FFT(u²)`.
    pub fn from_parts(
        config: C,
        substeps: usize,
        scheme: EtdScheme,
        factor: Vec<Complex64>,
    ) -> Self {
        Self {
            config,
            substeps,
            scheme,
            spectral: Spectral1d::new(factor),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &C {
        &self.config
    }

    /// One step (`substeps` sub-steps of `h`): `u [N] → u' [N]`.
    pub fn step(&self, u: &[f64]) -> Vec<f64> {
        repeat(|v| self.substep(v), u, self.substeps)
    }

    /// `steps` steps from `u0`: `steps + 1` states (`[0]` = `u0`), stopping before the first
    /// non-finite state (which is not included); with the index of that state if it stopped
    /// early.
    pub fn trajectory(&self, u0: &[f64], steps: usize) -> (Vec<Vec<f64>>, Option<usize>) {
        trajectory(|u| self.step(u), u0, steps)
    }

    /// One sub-step of the configured scheme: `u [N] → u' [N]`.
    pub fn substep(&self, u: &[f64]) -> Vec<f64> {
        self.scheme.substep(&self.spectral, u)
    }
}

/// `substeps` applications of `substep` to `u`.
fn repeat(substep: impl Fn(&[f64]) -> Vec<f64>, u: &[f64], substeps: usize) -> Vec<f64> {
    let mut state = u.to_vec();
    for _ in 0..substeps {
        state = substep(&state);
    }
    state
}

/// `steps` applications of `step` from `u0`: `steps + 1` states (`[0]` = `u0`), stopping before
/// the first non-finite state; with the index of that state if it stopped early.
fn trajectory(
    step: impl Fn(&[f64]) -> Vec<f64>,
    u0: &[f64],
    steps: usize,
) -> (Vec<Vec<f64>>, Option<usize>) {
    let mut states = Vec::with_capacity(steps + 1);
    states.push(u0.to_vec());
    for k in 1..=steps {
        let next = step(&states[k - 1]);
        if next.iter().any(|v| !v.is_finite()) {
            return (states, Some(k));
        }
        states.push(next);
    }
    (states, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compact transform (the page's `compact-fft` build) and the planner's agree to rounding
    /// on the grids the systems use and on odd, prime and tiny sizes, both ways.
    #[test]
    fn the_compact_fft_agrees_with_the_planner() {
        for n in [1, 2, 3, 7, 32, 48, 64, 96, 100, 128] {
            let signal: Vec<Complex64> = (0..n)
                .map(|i| {
                    Complex64::new(
                        (0.3 * i as f64).sin() + 0.1 * i as f64,
                        (1.7 * i as f64).cos(),
                    )
                })
                .collect();
            for direction in [FftDirection::Forward, FftDirection::Inverse] {
                let mut direct = signal.clone();
                compact(n, direction).process(&mut direct);
                let mut planned = signal.clone();
                rustfft::FftPlanner::new()
                    .plan_fft(n, direction)
                    .process(&mut planned);
                let scale = planned.iter().map(|z| z.norm()).fold(0.0, f64::max);
                let worst = direct
                    .iter()
                    .zip(&planned)
                    .map(|(a, b)| (a - b).norm())
                    .fold(0.0, f64::max);
                assert!(
                    worst <= 1e-12 * scale,
                    "n = {n}, {direction:?}: differ by {worst:e} (scale {scale:e})"
                );
            }
        }
    }
}
