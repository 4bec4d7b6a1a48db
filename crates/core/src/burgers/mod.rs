//! Viscous Burgers, 1D periodic on `[0, 2π)`: `u_t + u u_x = ν u_xx`, the viscosity ν varied
//! between cases (a prediction/correction study like KS).
//!
//! One concept per file: [`config`] (the study's constants, the solver configuration),
//! [`grid`] (points, integer wavenumbers, the 2/3 mask), [`operators`] (ETD1/ETDRK4
//! coefficients, ETD1's real N×N matrices), [`reference`](mod@reference) (the f64 rustfft ETD1/ETDRK4 solver),
//! [`tensor`] (the batched differentiable ETD1 on burn), [`data`] (training trajectories, test truths, the baseline), [`evaluate`] (test
//! metrics), [`stepper`] (the hybrid prediction/correction step), [`preset`] (the budgets, the test
//! set), [`system`] (Burgers as the
//! study's [`crate::system::physics::PhysicalSystem`]). `tests` checks the solvers against
//! the Cole–Hopf solution. The initial conditions are the shared seeded family
//! [`crate::random_modes::RandomModes`] at the grid's points.

pub mod config;
pub mod data;
pub mod data_cost;
pub mod error;
pub mod evaluate;
pub mod grid;
pub mod operators;
pub mod preset;
pub mod reference;
pub mod simulate;
pub mod stepper;
pub mod system;
pub mod tensor;

#[cfg(test)]
mod tests;

pub use config::{BurgersConfig, Scheme};
pub use error::BurgersError;
pub use grid::Grid;
pub use reference::ReferenceSolver;
pub use tensor::TensorSolver;
