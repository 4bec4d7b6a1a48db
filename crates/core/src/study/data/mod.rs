//! What a study makes, as plain serialisable data (no burn device): the results file
//! `unroll-lab/results@1` ([`results`]) and the per-seed outcomes it is aggregated from
//! ([`aggregate`]), the progress reported after every piece of work ([`progress`]), the
//! network-size fits read off the results ([`convergence`]), the results re-scored at another
//! error horizon ([`horizon`]), the data and baseline made once
//! and shipped to other workers ([`prepared`], its floats [`packed`] as bytes), and a running
//! training's checkpoint ([`checkpoint`]). Imports only the [`crate::system`].

pub mod aggregate;
pub mod checkpoint;
pub mod convergence;
pub mod horizon;
pub use crate::types::packed;
pub mod prepared;
pub mod progress;
pub mod results;
