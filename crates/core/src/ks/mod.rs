//! Kuramoto–Sivashinsky, 1D periodic: `u_t = −u u_x − u_xx − u_xxxx` (docs/src/study.md, section KS).
//!
//! One concept per file: [`grid`] (points, `fftfreq` wavenumbers), [`config`] (scheme, sizes),
//! [`operators`] (spectral coefficients and their real N×N matrices, f64), [`reference`](mod@reference) (rustfft
//! f64 ETD1 / ETRK2 / ETDRK4), [`tensor`] (batched differentiable burn ETD1 / ETRK2),
//! [`initial`] (training / test / user ICs), [`data`] (training and test sets, windows),
//! [`preset`] (the study's budgets and test set), [`stepper`] (the hybrid step in each mode),
//! [`evaluate`] (test truths, the ETD1 baseline, the metrics), [`solver_bench`] (`unroll-lab
//! bench solver`: the solvers' throughput, the training set's time), [`system`] (KS as the study's
//! [`crate::system::physics::PhysicalSystem`]).

pub mod config;
pub mod data;
pub mod data_cost;
pub mod error;
pub mod evaluate;
pub mod grid;
pub mod initial;
pub mod operators;
pub mod peer;
pub mod playground;
pub mod preset;
pub mod published;
pub mod reference;
pub mod simulate;
pub mod solver_bench;
pub mod stacked;
pub mod stepper;
pub mod system;
pub mod tensor;

pub use config::{KsConfig, Scheme};
pub use error::KsError;
pub use grid::Grid;
pub use reference::ReferenceSolver;
pub use tensor::{Precision, TensorSolver};
