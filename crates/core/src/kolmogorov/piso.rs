//! The paper's coarse solver: PISO (Issa 1986) on the staggered 32² grid as in
//! tum-pbs/differentiable-piso (`piso_tf.py`, `piso_step`), in burn tensor ops (every device).
//!
//! Velocity `[B, 2, N, N]` and pressure `[B, 1, N, N]` as in [`super::coarse`]. With the
//! advecting velocity frozen at the step's input `w = uⁿ`, the implicit (backward-Euler)
//! advection–diffusion operator is
//! `L x = x/dt − ν Δ_h x + C_w x`, `C_w x = ∇·(w ⊗ x)` discretised as the conservative central
//! MAC advection of [`CoarseSolver::tendency`] (so `C_w w` is exactly its advection term), the
//! same matrix as the official `advection_matrix_cuda`. Per face it is a 5-point stencil whose
//! diagonal is `d₀ + δ`, `d₀ = 1/dt + 4ν/h²` and `δ` half the divergence of `w` over the
//! momentum cell (zero for a discretely divergence-free `w`). [`PisoDiagonal`] says where `δ`
//! goes, `L = a·I − H`:
//!
//! * [`PisoDiagonal::Constant`] (the default): `a = d₀`, `δ` kept in `H`, so the pressure
//!   equations have the constant coefficient `1/d₀` and the exact Poisson solve of
//!   [`super::poisson`] applies;
//! * [`PisoDiagonal::Advective`] (the official form, set-up `piso-advective`): `a = d₀ + δ`,
//!   the pressure equations `D(G p / a) = rhs`, solved by [`PRESSURE_ITERATIONS`] fixed-point
//!   corrections of exact Poisson solves (the official code: an iterative solver).
//!
//! Both are the same step when `D w = 0` (the truth, and every PISO output); on a
//! non-solenoidal input (a network's correction) they differ to first order in its divergence,
//! as `δ` scales the correctors' whole pressure gradient (`stencil_tests`, one step at Re 1000 of
//! a field with max |u| 5.45 plus random ±ε on every face value: 7.7e-4·ε relative for ε from
//! 5e-4 to 0.2, e.g. 3.8e-5 at ε = 0.05); the advective form costs 2.7× the FLOPs. One step:
//!
//! 1. predictor: `L u* = uⁿ/dt + f`, solved by [`PREDICTOR_ITERATIONS`] Jacobi sweeps
//!    `x ← (uⁿ/dt + f + H x)/a` from the guess `x = uⁿ` (the official code: BiCGStab from the
//!    same guess), each sweep one op ([`super::stencil`]). The contraction per sweep grows with
//!    the CFL number `|w|·dt/h`; measured relative residuals `dt·|r|/|uⁿ|` (`piso_tests`, random
//!    fields of wavenumber ≤ 4 on 32², dt 0.02): 2.7e-9 at Re 300, ω rms 3; 3.5e-7 at Re 1000,
//!    ω rms 4; 3.1e-4 at ω rms 6;
//! 2. first corrector: `u** = u* − G p₁/a`, `D(G p₁/a) = D u*`;
//! 3. second corrector: `u*** = u** + (H(u** − u*) − G p₂)/a`, `D(G p₂/a) = D(H(u** − u*)/a)`;
//!
//! pressure `p = p₁ + p₂` (zero mean). `D u*** = 0` to round-off (constant diagonal) or to the
//! fixed point's tolerance (advective). Deviations from the official step: the predictor is
//! solved by Jacobi sweeps, not BiCGStab; our state is the velocity alone, so the predictor has
//! no `−G pⁿ` (the official one carries the last pressure) and the correctors build the whole
//! pressure; the default keeps `δ` out of the diagonal (above).
//!
//! Gradients ([`PisoGradient`]): the paper's (default) detaches `w` (the advection matrix gets no
//! gradient) and the guess, so each solve is differentiated through its right-hand side only;
//! `Exact` differentiates everything (the derivative of the computed step).

use burn::tensor::Tensor;

use super::coarse::{at, CoarseSolver};
use super::piso_options::{PisoDiagonal, PisoGradient};
use super::stencil::{stencil, TAPS};

