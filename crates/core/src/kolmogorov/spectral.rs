//! The f64 pseudo-spectral ground-truth solver (rustfft), vorticity form.
//!
//! `ω_t + u·∇ω = ν Δω + curl f`, `ν = 1/Re`, `f = (A·sin(6y), 0)` so `curl f = −6A·cos(6y)`, on
//! the N×N grid of [`super::grid`]. The velocity comes from the stream function:
//! `ω = −Δψ`, `u = ∂_y ψ`, `v = −∂_x ψ`. Products are formed on the grid and dealiased by the
//! 2/3 rule (modes with `3|k_x| ≥ N` or `3|k_y| ≥ N` are zeroed; this removes the Nyquist modes).
//!
//! Time stepping: Cox–Matthews ETDRK4 with the viscous term `−ν|k|²` integrated exactly and the
//! φ-functions evaluated by Kassam–Trefethen contour means (shared with the KS reference,
//! [`Etdrk4Coefficients::from_symbol`]). Fourth order; exact for the linear decay of
//! Taylor–Green and for steady states of linear + constant terms (the laminar Kolmogorov flow
//! stays steady to round-off). States between steps are spectra (unnormalised forward FFTs,
//! `[N²]` complex, index `ky_index·N + kx_index`), so many steps need no transforms of the state.

use num_complex::Complex64;

use super::config::FORCING_WAVENUMBER;
use super::config::{check_dt, check_forcing, check_resolution, check_reynolds};
use super::error::KolmogorovError;
use super::fft2::Fft2;
use super::grid::{sample, wavenumber};
use crate::etd::Etdrk4Coefficients;
use crate::types::check_state;

/// The pseudo-spectral ETDRK4 solver for one `(N, Re, dt, forcing amplitude)`.
#[derive(Debug, Clone)]
pub struct SpectralSolver {
    n: usize,
    reynolds: f64,
    dt: f64,
    forcing: f64,
    fft: Fft2,
    /// `k_x` per mode `[N²]`.
    kx: Vec<f64>,
    /// `k_y` per mode `[N²]`.
    ky: Vec<f64>,
    /// `1/|k|²` (0 for the mean mode) per mode `[N²]`.
    inverse_k2: Vec<f64>,
    /// 2/3-rule mask (1 or 0) per mode `[N²]`.
    mask: Vec<f64>,
    /// Spectrum of `curl f` `[N²]`.
    forcing_hat: Vec<Complex64>,
    coefficients: Etdrk4Coefficients,
}

impl SpectralSolver {
    /// A solver on N×N with `ν = 1/reynolds` and time step `dt`, forcing amplitude 1 (which needs
    /// `N ≥ 20` so that the 2/3 rule keeps `k = 6`; see [`SpectralSolver::unforced`] below that).
    pub fn new(n: usize, reynolds: f64, dt: f64) -> Result<Self, KolmogorovError> {
        Self::build(n, reynolds, dt, 1.0)
    }

