//! The coarse solver on the staggered (MAC) grid, written with burn tensors so autodiff
//! differentiates through it: the paper's PISO by default ([`super::piso`]), or the
//! second-order projection scheme below ([`TimeScheme::SspRk3`], [`TimeScheme::Heun`]).
//!
//! Velocity tensors are `[B, 2, N, N]` (channel 0 = `u` at `(x_j, y_i + h/2)`, channel 1 = `v`
//! at `(x_j + h/2, y_i)`, rows `i = y`, columns `j = x`); pressure is `[B, 1, N, N]` at the cell
//! centres. One step of `dt`:
//!
//! * tendency `F(u) = −∇·(u⊗u) + ν Δ_h u + f`: the conservative second-order MAC advection of
//!   Harlow & Welch (`∂_x(uu)` from cell-centre averages of `u`, `∂_y(vu)` and `∂_x(uv)` from
//!   products of averages at the grid points, `∂_y(vv)` from cell-centre averages of `v`; for a
//!   discretely divergence-free field it conserves momentum and kinetic energy, Morinishi et al.
//!   1998), the 5-point Laplacian, `f = (A·sin(6y), 0)` averaged over the `u` faces (`A·sinc(3h)·sin(6(y_i + h/2))`:
//!   the unknowns are face averages, as in [`super::staggered::coarse_from_fine`]);
//! * an explicit Runge–Kutta method with a projection after each stage, SSP-RK3 or Heun
//!   ([`TimeScheme`]; Heun's RK2 can diverge on developed Re 1000 flow, see there):
//!   e.g. for Heun `u₁ = P(u + dt·F(u))`, `u' = P(½(u + u₁ + dt·F(u₁)))`, where
//!   `P w = w − G Δ_h⁻¹ D w` (`D` the divergence to cell centres, `G` the gradient to faces,
//!   `D G = Δ_h` the 5-point Laplacian, solved exactly by [`PoissonSolver`]), so `D u' = 0` to
//!   round-off. As `P` is linear and constant this is exactly the RK method applied to
//!   `u_t = P F(u)` for a divergence-free `u` (no splitting error);
//! * the reported pressure is the step's: `u' = u + dt·Σ bᵢ F(uᵢ) − dt·G p`, i.e. the
//!   RK-weighted mean of the stage pressures, zero mean.
//!
//! Periodic shifts are `Tensor::roll`; the constants (basis matrices, forcing) are built on the
//! host in f64 and uploaded in the solver's [`Precision`].

use burn::tensor::{Device, Tensor, TensorData};

use super::config::{check_dt, check_forcing, check_resolution, FORCING_WAVENUMBER};
use super::error::KolmogorovError;
use super::grid::{sample, spacing};
use super::piso_options::{PisoDiagonal, PisoGradient};
use super::poisson::PoissonSolver;
use crate::types::check_state;
use crate::types::Precision;

/// `t` at `[i + di][j + dj]` (periodic) for `[B, C, N, N]`.
pub(super) fn at(t: Tensor<4>, di: i64, dj: i64) -> Tensor<4> {
    t.roll(&[-di, -dj], &[2, 3])
}

/// The time integrator of [`CoarseSolver::step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeScheme {
    /// The paper's PISO (the default): backward-Euler advection–diffusion predictor with the
    /// advecting velocity frozen, two pressure corrections; first order, dissipative
    /// ([`super::piso`]).
    #[default]
    Piso,
    /// Shu–Osher SSP-RK3 (third order, three projections, energy-conserving advection). Its stability region
    /// holds a stretch of the imaginary axis (|z| ≤ √3), where central advection's eigenvalues
    /// lie, so the energy-conserving MAC scheme stays bounded at Re 1000 on 32².
    SspRk3,
    /// Heun's method (second order, two projections). Its amplification on the imaginary axis
    /// is `√(1 + y⁴/4) > 1`. Measured at Re 1000 on 32², dt 0.02, from down-sampled truth
    /// states (seed 0): from the state at t = 20 it diverged at step ≈ 2950; from t = 50 it
    /// stayed finite for 6000 steps but its vorticity rms climbed to 11.6 (truth 4.1, SSP-RK3
    /// 5.1). Kept for comparison and the order test.
    Heun,
}

