//! Pure numerics: written once for any burn [`Backend`](burn::backend::Backend).
//! Nothing in here may depend on leptos, web-sys, js-sys or plotters (its manifest lists none).
#![cfg_attr(
    test,
    allow(
        clippy::too_many_lines,
        reason = "a unit test is one scenario, read top to bottom; the limit is for the product's code (checked in the build without cfg(test))"
    )
)]

pub mod backend;
pub mod burgers;
pub mod counted;
pub mod custom;
pub mod etd;
pub mod fft_count;
pub mod kolmogorov;
pub mod ks;
pub mod launches;
pub mod matrices;
pub mod metrics;
pub mod names;
pub mod nets;
pub mod profile;
pub mod profile_mark;
pub mod random_modes;
pub mod readback;
pub mod registry;
pub mod selfcheck;
pub mod spectral1d;
pub mod study;
pub mod system;
pub mod train;
pub mod types;