    fn build(n: usize, reynolds: f64, dt: f64, forcing: f64) -> Result<Self, KolmogorovError> {
        let n = check_resolution(n)?;
        let reynolds = check_reynolds(reynolds)?;
        let dt = check_dt(dt)?;
        let modes = n * n;
        let kx: Vec<f64> = (0..modes).map(|m| wavenumber(m % n, n)).collect();
        let ky: Vec<f64> = (0..modes).map(|m| wavenumber(m / n, n)).collect();
        let k2: Vec<f64> = kx.iter().zip(&ky).map(|(a, b)| a * a + b * b).collect();
        let inverse_k2 = k2
            .iter()
            .map(|&k| if k == 0.0 { 0.0 } else { 1.0 / k })
            .collect();
        let resolved = |k: f64| 3.0 * k.abs() < n as f64;
        let mask = kx
            .iter()
            .zip(&ky)
            .map(|(&a, &b)| if resolved(a) && resolved(b) { 1.0 } else { 0.0 })
            .collect();
        // One contour evaluation per distinct integer |k|², then looked up per mode.
        let largest = k2.iter().fold(0.0f64, |a, &b| a.max(b)) as usize;
        let nu = 1.0 / reynolds;
        let symbol: Vec<f64> = (0..=largest).map(|k| -nu * k as f64).collect();
        let distinct = Etdrk4Coefficients::from_symbol(&symbol, dt);
        let pick = |table: &[f64]| k2.iter().map(|&k| table[k as usize]).collect::<Vec<_>>();
        let coefficients = Etdrk4Coefficients {
            exp: pick(&distinct.exp),
            exp_half: pick(&distinct.exp_half),
            q: pick(&distinct.q),
            f1: pick(&distinct.f1),
            f2: pick(&distinct.f2),
            f3: pick(&distinct.f3),
        };
        let mut solver = Self {
            n,
            reynolds,
            dt,
            forcing: 0.0,
            fft: Fft2::new(n),
            kx,
            ky,
            inverse_k2,
            mask,
            forcing_hat: vec![Complex64::new(0.0, 0.0); modes],
            coefficients,
        };
        solver.set_forcing(forcing)?;
        Ok(solver)
    }

    /// A solver without forcing (any even N ≥ 8).
    pub fn unforced(n: usize, reynolds: f64, dt: f64) -> Result<Self, KolmogorovError> {
        Self::build(n, reynolds, dt, 0.0)
    }

    /// The same solver with forcing amplitude `amplitude` (`0` switches it off).
    pub fn with_forcing(mut self, amplitude: f64) -> Result<Self, KolmogorovError> {
        self.set_forcing(amplitude)?;
        Ok(self)
    }

    fn set_forcing(&mut self, amplitude: f64) -> Result<(), KolmogorovError> {
        let k = FORCING_WAVENUMBER;
        if amplitude != 0.0 && 3.0 * k >= self.n as f64 {
            return Err(KolmogorovError::ForcingUnresolved(self.n));
        }
        self.forcing = check_forcing(amplitude)?;
        let curl = sample(self.n, |_, y| -k * amplitude * (k * y).cos());
        self.forcing_hat = self.fft.forward_real(&curl);
        Ok(())
    }

    /// Grid side N.
    pub fn resolution(&self) -> usize {
        self.n
    }

    /// Reynolds number (`ν = 1/Re`).
    pub fn reynolds(&self) -> f64 {
        self.reynolds
    }

    /// Time step.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// Forcing amplitude `A`.
    pub fn forcing(&self) -> f64 {
        self.forcing
    }

    /// The spectrum of a vorticity field `[N²]` (checked: length and finiteness).
    pub fn to_spectrum(&self, vorticity: &[f64]) -> Result<Vec<Complex64>, KolmogorovError> {
        check_state(vorticity, self.n * self.n)?;
        Ok(self.fft.forward_real(vorticity))
    }

    /// The vorticity field `[N²]` of a spectrum.
    pub fn to_grid(&self, spectrum: &[Complex64]) -> Vec<f64> {
        self.fft.inverse_real(spectrum)
    }

    /// One step: vorticity `[N²]` → vorticity `[N²]`.
    pub fn step(&self, vorticity: &[f64]) -> Result<Vec<f64>, KolmogorovError> {
        self.advance(vorticity, 1)
    }

    /// `steps` steps with one transform in and one out.
    pub fn advance(&self, vorticity: &[f64], steps: usize) -> Result<Vec<f64>, KolmogorovError> {
        let mut spectrum = self.to_spectrum(vorticity)?;
        for _ in 0..steps {
            spectrum = self.step_spectrum(&spectrum);
        }
        Ok(self.to_grid(&spectrum))
    }

