//! # unroll-lab: the page
//!
//! The interactive companion to List, Chen, Bali & Thuerey, *Differentiability in Unrolled Training
//! of Neural Physics Simulators on Transient Dynamics* (CMAME 2025), as a web page: the Leptos
//! components ([`ui`]). The rest of the house is in `crates/` (`ARCHITECTURE.md`):
//! - `unroll-core`: the numerics on any burn backend (solvers, data, networks, training, the
//!   study's data path);
//! - `unroll-report`: the typed experiment, the results' tables, claims and charts;
//! - `unroll-browser`: the browser glue and the two Web Workers;
//! - `unroll-lab-cli`: the native command-line tool `unroll-lab`.
#![cfg_attr(
    test,
    allow(
        clippy::too_many_lines,
        reason = "a unit test is one scenario, read top to bottom; the limit is for the product's code (checked in the build without cfg(test))"
    )
)]

#[cfg(not(target_arch = "wasm32"))]
compile_error!(
    "unroll-lab is the web page, built for wasm32 by trunk (scripts/serve.sh). Natively: \
     `cargo test-native` (the tests), `cargo lab …` (the CLI), or `-p` a crate of crates/."
);

#[cfg(target_arch = "wasm32")]
pub mod ui;
