//! A study started from what was saved or made elsewhere. Its running training as data, so a
//! long cell can stop and resume across processes: [`Study::checkpoint`] between two ticks,
//! [`Study::resume_from`] before the training starts again (the data are regenerated from their
//! seeds or given, so only the training's own state travels). A resumed training computes
//! exactly what it computes straight through (`train::checkpoint`'s test), so a resumed cell's
//! result is the cell's result. An ensemble is checkpointed as one training that names its
//! other members ([`TrainingCheckpoint::together`]) and resumes as the same ensemble. And the
//! study's data and baseline made once and handed on ([`Study::prepared`],
//! [`Study::with_prepared`]).
//!
//! Native only: the weights are read synchronously.

use super::error::StudyError;
use super::runner::{Study, DATA_WORK};
use super::stage::{Job, JobTrainer, Stage, Together};
use crate::study::data::aggregate::baseline_metrics;
use crate::study::data::checkpoint::{MemberCheckpoint, TrainingCheckpoint};
use crate::study::data::packed::Packed;
use crate::study::data::prepared::{Prepared, PreparedTests, PreparedTrajectory};
use crate::system::config::config_hash;
use crate::types::Trajectory;

fn checkpoint_error(why: impl Into<String>) -> StudyError {
    StudyError::Train(crate::train::TrainError::Checkpoint(why.into()))
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

impl Study {
    /// True once the data and the baseline are made (the first training is next).
    pub fn data_ready(&self) -> bool {
        self.baseline.is_some()
    }

    /// The study's data and baseline, once made (`None` before).
    pub fn prepared(&self) -> Option<Prepared> {
        self.data_ready().then(|| Prepared {
            config_hash: config_hash(&self.config),
            training: self
                .training_data
                .iter()
                .map(|t| PreparedTrajectory {
                    scale: t.scale,
                    domain_size: t.domain_size,
                    resolution: t.resolution,
                    values: Packed::f32s(&t.values),
                })
                .collect(),
            tests: self.test_sets.iter().map(PreparedTests::pack).collect(),
            baseline_tests: self.baseline_tests.clone(),
            samples: self.samples.clone(),
        })
    }

    /// Starts the study from `prepared` (made for this config: the caller checks
    /// [`Prepared::config_hash`]) instead of making the data: the first training is next. Call
    /// before the first [`Self::advance`]. Fails (in words) on packed data that does not decode.
    pub fn with_prepared(mut self, prepared: Prepared) -> Result<Self, String> {
        self.training_data = prepared
            .training
            .iter()
            .map(|t| {
                Ok(Trajectory {
                    scale: t.scale,
                    domain_size: t.domain_size,
                    resolution: t.resolution,
                    values: t.values.to_f32s()?,
                })
            })
            .collect::<Result<_, String>>()?;
        self.test_sets = prepared
            .tests
            .iter()
            .map(PreparedTests::unpack)
            .collect::<Result<_, String>>()?;
        self.baseline = Some(baseline_metrics(&prepared.baseline_tests));
        self.baseline_tests = prepared.baseline_tests;
        self.samples = prepared.samples;
        let sizes = self.config.eval.scales.len();
        self.work_done = DATA_WORK * (self.training_data.len() + sizes + 1) as f64;
        self.stage = Stage::NextJob { next: 0 };
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::preset::tiny_config;

    fn finished(mut study: Study) -> Study {
        let mut guard = 0;
        while !study.finished() {
            pollster::block_on(study.advance(8)).expect("advance");
            guard += 1;
            assert!(guard < 500, "does not finish");
        }
        study
    }

    /// A study started from shipped data (through JSON) gives the results of one that made
    /// them, number for number.
    #[test]
    fn a_study_from_shipped_data_matches_one_that_made_it() {
        let new = || {
            Study::new(
                tiny_config(),
                crate::system::System::physics,
                &backend::cpu(),
                Box::new(|| 0.0),
            )
            .expect("study")
        };
        let mut maker = new();
        while !maker.data_ready() {
            assert!(maker.prepared().is_none());
            pollster::block_on(maker.advance(8)).expect("advance");
        }
        let prepared = maker.prepared().expect("prepared");
        assert_eq!(prepared.config_hash, config_hash(&tiny_config()));
        assert!(prepared.value_bytes() > 0);
        let json = serde_json::to_string(&prepared).expect("json");
        let shipped: Prepared = serde_json::from_str(&json).expect("parse");
        assert_eq!(shipped, prepared);
        let receiver = new().with_prepared(shipped).expect("decodes");
        assert!(receiver.data_ready());
        assert_eq!(
            receiver.prepared().as_ref(),
            Some(&prepared),
            "unpacked as made"
        );
        let (made, received) = (
            finished(maker),
            finished(new().with_prepared(prepared).expect("decodes")),
        );
        assert_eq!(made.results(0.0), received.results(0.0));
        assert_eq!(finished(receiver).results(0.0), made.results(0.0));
    }
}
