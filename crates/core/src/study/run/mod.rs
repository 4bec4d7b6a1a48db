//! One study run in small, resumable pieces. [`runner::Study`] is an explicit state machine over
//! [`stage::Stage`]s — the data and baseline first, then per training (variant × seed) its
//! training (`jobs`, or several as one ensemble: [`together`]), its evaluation and its record
//! — and can checkpoint its running training or start from data made elsewhere ([`resume`]).
//! The [`driver::Driver`] is the one loop every front end ticks it with, reporting a typed
//! event stream ([`driver::RunEvent`]). Imports the [`super::contract`], the
//! [`super::rollout`] and the [`super::data`].

pub mod driver;
mod jobs;
pub mod resume;
pub mod runner;
pub mod stage;
pub mod together;
