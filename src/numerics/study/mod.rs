//! A study = training configurations × seeds → evaluated results: the one data path shared by
//! the CLI (`unroll-lab study`) and the browser. [`StudyConfig`] names the grid (modes ×
//! modalities × network sizes × unroll horizons × seeds); [`runner::Study`] runs it in small,
//! resumable increments; [`aggregate`] turns per-seed metrics into the results schema.

pub mod aggregate;
pub mod batch;
pub mod cell;
pub mod checkpoint;
pub mod config;
pub mod controller;
pub mod convergence;
pub mod cost;
pub mod description;
pub mod device_choice;
pub mod driver;
pub mod evaluate;
pub mod inference;
mod jobs;
pub mod merge;
pub mod packed;
pub mod physics;
pub mod plan;
pub mod playground;
pub mod pool;
pub mod prepared;
pub mod progress;
pub mod results;
pub mod resume;
pub mod runner;
pub mod stage;
pub mod together;

pub use crate::numerics::types::EvalConfig;
#[cfg(test)]
pub(crate) use config::tiny_config;
pub use config::{NetSize, Preset, StudyConfig, MAX_ROLLOUT, MAX_TESTS_PER_SIZE, MAX_TRAININGS};
pub use progress::{Phase, StudyProgress};
pub use runner::Study;
pub use stage::StudyError;