/// Jacobi sweeps of the predictor solve (see the module docs for the contraction).
pub const PREDICTOR_ITERATIONS: usize = 16;

/// Fixed-point iterations of the variable-coefficient pressure equations of
/// [`PisoDiagonal::Advective`] (each one exact constant-coefficient Poisson solve; the error
/// contracts by `max|δ|/d₀` per iteration, `0` for a divergence-free advecting velocity).
pub const PRESSURE_ITERATIONS: usize = 3;

/// Counted FLOPs of one PISO step of one state on N×N with `diagonal`, by hand from the ops
/// (per grid point `N²`): the operator's stencil from the advecting velocity ≈ 30 (averages 8,
/// `δ` 6, taps 12, diagonal 4); each of the [`PREDICTOR_ITERATIONS`] sweeps and the second
/// corrector's `H x` 22 (five multiply-adds and the scaling on both channels); the right-hand
/// side and the correctors' combinations ≈ 12; each projection (divergence 4, the Poisson solve's
/// four N×N matmuls `8N³` and its scaling 1, gradient 4, difference 2, pressure scale 1) ≈
/// `8N³ + 12N²`, two of them, plus for [`PisoDiagonal::Advective`] [`PRESSURE_ITERATIONS`]
/// more per corrector (`8N³ + 15N²` each).
pub fn piso_flops_per_step(n: usize, diagonal: PisoDiagonal) -> f64 {
    let (points, cube) = ((n * n) as f64, (n * n * n) as f64);
    let sweeps = (PREDICTOR_ITERATIONS + 1) as f64 * 22.0 * points;
    let projection = 8.0 * cube + 12.0 * points;
    let extra = match diagonal {
        PisoDiagonal::Constant => 0.0,
        PisoDiagonal::Advective => 2.0 * PRESSURE_ITERATIONS as f64 * (8.0 * cube + 15.0 * points),
    };
    30.0 * points + sweeps + 12.0 * points + 2.0 * projection + extra
}

/// The frozen advecting velocity's averages `[uc, up, vc, vp]`, each `[B, 1, N, N]` times
/// `scale`: `u` at the cell centres and the grid points, `v` at the cell centres and the grid
/// points.
fn averages(w: Tensor<4>, scale: f64) -> [Tensor<4>; 4] {
    let u = w.clone().narrow(1, 0, 1);
    let v = w.narrow(1, 1, 1);
    [
        u.clone() + at(u.clone(), 0, 1),
        u.clone() + at(u, -1, 0),
        v.clone() + at(v.clone(), 1, 0),
        v.clone() + at(v, 0, -1),
    ]
    .map(|t| t.mul_scalar(scale))
}

/// The predictor's operator `L = a·I − H` for one frozen advecting velocity: `H`'s stencil
/// `[B, 10, N, N]` (taps of [`super::stencil::TAPS`] per channel) and `1/a` `[B, 2, N, N]`.
pub(super) struct Operator {
    pub(super) stencil: Tensor<4>,
    pub(super) inverse_diagonal: Tensor<4>,
}

impl CoarseSolver {
    /// The operator of the advecting velocity `w` `[B, 2, N, N]` with viscosity `viscosity`
    /// and this solver's [`PisoDiagonal`].
    pub(super) fn operator(&self, w: Tensor<4>, viscosity: f64) -> Operator {
        let h = self.spacing();
        let k = viscosity / (h * h);
        let [uc, up, vc, vp] = averages(w, 0.25 / h); // ½ for the average, 1/(2h) folded in
        let (uw, vn) = (at(uc.clone(), 0, -1), at(vp.clone(), 1, 0));
        let (ue, vs) = (at(up.clone(), 0, 1), at(vc.clone(), -1, 0));
        let delta = Tensor::cat(
            vec![
                uc.clone() - uw.clone() + vn.clone() - vp.clone(),
                ue.clone() - up.clone() + vc.clone() - vs.clone(),
            ],
            1,
        );
        let d0 = self.piso_diagonal(viscosity);
        let (centre, inverse_diagonal) = match self.diagonal() {
            PisoDiagonal::Constant => (delta.clone().neg(), delta.ones_like().div_scalar(d0)),
            PisoDiagonal::Advective => (delta.zeros_like(), delta.add_scalar(d0).recip()),
        };
        let centre_u = centre.clone().narrow(1, 0, 1);
        let centre_v = centre.narrow(1, 1, 1);
        // Taps (centre, east, west, north, south): −C_w plus the neighbours' diffusion.
        let u_taps = [uc.neg(), uw, vn.neg(), vp].map(|t| t.add_scalar(k));
        let v_taps = [ue.neg(), up, vc.neg(), vs].map(|t| t.add_scalar(k));
        let mut taps = vec![centre_u];
        taps.extend(u_taps);
        taps.push(centre_v);
        taps.extend(v_taps);
        debug_assert_eq!(taps.len(), 2 * TAPS.len());
        Operator {
            stencil: Tensor::cat(taps, 1),
            inverse_diagonal,
        }
    }

