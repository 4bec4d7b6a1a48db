//! # unroll-lab
//!
//! The interactive companion to List, Chen, Bali & Thuerey, *Differentiability in Unrolled Training
//! of Neural Physics Simulators on Transient Dynamics* (CMAME 2025).
//!
//! One crate, three layers (see `ARCHITECTURE.md`):
//! - [`numerics`]: pure numerics on any burn backend (solvers, data, networks, training, metrics).
//!   No UI or browser code; tested natively.
//! - [`report`]: the serde schemas shared by the CLI and the browser.
//! - [`charts`]: the results charts, drawn with plotters on any backend (SVG natively, the
//!   canvas in the browser).
//! - `ui` and `platform` (wasm32 only): Leptos components and the browser glue (WebGPU start-up,
//!   scheduling). They call into `numerics`; `numerics` never calls back.

pub mod charts;
pub mod experiment;
pub mod numerics;
pub mod report;

#[cfg(target_arch = "wasm32")]
pub mod platform;
#[cfg(target_arch = "wasm32")]
pub mod ui;
