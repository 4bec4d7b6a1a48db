//! A study spread over the browser's Web Workers, with no browser type: the messages between the
//! page and a worker, how cells are shared out and the [`pool::Assembly`] of what the workers
//! report ([`pool`]); the pure state machine that decides what happens when
//! ([`controller::PoolController`]); and which device trains, chosen by measurement
//! ([`device_choice`]). The page (`ui::pool_run`) and the worker (`unroll_browser::worker`) only
//! carry out its actions; the CLI and the report read the device choice.
#![cfg_attr(
    test,
    allow(
        clippy::too_many_lines,
        reason = "a unit test is one scenario, read top to bottom; the limit is for the product's code (checked in the build without cfg(test))"
    )
)]

pub mod actions;
pub mod controller;
pub mod device_choice;
pub mod part_trained;
pub mod pool;
pub mod unfinished;
