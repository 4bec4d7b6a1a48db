//! Kolmogorov flow, 2D: incompressible Navier–Stokes on [0, 2π]² periodic, `ν = 1/Re`, forcing
//! `f = (sin(6y), 0)` (docs/src/study.md, "Kolmogorov flow, 2D").
//!
//! One concept per file: [`grid`] (layouts, wavenumbers, the 5-point Laplacian's eigenvalues),
//! [`config`] (the study's constants and the checks), [`fft2`] (2-D rustfft), [`spectral`]
//! (the f64 pseudo-spectral ETDRK4 ground truth, vorticity form), [`staggered`] (vorticity ↔
//! staggered MAC velocity, the truth's down-sampling to the coarse grid), [`poisson`] (the exact
//! periodic Poisson solve as matmuls), [`coarse`] (the differentiable coarse solver on burn
//! tensors: SSP-RK3 projection scheme), [`piso`] (its default scheme, the paper's PISO; its
//! deviations from the official step are listed there), [`stencil`] (PISO's variable-coefficient
//! stencil as one op, hand-written on the CPU backend), [`initial`] (seeded random fields,
//! spin-up), [`spun_up`] (the shipped spun-up states), [`shipped_frames`] (the shipped coarse
//! frames of the page's default study), [`statistics`] (vorticity rms and integral time scale),
//! [`statistics_bench`] (`unroll-lab bench statistics`: the developed flow's statistics and the
//! solvers' speed); for the study: [`data`] (training and test trajectories), [`data_cost`]
//! (their counted FLOPs), [`metrics`]
//! (velocity MSE, diverged models), [`preset`] (the paper's set-up and the reduced budgets), [`setup`] (the named coarse-solver
//! set-ups: scheme, gradient, the official quirks) and
//! [`system`] (the [`crate::system::PhysicalSystem`] implementation).

pub mod assets;
pub mod coarse;
pub mod config;
pub mod data;
pub mod data_cost;
pub mod error;
pub mod fft2;
pub mod grid;
pub mod initial;
pub mod metrics;
pub mod peer;
pub mod piso;
pub mod piso_options;
pub mod poisson;
pub mod preset;
pub mod published;
pub mod run;
pub mod setup;
pub mod shipped_frames;
pub mod simulate;
pub mod spectral;
pub mod spun_up;
pub mod staggered;
pub mod statistics;
pub mod statistics_bench;
pub mod stencil;
pub mod stepper;
pub mod system;

#[cfg(test)]
mod piso_tests;
#[cfg(test)]
mod stencil_tests;
#[cfg(test)]
mod tests;

pub use coarse::{CoarseSolver, TimeScheme};
pub use error::KolmogorovError;
pub use piso_options::{PisoDiagonal, PisoGradient};
pub use spectral::SpectralSolver;

/// The four 2-D ResNet sizes of the study as grid entries.
pub fn resnet_sizes() -> Vec<crate::system::config::NetSize> {
    crate::system::config::Preset::size_grid(crate::nets::Architecture::Resnet2d)
}
