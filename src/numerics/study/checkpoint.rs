//! A study's running training as data, so a long cell can stop and resume across processes:
//! [`Study::checkpoint`] between two ticks, [`Study::resume_from`] before the training starts
//! again (the data are regenerated from their seeds or given, so only the training's own state
//! travels). A resumed training computes exactly what it computes straight through
//! (`train::checkpoint`'s test), so a resumed cell's result is the cell's result.
//!
//! Native only: the weights are read synchronously.

use serde::{Deserialize, Serialize};

use super::runner::Study;
use super::stage::{Job, JobTrainer, Stage, StudyError};
use crate::numerics::train::checkpoint::TrainerCheckpoint;

/// The schema tag of a [`CellCheckpoint`].
pub const CHECKPOINT_SCHEMA: &str = "unroll-lab/checkpoint@1";

/// One training (variant × seed) between two iterations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingCheckpoint {
    /// Index of the variant in the study's variants.
    pub variant: usize,
    /// The training's seed.
    pub seed: u64,
    /// The trainer's state.
    pub trainer: TrainerCheckpoint,
    /// Every loss read so far (index = iteration).
    pub losses: Vec<f32>,
    /// Seconds spent in training steps so far.
    pub training_secs: f64,
}

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

impl Study {
    /// The running training's state, when one is between two iterations and has not diverged
    /// (`None` while making data, evaluating, or between trainings).
    pub fn checkpoint(&self) -> Option<Result<TrainingCheckpoint, StudyError>> {
        let Stage::Training(job) = &self.stage else {
            return None;
        };
        let JobTrainer::Alone(trainer) = &job.trainer else {
            return None;
        };
        if job.log.pending() > 0 || job.log.diverged_at.is_some() || trainer.finished() {
            return None;
        }
        let spec = &self.jobs[job.index];
        Some(
            trainer
                .checkpoint()
                .map(|trainer| TrainingCheckpoint {
                    variant: spec.variant,
                    seed: spec.seed,
                    trainer,
                    losses: job.log.history.clone(),
                    training_secs: job.training_secs,
                })
                .map_err(StudyError::from),
        )
    }

    /// Resumes `checkpoint` when its training (variant and seed) starts; call before the first
    /// [`Study::advance`]. A checkpoint of no training of this study is an error.
    pub fn resume_from(&mut self, checkpoint: TrainingCheckpoint) -> Result<(), StudyError> {
        if !self
            .jobs
            .iter()
            .any(|j| j.variant == checkpoint.variant && j.seed == checkpoint.seed)
        {
            return Err(StudyError::NoSuchTraining {
                variant: checkpoint.variant,
                seed: checkpoint.seed,
            });
        }
        self.resume = Some(checkpoint);
        Ok(())
    }

    /// Applies the pending checkpoint to `job` when it is that checkpoint's training.
    pub(super) fn resume_job(&mut self, job: &mut Job) -> Result<(), StudyError> {
        let spec = &self.jobs[job.index];
        let Some(checkpoint) = self
            .resume
            .take_if(|c| c.variant == spec.variant && c.seed == spec.seed)
        else {
            return Ok(());
        };
        if checkpoint.losses.len() != checkpoint.trainer.iteration {
            return Err(StudyError::Train(
                crate::numerics::train::TrainError::Checkpoint(format!(
                    "it holds {} losses for {} iterations",
                    checkpoint.losses.len(),
                    checkpoint.trainer.iteration
                )),
            ));
        }
        let JobTrainer::Alone(trainer) = &mut job.trainer else {
            return Err(StudyError::Train(
                crate::numerics::train::TrainError::Checkpoint(
                    "it is of a training that runs in an ensemble".into(),
                ),
            ));
        };
        self.work_done += checkpoint.trainer.iteration as f64;
        trainer.resume(checkpoint.trainer)?;
        job.log.record(&checkpoint.losses);
        job.training_secs = checkpoint.training_secs;
        Ok(())
    }
}