/// The coarse solver (PISO or the MAC projection scheme) on one device and precision. Cheap to
/// clone.
#[derive(Debug, Clone)]
pub struct CoarseSolver {
    n: usize,
    dt: f64,
    h: f64,
    forcing_amplitude: f64,
    scheme: TimeScheme,
    gradient: PisoGradient,
    diagonal: PisoDiagonal,
    precision: Precision,
    device: Device,
    poisson: PoissonSolver,
    /// The forcing's `u`-face averages `A·sinc(3h)·sin(6(y_i + h/2))`, `[1, 1, N, N]`.
    forcing: Tensor<4>,
}

impl CoarseSolver {
    /// An f32 solver on N×N (N even, ≥ 8) with time step `dt`, forcing amplitude 1.
    pub fn new(n: usize, dt: f64, device: &Device) -> Result<Self, KolmogorovError> {
        Self::with_precision(n, dt, device, Precision::F32)
    }

    /// The same in `precision` (f64 for tests, where the device supports it).
    pub fn with_precision(
        n: usize,
        dt: f64,
        device: &Device,
        precision: Precision,
    ) -> Result<Self, KolmogorovError> {
        let n = check_resolution(n)?;
        let dt = check_dt(dt)?;
        let mut solver = Self {
            n,
            dt,
            h: spacing(n),
            forcing_amplitude: 0.0,
            scheme: TimeScheme::default(),
            gradient: PisoGradient::default(),
            diagonal: PisoDiagonal::default(),
            precision,
            device: device.clone(),
            poisson: PoissonSolver::new(n, device, precision),
            forcing: Tensor::zeros([1, 1, n, n], (device, precision.dtype())),
        };
        solver.set_forcing(1.0)?;
        Ok(solver)
    }

