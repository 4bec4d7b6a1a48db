//! A study = training configurations × seeds → evaluated results: the one data path shared by
//! the CLI (`unroll-lab study`, `run-cell`, `merge`) and the browser's worker pool. What a system
//! implements and the grid it is asked to run are the system contract ([`crate::system`]). Four
//! rooms, each importing only the rooms listed before it, with no import cycle between the files
//! of a room (`crates/core/tests/it/structure.rs` checks the cycles):
//!
//! - [`rollout`]: a trained network stepped by its system's hybrid step (the evaluation's
//!   batched rollouts, the playground's inference);
//! - [`data`]: what a study makes, as plain serialisable data (the results file and its
//!   aggregation, progress, the data made once, a training's checkpoint, the convergence fits);
//! - [`run`]: one study in small resumable steps (`Study`, its stages, the `Driver` loop);
//! - [`cells`]: a study cut into cells for clusters and workers (its cost, the plan, a batch of
//!   cells, the merge).
//!
//! The browser's pool of workers that runs those cells is the `unroll-pool` crate.

pub mod cells;
pub mod data;
pub mod rollout;
pub mod run;
