//! A study's running training as data, so a long cell can stop and resume across processes:
//! [`Study::checkpoint`] between two ticks, [`Study::resume_from`] before the training starts
//! again (the data are regenerated from their seeds or given, so only the training's own state
//! travels). A resumed training computes exactly what it computes straight through
//! (`train::checkpoint`'s test), so a resumed cell's result is the cell's result. An ensemble
//! is checkpointed as one training that names its other members
//! ([`TrainingCheckpoint::together`]) and resumes as the same ensemble.
//!
//! Native only: the weights are read synchronously.

use serde::{Deserialize, Serialize};

use super::plan::StudyPlan;
use super::runner::Study;
use super::stage::{Job, JobTrainer, Stage, StudyError};
use super::together::Together;
use crate::numerics::train::checkpoint::TrainerCheckpoint;

/// The schema tag of a [`CellCheckpoint`].
pub const CHECKPOINT_SCHEMA: &str = "unroll-lab/checkpoint@1";

/// One training (variant × seed) between two iterations, or an ensemble's (its first member's
/// here, the others' in `together`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingCheckpoint {
    /// Index of the variant in the study's variants.
    pub variant: usize,
    /// The training's seed.
    pub seed: u64,
    /// The trainer's state (an ensemble's: every member's, stacked).
    pub trainer: TrainerCheckpoint,
    /// Every loss read so far (index = iteration).
    pub losses: Vec<f32>,
    /// Seconds spent in training steps so far (an ensemble's: all members together).
    pub training_secs: f64,
    /// The other members of the ensemble this training is the first member of, in member
    /// order (empty: it trains alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<MemberCheckpoint>,
}

/// A member of a checkpointed ensemble after its first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberCheckpoint {
    /// Index of the variant in the study's variants.
    pub variant: usize,
    /// The member's seed.
    pub seed: u64,
    /// Every loss read so far (index = iteration).
    pub losses: Vec<f32>,
}

impl TrainingCheckpoint {
    /// `(variant, seed)` of every training it holds, the first member's first.
    pub fn trainings(&self) -> Vec<(usize, u64)> {
        std::iter::once((self.variant, self.seed))
            .chain(self.together.iter().map(|m| (m.variant, m.seed)))
            .collect()
    }

    /// Whether it holds training `(variant, seed)`.
    pub fn holds(&self, variant: usize, seed: u64) -> bool {
        self.trainings().contains(&(variant, seed))
    }

    /// An error unless every member holds one loss per iteration done.
    fn check_losses(&self) -> Result<(), StudyError> {
        let iterations = self.trainer.iteration;
        let counts =
            std::iter::once(self.losses.len()).chain(self.together.iter().map(|m| m.losses.len()));
        for count in counts {
            if count != iterations {
                return Err(checkpoint_error(format!(
                    "it holds {count} losses for {iterations} iterations"
                )));
            }
        }
        Ok(())
    }
}

