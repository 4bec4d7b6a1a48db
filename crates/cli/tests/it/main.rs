//! The command-line contract: each command's output, files and exit codes, run as the built
//! `unroll-lab` binary.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario, read top to bottom (the limit is for the product's code)"
)]

mod cell_threads;
mod cells;
mod common;
mod custom;
mod properties;
mod simulate;
mod simulate_kolmogorov;
mod study;
mod study_resume;
mod train;
