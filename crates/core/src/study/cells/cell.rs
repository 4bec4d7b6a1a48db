//! What one cell of a [`StudyPlan`] leaves on record, and why it may have none. The
//! [`CellResult`] keeps what the merge needs: the seed's outcome and, in a cell file, the
//! baseline's per-test metrics and the sample tests (a worker pool's cells leave them out: the
//! pool made them once); a [`CellFailure`] is written instead when the cell could not run
//! ([`CellError`]); a [`CellCheckpoint`] holds its training between two ticks. A cell runs in a
//! batch (`super::batch::run_cell`, a batch of one).

use serde::{Deserialize, Serialize};

use super::plan::{PlanError, StudyPlan};
use crate::study::data::aggregate::SeedOutcome;
use crate::study::data::checkpoint::TrainingCheckpoint;
use crate::study::data::results::SampleTest;
use crate::study::run::driver::TrainingFinished;
use crate::study::run::error::StudyError;
use crate::types::TestMetrics;

/// The schema tag of a cell result.
pub const CELL_SCHEMA: &str = "unroll-lab/cell@1";

/// What one cell produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellResult {
    /// [`CELL_SCHEMA`].
    pub schema: String,
    /// The hash of the plan it belongs to.
    pub plan_hash: String,
    /// The cell's index in the plan.
    pub cell: usize,
    /// The cell's label.
    pub label: String,
    /// The training's summary, per-test metrics and sample rollouts.
    pub outcome: SeedOutcome,
    /// The coarse-solver baseline on every test (size-major), the same in every cell (empty
    /// where the merge gets it once, as in a worker pool).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline_tests: Vec<TestMetrics>,
    /// The sample tests' truth and baseline, the same in every cell (empty where
    /// `baseline_tests` is).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleTest>,
    /// Seconds the cell took (data, training and evaluation).
    pub wall_secs: f64,
    /// Of which making the study's data and scoring the baseline.
    pub data_secs: f64,
}

/// The schema tag of a [`CellCheckpoint`].
pub const CHECKPOINT_SCHEMA: &str = "unroll-lab/checkpoint@1";

/// A cell of a plan between two iterations of its training (what `study run-cell` writes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellCheckpoint {
    /// [`CHECKPOINT_SCHEMA`].
    pub schema: String,
    /// The hash of the plan the cell belongs to.
    pub plan_hash: String,
    /// The cell's index in the plan.
    pub cell: usize,
    /// Its training's state.
    pub training: TrainingCheckpoint,
    /// Wall-clock seconds the cell has run up to this checkpoint, over every run of it (data,
    /// training and evaluation): a resumed cell's result reports its whole time.
    #[serde(default)]
    pub wall_secs: f64,
}

impl CellCheckpoint {
    /// The cells whose trainings it holds (an ensemble's members: several), in member order;
    /// `None` if one is not a cell of `plan`.
    pub fn cells(&self, plan: &StudyPlan) -> Option<Vec<usize>> {
        self.training
            .trainings()
            .into_iter()
            .map(|(variant, seed)| plan.cell_of(variant, seed))
            .collect()
    }

    /// Why this checkpoint cannot resume cell `cell` of the plan hashed `plan_hash`, if it
    /// cannot.
    pub fn mismatch(&self, plan_hash: &str, cell: usize) -> Option<String> {
        if self.schema != CHECKPOINT_SCHEMA {
            Some(format!(
                "its schema is {:?}, not {CHECKPOINT_SCHEMA:?}",
                self.schema
            ))
        } else if self.plan_hash != plan_hash {
            Some(format!(
                "it belongs to plan {}, not {plan_hash}",
                self.plan_hash
            ))
        } else if self.cell != cell {
            Some(format!("it belongs to cell {}, not {cell}", self.cell))
        } else {
            None
        }
    }
}

/// A cell that could not run: written instead of a [`CellResult`], so the failure is on
/// record for `status` and `merge`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellFailure {
    /// [`CELL_SCHEMA`].
    pub schema: String,
    /// The hash of the plan it belongs to.
    pub plan_hash: String,
    /// The cell's index in the plan.
    pub cell: usize,
    /// Why it failed.
    pub error: String,
}

/// Why a cell did not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum CellError {
    /// The plan or the index is wrong.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The study refused the config or stopped.
    #[error(transparent)]
    Study(#[from] StudyError),
    /// The run reported an error.
    #[error("{0}")]
    Run(String),
    /// Ready-made data of another plan (its hash).
    #[error("the data given were made for plan {0}, not this one")]
    ForeignData(String),
    /// Ready-made data that do not decode.
    #[error("the data given do not decode: {0}")]
    BadData(String),
    /// The run ended without the cell's outcome.
    #[error("the cell finished without an outcome")]
    NoOutcome,
}

impl CellResult {
    /// The result of a finished training of `plan`, without the baseline and samples (the
    /// caller adds them where the merge cannot get them once).
    pub fn new(plan: &StudyPlan, finished: &TrainingFinished) -> Self {
        Self {
            schema: CELL_SCHEMA.to_string(),
            plan_hash: plan.hash.clone(),
            cell: finished.cell,
            label: plan
                .cells
                .get(finished.cell)
                .map(|c| c.label.clone())
                .unwrap_or_default(),
            outcome: finished.outcome.clone(),
            baseline_tests: Vec::new(),
            samples: Vec::new(),
            wall_secs: finished.wall_secs,
            data_secs: finished.data_secs,
        }
    }
}

impl CellFailure {
    /// The failure of cell `index` of `plan`.
    pub fn new(plan: &StudyPlan, index: usize, error: &dyn std::fmt::Display) -> Self {
        Self {
            schema: CELL_SCHEMA.to_string(),
            plan_hash: plan.hash.clone(),
            cell: index,
            error: error.to_string(),
        }
    }
}