    /// `frames + 1` vorticity fields `[N²]` from `vorticity`, `every` steps apart (`[0]` the
    /// initial field).
    pub fn trajectory(
        &self,
        vorticity: &[f64],
        frames: usize,
        every: usize,
    ) -> Result<Vec<Vec<f64>>, KolmogorovError> {
        let mut spectrum = self.to_spectrum(vorticity)?;
        let mut states = vec![vorticity.to_vec()];
        for _ in 0..frames {
            for _ in 0..every {
                spectrum = self.step_spectrum(&spectrum);
            }
            states.push(self.to_grid(&spectrum));
        }
        Ok(states)
    }

    /// The velocity `(u, v)` at the grid points (collocated, spectrally exact), each `[N²]`.
    pub fn velocity(&self, vorticity: &[f64]) -> Result<(Vec<f64>, Vec<f64>), KolmogorovError> {
        let spectrum = self.to_spectrum(vorticity)?;
        let (u, v): (Vec<Complex64>, Vec<Complex64>) = (0..spectrum.len())
            .map(|m| {
                let psi = spectrum[m] * self.inverse_k2[m];
                (
                    psi * Complex64::new(0.0, self.ky[m]),
                    psi * Complex64::new(0.0, -self.kx[m]),
                )
            })
            .unzip();
        Ok((self.to_grid(&u), self.to_grid(&v)))
    }

    /// `N̂(ω̂) = −dealias(FFT(u ∂_xω + v ∂_yω)) + FFT(curl f)`.
    fn nonlinear(&self, spectrum: &[Complex64]) -> Vec<Complex64> {
        let modes = spectrum.len();
        let i = Complex64::new(0.0, 1.0);
        // Two real fields per complex inverse FFT: (u + i v) and (ω_x + i ω_y).
        let mut velocity = Vec::with_capacity(modes);
        let mut gradient = Vec::with_capacity(modes);
        for (m, &value) in spectrum.iter().enumerate() {
            let w = value * self.mask[m];
            let psi = w * self.inverse_k2[m];
            let u = i * self.ky[m] * psi;
            let v = -i * self.kx[m] * psi;
            velocity.push(u + i * v);
            gradient.push(i * self.kx[m] * w + i * (i * self.ky[m] * w));
        }
        self.fft.inverse(&mut velocity);
        self.fft.inverse(&mut gradient);
        let mut product: Vec<Complex64> = velocity
            .iter()
            .zip(&gradient)
            .map(|(a, b)| Complex64::new(a.re * b.re + a.im * b.im, 0.0))
            .collect();
        self.fft.forward(&mut product);
        product
            .iter()
            .enumerate()
            .map(|(m, p)| -p * self.mask[m] + self.forcing_hat[m])
            .collect()
    }

