//! The [`StudyError`] of a study that was refused or cannot go on.

use crate::nets::NetError;
use crate::train::TrainError;

/// Why a study was refused or stopped.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// A configuration, solver, network or readback failure in the numerics.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// Packing the trained weights failed.
    #[error(transparent)]
    Net(#[from] NetError),
    /// `advance` was called after an earlier call failed.
    #[error("the study stopped after an error and cannot continue")]
    Failed,
    /// `advance` was called after the last job finished.
    #[error("the study is finished: there is no work left")]
    Finished,
    /// A test index outside the test set (a broken invariant of the runner).
    #[error("no test {test} in test size {size}")]
    NoSuchTest {
        /// The test size.
        size: usize,
        /// The test within it.
        test: usize,
    },
    /// A job index outside the study (a cell of another plan).
    #[error("no training {index}: the study has {jobs}")]
    NoSuchJob {
        /// The requested index.
        index: usize,
        /// Trainings in the study.
        jobs: usize,
    },
    /// A checkpoint of a training this study does not run.
    #[error("the checkpoint is of variant {variant} seed {seed}, which this study does not train")]
    NoSuchTraining {
        /// The checkpoint's variant index.
        variant: usize,
        /// The checkpoint's seed.
        seed: u64,
    },
    /// A timing clock did not advance.
    #[error("the clock did not advance ({0} s)")]
    Clock(f64),
}