    /// The same solver with time integrator `scheme`.
    pub fn with_scheme(mut self, scheme: TimeScheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// The time integrator.
    pub fn scheme(&self) -> TimeScheme {
        self.scheme
    }

    /// The same solver with PISO's gradient `gradient` (no effect on the other schemes).
    pub fn with_gradient(mut self, gradient: PisoGradient) -> Self {
        self.gradient = gradient;
        self
    }

    /// PISO's gradient.
    pub fn gradient(&self) -> PisoGradient {
        self.gradient
    }

    /// The same solver with PISO's diagonal `diagonal` (no effect on the other schemes).
    pub fn with_diagonal(mut self, diagonal: PisoDiagonal) -> Self {
        self.diagonal = diagonal;
        self
    }

    /// PISO's diagonal.
    pub fn diagonal(&self) -> PisoDiagonal {
        self.diagonal
    }

    /// Grid spacing `h = 2π/N`.
    pub fn spacing(&self) -> f64 {
        self.h
    }

    /// The forcing on both channels `[1, 2, N, N]` (`v`'s is zero).
    pub fn forcing_field(&self) -> Tensor<4> {
        Tensor::cat(vec![self.forcing.clone(), self.forcing.zeros_like()], 1)
    }

    /// The same solver with forcing amplitude `amplitude` (`0` switches it off).
    pub fn with_forcing(mut self, amplitude: f64) -> Result<Self, KolmogorovError> {
        self.set_forcing(amplitude)?;
        Ok(self)
    }

    fn set_forcing(&mut self, amplitude: f64) -> Result<(), KolmogorovError> {
        self.forcing_amplitude = check_forcing(amplitude)?;
        let (k, h) = (FORCING_WAVENUMBER, self.h);
        // The face average over [y_i, y_i + h] (the unknowns are face averages, see
        // `staggered::coarse_from_fine`): the centre value times sinc(k·h/2).
        let average = (k * h / 2.0).sin() / (k * h / 2.0);
        let values = sample(self.n, |_, y| {
            amplitude * average * (k * (y + h / 2.0)).sin()
        });
        self.forcing = Tensor::<4>::from_data(
            TensorData::new(values, [1, 1, self.n, self.n]),
            (&self.device, self.precision.dtype()),
        );
        Ok(())
    }

    /// The same solver with the official code's forcing quirk (`helpers.kolmogorov_forcing`):
    /// row `i` of `u` gets `A·sin(12π·i/(N − 1))`, i.e. `sin(linspace(0, 12π, N))` with the
    /// endpoint included (k = 6·N/(N − 1) plus a seam), no face average. Off by default; a later
    /// [`Self::with_forcing`] restores the exact forcing.
    pub fn with_official_forcing(mut self) -> Self {
        let (n, amplitude) = (self.n, self.forcing_amplitude);
        let top = 2.0 * std::f64::consts::PI * FORCING_WAVENUMBER;
        let values: Vec<f64> = (0..n * n)
            .map(|m| amplitude * (top * (m / n) as f64 / (n - 1) as f64).sin())
            .collect();
        self.forcing = Tensor::<4>::from_data(
            TensorData::new(values, [1, 1, n, n]),
            (&self.device, self.precision.dtype()),
        );
        self
    }

    /// Grid side N.
    pub fn resolution(&self) -> usize {
        self.n
    }

    /// Time step.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// Forcing amplitude `A`.
    pub fn forcing(&self) -> f64 {
        self.forcing_amplitude
    }

    /// Precision of the constants (inputs must match).
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The device.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// A `[B, 2, N, N]` velocity tensor on this solver's device and precision from host states,
    /// each `[2·N²]` (checked: length, finiteness).
    pub fn velocity_tensor(&self, states: &[Vec<f64>]) -> Result<Tensor<4>, KolmogorovError> {
        let n = self.n;
        for state in states {
            check_state(state, 2 * n * n)?;
        }
        let values: Vec<f64> = states.iter().flatten().copied().collect();
        Ok(Tensor::<4>::from_data(
            TensorData::new(values, [states.len(), 2, n, n]),
            (&self.device, self.precision.dtype()),
        ))
    }

    /// The tendency `F(u)` (advection, diffusion, forcing) `[B, 2, N, N]`.
    pub fn tendency(&self, velocity: Tensor<4>, viscosity: f64) -> Tensor<4> {
        let h = self.h;
        let u = velocity.clone().narrow(1, 0, 1);
        let v = velocity.clone().narrow(1, 1, 1);
        // u at the cell centres [i][j] and its square: ∂_x(uu) at the u faces.
        let uc = (u.clone() + at(u.clone(), 0, 1)).mul_scalar(0.5);
        let uu = uc.clone() * uc;
        let duu_dx = (uu.clone() - at(uu, 0, -1)).div_scalar(h);
        // v at the cell centres: ∂_y(vv) at the v faces.
        let vc = (v.clone() + at(v.clone(), 1, 0)).mul_scalar(0.5);
        let vv = vc.clone() * vc;
        let dvv_dy = (vv.clone() - at(vv, -1, 0)).div_scalar(h);
        // u·v at the grid points from the two neighbouring faces of each.
        let q = (u.clone() + at(u, -1, 0)) * (v.clone() + at(v, 0, -1));
        let q = q.mul_scalar(0.25);
        let dvu_dy = (at(q.clone(), 1, 0) - q.clone()).div_scalar(h);
        let duv_dx = (at(q.clone(), 0, 1) - q).div_scalar(h);
        let advection = Tensor::cat(vec![duu_dx + dvu_dy, duv_dx + dvv_dy], 1);
        let laplacian = (at(velocity.clone(), 0, 1)
            + at(velocity.clone(), 0, -1)
            + at(velocity.clone(), 1, 0)
            + at(velocity.clone(), -1, 0)
            - velocity.mul_scalar(4.0))
        .div_scalar(h * h);
        laplacian.mul_scalar(viscosity) - advection + self.forcing_field()
    }

    /// The discrete divergence at the cell centres: `[B, 2, N, N] → [B, 1, N, N]`.
    pub fn divergence(&self, velocity: Tensor<4>) -> Tensor<4> {
        let u = velocity.clone().narrow(1, 0, 1);
        let v = velocity.narrow(1, 1, 1);
        (at(u.clone(), 0, 1) - u + at(v.clone(), 1, 0) - v).div_scalar(self.h)
    }

    /// `(P w, φ)` with `P w = w − G φ`, `Δ_h φ = D w`: `[B, 2, N, N] → ([B, 2, N, N],
    /// [B, 1, N, N])`.
    pub fn project(&self, velocity: Tensor<4>) -> (Tensor<4>, Tensor<4>) {
        let phi = self.pressure_solve(self.divergence(velocity.clone()));
        (velocity - self.gradient_of(phi.clone()), phi)
    }

    /// `Δ_h⁻¹ rhs`, mean mode zero: `[B, 1, N, N] → [B, 1, N, N]`.
    pub fn pressure_solve(&self, rhs: Tensor<4>) -> Tensor<4> {
        self.poisson.solve(rhs)
    }

    /// The gradient `G φ` to the faces: `[B, 1, N, N] → [B, 2, N, N]`.
    pub fn gradient_of(&self, phi: Tensor<4>) -> Tensor<4> {
        let gx = phi.clone() - at(phi.clone(), 0, -1);
        let gy = phi.clone() - at(phi, -1, 0);
        Tensor::cat(vec![gx, gy], 1).div_scalar(self.h)
    }

    /// One step of `dt` with `ν = viscosity`: velocity `[B, 2, N, N]` → (velocity
    /// `[B, 2, N, N]`, pressure `[B, 1, N, N]` at the cell centres, zero mean).
    pub fn step(&self, velocity: Tensor<4>, viscosity: f64) -> (Tensor<4>, Tensor<4>) {
        match self.scheme {
            TimeScheme::Piso => self.piso(velocity, viscosity),
            TimeScheme::Heun => self.heun(velocity, viscosity),
            TimeScheme::SspRk3 => self.ssp_rk3(velocity, viscosity),
        }
    }

    /// Shu–Osher SSP-RK3 with a projection per stage; pressure `(φ₁/6 + 2φ₂/3 + φ₃)/dt`.
    fn ssp_rk3(&self, velocity: Tensor<4>, viscosity: f64) -> (Tensor<4>, Tensor<4>) {
        let dt = self.dt;
        let k1 = self.tendency(velocity.clone(), viscosity);
        let (stage1, phi1) = self.project(velocity.clone() + k1.mul_scalar(dt));
        let k2 = self.tendency(stage1.clone(), viscosity);
        let (stage2, phi2) = self.project(
            velocity.clone().mul_scalar(0.75) + (stage1 + k2.mul_scalar(dt)).mul_scalar(0.25),
        );
        let k3 = self.tendency(stage2.clone(), viscosity);
        let (next, phi3) = self.project(
            velocity.mul_scalar(1.0 / 3.0) + (stage2 + k3.mul_scalar(dt)).mul_scalar(2.0 / 3.0),
        );
        let pressure =
            (phi1.mul_scalar(1.0 / 6.0) + phi2.mul_scalar(2.0 / 3.0) + phi3).div_scalar(dt);
        (next, pressure)
    }

    /// Heun (explicit RK2) with a projection per stage; pressure `(φ₁/2 + φ₂)/dt`.
    fn heun(&self, velocity: Tensor<4>, viscosity: f64) -> (Tensor<4>, Tensor<4>) {
        let dt = self.dt;
        let k1 = self.tendency(velocity.clone(), viscosity);
        let (stage, phi1) = self.project(velocity.clone() + k1.mul_scalar(dt));
        let k2 = self.tendency(stage.clone(), viscosity);
        let average = (velocity + stage + k2.mul_scalar(dt)).mul_scalar(0.5);
        let (next, phi2) = self.project(average);
        let pressure = (phi1.mul_scalar(0.5) + phi2).div_scalar(dt);
        (next, pressure)
    }

    /// `steps` steps of a host state `[2·N²]` (batch 1), the velocity read back as `[2·N²]`.
    pub fn advance_host(
        &self,
        velocity: &[f64],
        viscosity: f64,
        steps: usize,
    ) -> Result<Vec<f64>, KolmogorovError> {
        let mut state = self.velocity_tensor(&[velocity.to_vec()])?;
        for _ in 0..steps {
            state = self.step(state, viscosity).0;
        }
        read_values(state)
    }

    /// One step of a host state `[2·N²]` (batch 1): the velocity `[2·N²]`.
    pub fn step_host(&self, velocity: &[f64], viscosity: f64) -> Result<Vec<f64>, KolmogorovError> {
        self.advance_host(velocity, viscosity, 1)
    }
}

/// Reads any tensor back (synchronously: tests and the native CLI only) as flat f64 values.
pub fn read_values<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f64>, KolmogorovError> {
    tensor
        .try_into_data()
        .map_err(|err| KolmogorovError::Readback(format!("{err:?}")))?
        .convert::<f64>()
        .try_into_vec::<f64>()
        .map_err(|err| KolmogorovError::Readback(format!("{err:?}")))
}
