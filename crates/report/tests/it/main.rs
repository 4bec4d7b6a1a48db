//! The report layer's integration tests: property tests of the experiment, the URL and the
//! charts (they need the `arbitrary` feature, which `cargo test` of the workspace turns on
//! through the CLI's dev-dependency), the committed runs against their claims, and the
//! preparation's timing.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario, read top to bottom (the limit is for the product's code)"
)]

mod committed_results;
mod equation_properties;
mod prepare_timing;
#[cfg(feature = "arbitrary")]
mod properties;