    /// One ETDRK4 step on a spectrum `[N²]`.
    pub fn step_spectrum(&self, v: &[Complex64]) -> Vec<Complex64> {
        let c = &self.coefficients;
        let modes = v.len();
        let n_v = self.nonlinear(v);
        let a: Vec<Complex64> = (0..modes)
            .map(|m| c.exp_half[m] * v[m] + c.q[m] * n_v[m])
            .collect();
        let n_a = self.nonlinear(&a);
        let b: Vec<Complex64> = (0..modes)
            .map(|m| c.exp_half[m] * v[m] + c.q[m] * n_a[m])
            .collect();
        let n_b = self.nonlinear(&b);
        let cc: Vec<Complex64> = (0..modes)
            .map(|m| c.exp_half[m] * a[m] + c.q[m] * (2.0 * n_b[m] - n_v[m]))
            .collect();
        let n_c = self.nonlinear(&cc);
        (0..modes)
            .map(|m| {
                c.exp[m] * v[m]
                    + n_v[m] * c.f1[m]
                    + 2.0 * (n_a[m] + n_b[m]) * c.f2[m]
                    + n_c[m] * c.f3[m]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::grid::rms;
    use crate::kolmogorov::initial::random_vorticity;
    use crate::metrics::max_abs_difference;
    use crate::types::StateError;

    #[test]
    fn taylor_green_decays_exactly() {
        let (n, reynolds, dt, steps) = (32, 50.0, 0.01, 100);
        let solver = SpectralSolver::unforced(n, reynolds, dt).expect("solver");
        // u = sin x cos y, v = −cos x sin y: ω = 2 sin x sin y, decaying as e^{−2νt}.
        let omega0 = sample(n, |x, y| 2.0 * x.sin() * y.sin());
        let got = solver.advance(&omega0, steps).expect("advance");
        let decay = (-2.0 / reynolds * dt * steps as f64).exp();
        let want: Vec<f64> = omega0.iter().map(|w| w * decay).collect();
        let error = max_abs_difference(&got, &want) / rms(&want);
        eprintln!("spectral Taylor–Green relative max error {error:.2e}");
        assert!(error < 1e-12, "relative error {error:e}");
        let (u, v) = solver.velocity(&got).expect("velocity");
        let u_want = sample(n, |x, y| decay * x.sin() * y.cos());
        let v_want = sample(n, |x, y| -decay * x.cos() * y.sin());
        assert!(max_abs_difference(&u, &u_want) < 1e-12);
        assert!(max_abs_difference(&v, &v_want) < 1e-12);
    }

    #[test]
    fn laminar_kolmogorov_flow_is_steady() {
        let (n, reynolds) = (32, 40.0);
        let solver = SpectralSolver::new(n, reynolds, 0.01).expect("solver");
        // u = (Re/36)·sin(6y): ω = −∂_y u = −(Re/6)·cos(6y).
        let omega0 = sample(n, |_, y| -reynolds / 6.0 * (6.0 * y).cos());
        let got = solver.advance(&omega0, 200).expect("advance");
        let change = max_abs_difference(&got, &omega0) / rms(&omega0);
        eprintln!("laminar Kolmogorov relative change after 200 steps {change:.2e}");
        assert!(change < 1e-12, "relative change {change:e}");
        let (u, _) = solver.velocity(&got).expect("velocity");
        let u_want = sample(n, |_, y| reynolds / 36.0 * (6.0 * y).sin());
        assert!(max_abs_difference(&u, &u_want) < 1e-10);
    }

    #[test]
    fn measured_temporal_order_is_4() {
        let (n, reynolds, horizon) = (32, 100.0, 0.4);
        let omega0 = random_vorticity(n, 3, 4, 4.0).expect("ic");
        let run = |steps: usize| {
            SpectralSolver::new(n, reynolds, horizon / steps as f64)
                .and_then(|s| s.advance(&omega0, steps))
                .expect("run")
        };
        let reference = run(256);
        let e1 = max_abs_difference(&run(16), &reference);
        let e2 = max_abs_difference(&run(32), &reference);
        let order = (e1 / e2).log2();
        eprintln!("spectral ETDRK4 order {order:.2} (errors {e1:.2e}, {e2:.2e})");
        assert!((order - 4.0).abs() < 0.5, "order {order} ({e1:e}, {e2:e})");
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(SpectralSolver::new(7, 100.0, 0.01).is_err());
        assert!(SpectralSolver::new(16, -1.0, 0.01).is_err());
        assert!(SpectralSolver::new(16, 100.0, 0.0).is_err());
        assert_eq!(
            SpectralSolver::new(16, 100.0, 0.01).err(),
            Some(KolmogorovError::ForcingUnresolved(16))
        );
        let solver = SpectralSolver::unforced(16, 100.0, 0.01).expect("solver");
        assert!(solver.step(&[0.0; 10]).is_err());
        let mut bad = vec![0.0; 256];
        bad[3] = f64::NAN;
        assert_eq!(
            solver.step(&bad),
            Err(KolmogorovError::State(StateError::NotFinite { index: 3 }))
        );
    }
}
