//! Shared data formats and their wording for people: the compute-device description, the
//! `simulate` output, `train.json`, the results schema (re-exported from
//! [`crate::numerics::study::data`]) and unit formatting.

pub mod beside;
pub mod claim;
pub mod columns;
pub mod committed;
pub mod compute;
pub mod csv;
pub mod doc_tables;
pub mod horizons;
pub mod interval;
pub mod lens;
pub mod orderings;
pub mod page_copy;
pub mod paper;
pub mod ratio_to_one;
pub mod results;
pub mod training;
pub mod units;
pub mod vorticity_orderings;
