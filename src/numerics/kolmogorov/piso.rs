//! The paper's coarse solver: PISO (Issa 1986) on the staggered 32² grid as in
//! tum-pbs/differentiable-piso (`piso_tf.py`, `piso_step`), in burn tensor ops (every device).
//!
//! Velocity `[B, 2, N, N]` and pressure `[B, 1, N, N]` as in [`super::coarse`]. With the
//! advecting velocity frozen at the step's input `w = uⁿ`, the implicit (backward-Euler)
//! advection–diffusion operator is
//! `L x = x/dt − ν Δ_h x + C_w x`, `C_w x = ∇·(w ⊗ x)` discretised as the conservative central
//! MAC advection of [`CoarseSolver::tendency`] (so `C_w w` is exactly its advection term); split
//! as `L = d·I − H` with the constant diagonal `d = 1/dt + 4ν/h²` (the advection's diagonal,
//! half the divergence of `w` over a momentum cell, vanishes for a divergence-free `w`; it is
//! kept in `H`, so the pressure equations have the constant coefficient `1/d` and the exact
//! Poisson solve of [`super::poisson`] applies). One step:
//!
//! 1. predictor: `L u* = uⁿ/dt + f`, solved by [`PREDICTOR_ITERATIONS`] Jacobi sweeps
//!    `x ← (uⁿ/dt + f + H x)/d` from the guess `x = uⁿ` (the official code: BiCGStab from the
//!    same guess). The contraction per sweep grows with the CFL number `|w|·dt/h`; measured
//!    relative residuals `dt·|r|/|uⁿ|` (`piso_tests`, random fields of wavenumber ≤ 4 on 32²,
//!    dt 0.02): 2.7e-9 at Re 300, ω rms 3; 3.5e-7 at Re 1000, ω rms 4; 3.1e-4 at ω rms 6;
//! 2. first corrector: `u** = u* − G p₁/d`, `Δ_h p₁ = d·D u*` (the projection of `u*`);
//! 3. second corrector: `u*** = u** + (H(u** − u*) − G p₂)/d`, `Δ_h p₂ = D H(u** − u*)`;
//!
//! pressure `p = p₁ + p₂` (zero mean). `D u*** = 0` to round-off. Deviation from the official
//! step: our state is the velocity alone, so the predictor has no `−G pⁿ` (the official one
//! carries the last pressure); the correctors then build the whole pressure.
//!
//! Gradients ([`PisoGradient`]): the paper's (default) detaches `w` (the advection matrix gets no
//! gradient) and the guess, so each solve is differentiated through its right-hand side only;
//! `Exact` differentiates everything (the derivative of the computed step).

use burn::tensor::Tensor;

use super::coarse::{at, CoarseSolver};

/// Jacobi sweeps of the predictor solve (see the module docs for the contraction).
pub const PREDICTOR_ITERATIONS: usize = 16;

/// How autodiff differentiates a PISO step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PisoGradient {
    /// The official code's: the advecting velocity and the solver's guess detached, the linear
    /// solves differentiated through their right-hand side only (the WIG default).
    #[default]
    Paper,
    /// The exact derivative of the computed step (the advecting velocity attached).
    Exact,
}

impl PisoGradient {
    /// The word in settings and results: `paper` or `exact`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Paper => "paper",
            Self::Exact => "exact",
        }
    }

    /// The gradient named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Paper, Self::Exact]
            .into_iter()
            .find(|g| g.name() == name)
    }
}

/// The frozen advecting velocity's averages, each `[B, 1, N, N]` and divided by `2h`.
struct Advecting {
    /// `u` at the cell centres.
    u_centre: Tensor<4>,
    /// `v` at the cell centres.
    v_centre: Tensor<4>,
    /// `u` at the grid points.
    u_point: Tensor<4>,
    /// `v` at the grid points.
    v_point: Tensor<4>,
}

impl Advecting {
    fn new(w: Tensor<4>, h: f64) -> Self {
        let scale = 0.25 / h; // ½ for the average, 1/(2h) folded in for `apply`
        let u = w.clone().narrow(1, 0, 1);
        let v = w.narrow(1, 1, 1);
        Self {
            u_centre: (u.clone() + at(u.clone(), 0, 1)).mul_scalar(scale),
            u_point: (u.clone() + at(u, -1, 0)).mul_scalar(scale),
            v_centre: (v.clone() + at(v.clone(), 1, 0)).mul_scalar(scale),
            v_point: (v.clone() + at(v, 0, -1)).mul_scalar(scale),
        }
    }