    /// `H x` `[B, 2, N, N]` (`L = a·I − H`).
    fn off_diagonal(&self, operator: &Operator, x: Tensor<4>) -> Tensor<4> {
        let (zeros, ones) = (x.zeros_like(), x.ones_like());
        stencil(x, operator.stencil.clone(), zeros, ones)
    }

    /// `d₀ = 1/dt + 4ν/h²`, the constant part of `L`'s diagonal.
    pub fn piso_diagonal(&self, viscosity: f64) -> f64 {
        let h = self.spacing();
        1.0 / self.dt() + 4.0 * viscosity / (h * h)
    }

    /// The residual `uⁿ/dt + f − L u*` of the predictor after [`PREDICTOR_ITERATIONS`] sweeps
    /// `[B, 2, N, N]` (for tests and diagnostics).
    pub fn piso_predictor_residual(&self, velocity: Tensor<4>, viscosity: f64) -> Tensor<4> {
        let operator = self.operator(velocity.clone(), viscosity);
        let rhs = velocity.clone().div_scalar(self.dt()) + self.forcing_field();
        let star = self.predictor(&operator, rhs.clone(), velocity);
        rhs - star.clone() / operator.inverse_diagonal.clone() + self.off_diagonal(&operator, star)
    }

    /// [`PREDICTOR_ITERATIONS`] Jacobi sweeps `x ← (rhs + H x)/a` from `guess`, one op each.
    fn predictor(&self, operator: &Operator, rhs: Tensor<4>, guess: Tensor<4>) -> Tensor<4> {
        let mut x = guess;
        for _ in 0..PREDICTOR_ITERATIONS {
            x = stencil(
                x,
                operator.stencil.clone(),
                rhs.clone(),
                operator.inverse_diagonal.clone(),
            );
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
        let operator = self.operator(advecting, viscosity);
        let rhs = velocity.div_scalar(self.dt()) + self.forcing_field();
        let star = self.predictor(&operator, rhs, guess);
        let d0 = self.piso_diagonal(viscosity);
        let q = operator.inverse_diagonal.clone();
        let (corrected, p1) = self.weighted_projection(star.clone(), q.clone(), d0);
        let increment = self.off_diagonal(&operator, corrected.clone() - star);
        let (second, p2) = self.weighted_projection(increment * q.clone(), q, d0);
        (corrected + second, p1 + p2)
    }

    /// `(w − q ⊙ G p, p)` with `D(q ⊙ G p) = D w`: `w, q: [B, 2, N, N]`, `p: [B, 1, N, N]`
    /// zero mean. For the constant diagonal (`q = 1/d₀`) one exact projection; else
    /// [`PRESSURE_ITERATIONS`] fixed-point corrections `p ← p + d₀ Δ_h⁻¹ D(w − q ⊙ G p)`.
    fn weighted_projection(&self, w: Tensor<4>, q: Tensor<4>, d0: f64) -> (Tensor<4>, Tensor<4>) {
        let (projected, phi) = self.project(w.clone());
        let mut p = phi.mul_scalar(d0);
        if self.diagonal() == PisoDiagonal::Constant {
            return (projected, p);
        }
        for _ in 0..PRESSURE_ITERATIONS {
            let residual = w.clone() - q.clone() * self.gradient_of(p.clone());
            let phi = self.pressure_solve(self.divergence(residual));
            p = p + phi.mul_scalar(d0);
        }
        (w - q * self.gradient_of(p.clone()), p)
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