fn checkpoint_error(why: impl Into<String>) -> StudyError {
    StudyError::Train(crate::numerics::train::TrainError::Checkpoint(why.into()))
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

impl Study {
    /// The running training's state, when one (alone or an ensemble) is between two iterations
    /// and has not diverged (`None` while making data, evaluating, or between trainings).
    pub fn checkpoint(&self) -> Option<Result<TrainingCheckpoint, StudyError>> {
        match &self.stage {
            Stage::Training(job) => self.checkpoint_alone(job),
            Stage::TrainingTogether(together) => self.checkpoint_together(together),
            _ => None,
        }
    }

    fn checkpoint_alone(&self, job: &Job) -> Option<Result<TrainingCheckpoint, StudyError>> {
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
                    together: Vec::new(),
                })
                .map_err(StudyError::from),
        )
    }

    /// An ensemble's state: its losses are read at the end of every tick, so none is pending.
    fn checkpoint_together(
        &self,
        together: &Together,
    ) -> Option<Result<TrainingCheckpoint, StudyError>> {
        let logs = &together.logs.logs;
        if together.trainer.finished() || logs.iter().all(|log| log.diverged_at.is_some()) {
            return None;
        }
        let spec = |k: usize| &self.jobs[together.first + k];
        let members = (1..logs.len())
            .map(|k| MemberCheckpoint {
                variant: spec(k).variant,
                seed: spec(k).seed,
                losses: logs[k].history.clone(),
            })
            .collect();
        Some(
            together
                .trainer
                .checkpoint()
                .map(|trainer| TrainingCheckpoint {
                    variant: spec(0).variant,
                    seed: spec(0).seed,
                    trainer,
                    losses: logs[0].history.clone(),
                    training_secs: together.training_secs,
                    together: members,
                })
                .map_err(StudyError::from),
        )
    }

    /// Resumes `checkpoint` when its training (variant and seed; an ensemble's: its first
    /// member's) starts; call before the first [`Study::advance`]. A checkpoint of no training
    /// of this study is an error.
    pub fn resume_from(&mut self, checkpoint: TrainingCheckpoint) -> Result<(), StudyError> {
        for (variant, seed) in checkpoint.trainings() {
            if !self
                .jobs
                .iter()
                .any(|j| j.variant == variant && j.seed == seed)
            {
                return Err(StudyError::NoSuchTraining { variant, seed });
            }
        }
        checkpoint.check_losses()?;
        self.resume = Some(checkpoint);
        Ok(())
    }

    /// Whether the pending checkpoint holds training `(variant, seed)` (alone or as a member).
    pub(super) fn resumes(&self, variant: usize, seed: u64) -> bool {
        self.resume.as_ref().is_some_and(|c| c.holds(variant, seed))
    }

    /// The pending ensemble checkpoint when its members are jobs `next..next + K`, in order.
    pub(super) fn ensemble_to_resume(&self, next: usize) -> Option<&TrainingCheckpoint> {
        let checkpoint = self.resume.as_ref().filter(|c| !c.together.is_empty())?;
        let trainings = checkpoint.trainings();
        let jobs = self.jobs.get(next..next + trainings.len())?;
        jobs.iter()
            .zip(&trainings)
            .all(|(job, &(variant, seed))| job.variant == variant && job.seed == seed)
            .then_some(checkpoint)
    }

    /// Applies the pending ensemble checkpoint to `together`, whose members are its trainings.
    pub(super) fn resume_together(&mut self, together: &mut Together) -> Result<(), StudyError> {
        let Some(checkpoint) = self.resume.take() else {
            return Ok(());
        };
        let members = together.trainer.members();
        self.work_done += (checkpoint.trainer.iteration * members) as f64;
        together.trainer.resume(checkpoint.trainer)?;
        together.logs.logs[0].record(&checkpoint.losses);
        for (log, member) in together.logs.logs[1..].iter_mut().zip(&checkpoint.together) {
            log.record(&member.losses);
        }
        together.training_secs = checkpoint.training_secs;
        Ok(())
    }

    /// Applies the pending checkpoint to `job` when it is that checkpoint's training.
    pub(super) fn resume_job(&mut self, job: &mut Job) -> Result<(), StudyError> {
        let spec = &self.jobs[job.index];
        let Some(checkpoint) = self.resume.take_if(|c| c.holds(spec.variant, spec.seed)) else {
            return Ok(());
        };
        if !checkpoint.together.is_empty() {
            return Err(checkpoint_error(format!(
                "it was saved by an ensemble of {} trainings, which resumes only as the same \
                 ensemble (its members run together, ensembles on)",
                checkpoint.together.len() + 1
            )));
        }
        let JobTrainer::Alone(trainer) = &mut job.trainer else {
            return Err(checkpoint_error(
                "it is of a training that runs in an ensemble",
            ));
        };
        self.work_done += checkpoint.trainer.iteration as f64;
        trainer.resume(checkpoint.trainer)?;
        job.log.record(&checkpoint.losses);
        job.training_secs = checkpoint.training_secs;
        Ok(())
    }
}