    /// `C_w x` `[B, 2, N, N]`: the conservative MAC advection of `x` by `w`.
    fn apply(&self, x: Tensor<4>) -> Tensor<4> {
        let xu = x.clone().narrow(1, 0, 1);
        let xv = x.narrow(1, 1, 1);
        let a = self.u_centre.clone() * (xu.clone() + at(xu.clone(), 0, 1));
        let b = self.v_point.clone() * (xu.clone() + at(xu, -1, 0));
        let c = self.u_point.clone() * (xv.clone() + at(xv.clone(), 0, -1));
        let e = self.v_centre.clone() * (xv.clone() + at(xv, 1, 0));
        let adv_u = a.clone() - at(a, 0, -1) + at(b.clone(), 1, 0) - b;
        let adv_v = at(c.clone(), 0, 1) - c + e.clone() - at(e, -1, 0);
        Tensor::cat(vec![adv_u, adv_v], 1)
    }
}

impl CoarseSolver {
    /// `H x = ν·(sum of the four neighbours)/h² − C_w x` `[B, 2, N, N]` (`L = d·I − H`).
    fn off_diagonal(&self, advecting: &Advecting, x: Tensor<4>, viscosity: f64) -> Tensor<4> {
        let h = self.spacing();
        let neighbours =
            at(x.clone(), 0, 1) + at(x.clone(), 0, -1) + at(x.clone(), 1, 0) + at(x.clone(), -1, 0);
        neighbours.mul_scalar(viscosity / (h * h)) - advecting.apply(x)
    }

    /// `d = 1/dt + 4ν/h²`, the diagonal of `L`.
    pub fn piso_diagonal(&self, viscosity: f64) -> f64 {
        let h = self.spacing();
        1.0 / self.dt() + 4.0 * viscosity / (h * h)
    }

    /// The residual `uⁿ/dt + f − L u*` of the predictor after [`PREDICTOR_ITERATIONS`] sweeps
    /// `[B, 2, N, N]` (for tests and diagnostics).
    pub fn piso_predictor_residual(&self, velocity: Tensor<4>, viscosity: f64) -> Tensor<4> {
        let advecting = Advecting::new(velocity.clone(), self.spacing());
        let rhs = velocity.clone().div_scalar(self.dt()) + self.forcing_field();
        let star = self.predictor(&advecting, rhs.clone(), velocity, viscosity);
        let diagonal = self.piso_diagonal(viscosity);
        rhs - star.clone().mul_scalar(diagonal) + self.off_diagonal(&advecting, star, viscosity)
    }

    fn predictor(
        &self,
        advecting: &Advecting,
        rhs: Tensor<4>,
        guess: Tensor<4>,
        viscosity: f64,
    ) -> Tensor<4> {
        let inverse = 1.0 / self.piso_diagonal(viscosity);
        let mut x = guess;
        for _ in 0..PREDICTOR_ITERATIONS {
            x = (rhs.clone() + self.off_diagonal(advecting, x, viscosity)).mul_scalar(inverse);
        }
        x
    }

    /// One PISO step with the advecting velocity `advecting` `[B, 2, N, N]` (normally the input
    /// itself; tests pass a fixed one): (velocity, pressure) as [`CoarseSolver::step`].
    pub fn piso_with_advecting(
        &self,
        velocity: Tensor<4>,
        advecting: Tensor<4>,
        guess: Tensor<4>,
        viscosity: f64,
    ) -> (Tensor<4>, Tensor<4>) {
        let advecting = Advecting::new(advecting, self.spacing());
        let diagonal = self.piso_diagonal(viscosity);
        let rhs = velocity.div_scalar(self.dt()) + self.forcing_field();
        let star = self.predictor(&advecting, rhs, guess, viscosity);
        let (corrected, phi1) = self.project(star.clone());
        let increment = self.off_diagonal(&advecting, corrected.clone() - star, viscosity);
        let (second, phi2) = self.project(increment.div_scalar(diagonal));
        (corrected + second, (phi1 + phi2).mul_scalar(diagonal))
    }

    /// One PISO step with this solver's [`PisoGradient`].
    pub(super) fn piso(&self, velocity: Tensor<4>, viscosity: f64) -> (Tensor<4>, Tensor<4>) {
        let frozen = match self.gradient() {
            PisoGradient::Paper => velocity.clone().detach(),
            PisoGradient::Exact => velocity.clone(),
        };
        self.piso_with_advecting(velocity, frozen.clone(), frozen, viscosity)
    }
}
