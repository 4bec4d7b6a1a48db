//! The system contract: what a study needs of a physical system and the grid it asks for, beside
//! the registry that finds each system's implementation ([`crate::registry`]). A
//! system's folder implements [`description::SystemDescription`] (its shape, words, presets,
//! checks and FLOP counts, no burn type: what the page holds), [`physics::PhysicalSystem`] on
//! top (the data, the test set, the baseline, the metrics and the hybrid step, on a burn
//! device) and, where it has one, a [`playground::Playground`]; the registry finds them. [`config`] is the grid they are asked to run:
//! [`config::StudyConfig`], the [`config::Preset`]s that name grids, the bounds and a study's
//! identity; [`published`] types the paper's numbers a system lists, [`simulate`] what
//! `unroll-lab simulate` asks of a system's own solvers, [`bench`](mod@bench) what a system's own benches
//! (`unroll-lab bench statistics|solver`) ask. It imports no system and no part of the study.

pub mod bench;
pub mod config;
pub mod description;
pub mod physics;
pub mod playground;
pub mod published;
pub mod simulate;

pub use crate::types::{
    BaselineWords, MapKind, MapWords, Measures, MetricWords, Parameter, ParameterWords, StateShape,
    System, SystemFacts,
};
pub use description::SystemDescription;
pub use physics::PhysicalSystem;
