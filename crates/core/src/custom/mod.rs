//! A reader's 1-D periodic semilinear equation (the family and its text form are
//! [`crate::types::equation`]'s):
//!
//! `u_t = a0·u + a1·∂ₓu + a2·∂ₓ²u + a3·∂ₓ³u + a4·∂ₓ⁴u + b·½∂ₓ(u²) + c·½(∂ₓu)² + d·u² + e·u³`
//!
//! on a periodic domain of period `2π·L` (wavenumbers `k = m/L`, the KS system's convention),
//! `N` points, learned step `Δt`. The family is exponax's generic 1-D steppers joined: the
//! linear orders 0–4 of `GeneralLinearStepper`, the quadratic, convection and gradient-norm
//! terms of `GeneralNonlinearStepper` with its factors ½, and the cubic term of
//! `GeneralPolynomialStepper` — so an equation here is the same numbers there (an APEBench /
//! exponax snippet needs no conversion), and KS, Burgers, KdV, Fisher–KPP, Swift–Hohenberg,
//! Allen–Cahn and advection–diffusion are members. Why not more: higher linear orders have no
//! named member worth their stiffness, and other nonlinearities (`u·∂ₓ³u`, …) leave exponax's
//! generic set.
//!
//! One concept per file: [`operators`] (wavenumbers, the complex linear symbol, the nonlinear
//! factors, ETD1 / ETRK2 / ETDRK4 coefficients), [`solver`] (the f64 truth and coarse solver),
//! [`tensor`] (the batched differentiable ETD1), [`initial`] (the seeded band-limited states),
//! [`validate`] (the physics checks before training), [`error`]; as a system: [`data`]
//! (trajectories, test truths, baseline, metrics), [`stepper`] (the hybrid step), [`preset`],
//! [`system`] (`System::Custom(id)` as a `PhysicalSystem`, one per interned equation),
//! [`playground`], [`simulate`] (`unroll-lab simulate --system custom`). `tests` checks the named
//! members against the dedicated systems and their published behaviour.

pub mod data;
pub mod error;
pub mod initial;
pub mod operators;
pub mod playground;
pub mod preset;
pub mod simulate;
pub mod solver;
pub mod stepper;
pub mod system;
pub mod tensor;
pub mod validate;

#[cfg(test)]
mod tests;

pub use error::CustomError;
pub use solver::Solver;
pub use tensor::TensorSolver;
