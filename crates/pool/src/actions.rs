//! What the [`super::controller::PoolController`] is told ([`Input`]) and what it asks the page
//! to do ([`Action`]).

use super::pool::{FromWorker, ToWorker};
use super::unfinished::Unfinished;
use unroll_core::study::data::results::StudyResults;
use unroll_core::study::run::driver::Losses;

/// What the controller is told.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Worker N said something.
    Heard(usize, FromWorker),
    /// Worker N could not start, threw or died (in words).
    Died(usize, String),
    /// The reader paused the run.
    Pause,
    /// The reader resumed it.
    Resume,
    /// The reader cancelled it.
    Cancel,
    /// The reader asked to keep what is done now as a stored partial run (the run goes on).
    SavePartial,
}

/// What the page must do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Send worker N this message.
    Post(usize, ToWorker),
    /// Send worker N the data message the maker posted (its text, kept unread: after a
    /// `Run` with [`unroll_core::study::cells::batch::DataSource::Shipped`]).
    ShipData(usize),
    /// Stop worker N at once.
    Terminate(usize),
    /// Stop worker N and start a new one in its place (on WebGPU when `webgpu`); it says
    /// [`FromWorker::Ready`] like the first.
    Restart {
        /// The worker.
        worker: usize,
        /// Its backend.
        webgpu: bool,
    },
    /// Show this status line.
    Status(String),
    /// Show one line per worker.
    WorkerLines(Vec<String>),
    /// The whole run's fraction done, in [0, 1].
    Fraction(f64),
    /// Add these losses to the live curves.
    Losses(Losses),
    /// Add this line to the finished variants.
    VariantLine(String),
    /// The trained weights received so far.
    Weights(Vec<(String, Vec<u8>)>),
    /// Keep the unfinished study where a reload finds it, to continue it (the in-progress
    /// copy; the page fills in its query).
    SaveInProgress(Box<Unfinished>),
    /// Drop the in-progress copy.
    ClearInProgress,
    /// Store these results with the stored runs.
    Store(Box<StudyResults>),
    /// Show these results (complete, or partial with their missing cells).
    Results(Box<StudyResults>),
    /// Whether a run is going on.
    Running(bool),
}
