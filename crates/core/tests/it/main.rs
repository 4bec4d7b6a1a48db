//! The core's integration tests.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario, read top to bottom (the limit is for the product's code)"
)]

mod structure;
