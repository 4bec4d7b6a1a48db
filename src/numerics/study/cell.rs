//! One cell of a [`StudyPlan`] run on its own (a [`CellBatch`] of one): the study's data and
//! baseline are regenerated from their seeds (deterministic, so every cell sees the same), then
//! the cell's one training runs and is evaluated. The [`CellResult`] keeps what the merge needs:
//! the seed's outcome and, in a cell file, the baseline's per-test metrics and the sample tests
//! (a worker pool's cells leave them out: the pool made them once).

use std::rc::Rc;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::aggregate::SeedOutcome;
use super::batch::{CellBatch, DataSource};
use super::driver::{RunEvent, TrainingFinished};
use super::evaluate::TestMetrics;
use super::physics::Systems;
use super::plan::{PlanError, StudyPlan};
use super::results::SampleTest;
use super::StudyError;

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

/// Runs cell `index` of `plan` on `device` (`systems`: the registry's `System::physics`);
/// `clock` reads seconds.
pub async fn run_cell(
    plan: &StudyPlan,
    index: usize,
    systems: Systems,
    device: &Device,
    clock: Rc<dyn Fn() -> f64>,
) -> Result<CellResult, CellError> {
    let mut batch = CellBatch::new(
        plan,
        &[index],
        systems,
        device,
        clock,
        DataSource::Make { share: false },
    )?;
    let mut result = None;
    while !batch.stopped() {
        for event in batch.tick().await {
            match event {
                RunEvent::Error(message) => return Err(CellError::Run(message)),
                RunEvent::TrainingFinished(finished) => {
                    let study = batch.study();
                    let mut r = CellResult::new(plan, &finished);
                    r.baseline_tests = study.baseline_tests().to_vec();
                    r.samples = study.samples().to_vec();
                    result = Some(r);
                }
                _ => {}
            }
        }
    }
    result.ok_or(CellError::NoOutcome)
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
