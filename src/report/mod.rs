//! Serde schemas shared by the CLI and the browser (results files, simulation output).

pub mod compute;
pub mod experiment;
pub mod results;
pub mod simulation;
pub mod training;
