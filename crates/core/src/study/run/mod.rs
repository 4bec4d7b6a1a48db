//! One study run in small, resumable pieces. [`runner::Study`] is an explicit state machine over
//! [`stage::Stage`]s — the data and baseline first, then per training (variant × seed) its
//! training (`jobs`, or several as one ensemble: [`ensemble_stage`]), its evaluation and its record
//! — and can checkpoint its running training or start from data made elsewhere ([`resume`]).
//! The [`driver::Driver`] is the one loop every front end ticks it with, reporting a typed
//! event stream ([`driver::RunEvent`]). Imports the [`crate::system`], the
//! [`super::rollout`] and the [`super::data`].

pub mod driver;
pub mod ensemble_stage;
pub mod error;
mod job_stages;
pub mod resume;
pub mod runner;
pub mod stage;
