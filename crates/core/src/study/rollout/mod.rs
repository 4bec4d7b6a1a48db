//! A trained network rolled out by its system's hybrid step: [`evaluate`] steps every test of a
//! study's test set as one batch in chunks (one readback per chunk), [`inference`] rolls out
//! one state for the playground (the page asks a worker with a [`inference::RolloutRequest`]).
//! Imports only the [`crate::system`].

pub mod evaluate;
pub mod inference;
