//! Shared data formats and their wording for people: the compute-device description, the
//! `simulate` output, `train.json`, the results schema (re-exported from
//! [`crate::numerics::study::data`]) and unit formatting.

pub mod beside;
pub mod claim;
pub mod columns;
pub mod committed;
pub mod compute;
pub mod csv;
pub mod horizons;
pub mod lens;
pub mod orderings;
pub mod paper;
pub mod results;
pub mod training;
pub mod units;
pub mod vorticity_orderings;
