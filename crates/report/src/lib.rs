//! Shared data formats and their wording for people: the compute-device description, the
//! `simulate` output, `train.json`, the results schema (re-exported from
//! [`unroll_core::study::data`]) and unit formatting.
#![cfg_attr(
    test,
    allow(
        clippy::too_many_lines,
        reason = "a unit test is one scenario, read top to bottom; the limit is for the product's code (checked in the build without cfg(test))"
    )
)]

pub mod beside;
pub mod charts;
pub mod claim;
pub mod columns;
pub mod committed;
pub mod csv;
pub mod device_words;
pub mod doc_tables;
pub mod experiment;
pub mod gradient_captions;
pub mod horizons;
pub mod interval;
pub mod judged_export;
pub mod lens;
pub mod orderings;
pub mod page_copy;
pub mod paper;
pub mod ratio_to_one;
pub mod results_text;
pub mod system_words;
pub mod training;
pub mod units;
pub mod vorticity_orderings;
