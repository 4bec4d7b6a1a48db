//! The ensemble stage of a [`Study`]: consecutive jobs that can share one model (a variant's seeds,
//! and the NOG and WIG variants of one configuration: [`shares_model`]) trained together as one
//! [`EnsembleTrainer`](crate::train::EnsembleTrainer) ([`Study::set_ensembles`]). When
//! the ensemble is done each member becomes an ordinary trained [`Job`] ([`JobTrainer::Member`]),
//! evaluated and recorded in job order as if it had trained alone.

use super::error::StudyError;
use super::runner::{JobSpec, Step, Study};
use super::stage::{Job, JobTrainer, Stage, Together, TrainedMember};
use crate::study::data::progress::{MemberLosses, Phase};
use crate::train::ensemble::{ensemble_refusal, shares_model};
use crate::train::{MemberLogs, TrainConfig};

impl Study {
    /// The jobs from `next` that train as one ensemble: with ensembles on, the members of the
    /// pending ensemble checkpoint when they start at `next`; else the consecutive jobs whose
    /// variants share a model with `next`'s ([`shares_model`]; none held by a checkpoint to
    /// resume), when there are at least two and [`ensemble_refusal`] has no objection; else
    /// none.
    fn ensemble_configs(&self, next: usize) -> Option<Vec<TrainConfig>> {
        if !self.ensembles {
            return None;
        }
        let config = |job: &JobSpec| TrainConfig {
            seed: job.seed,
            ..self.variants[job.variant].clone()
        };
        if let Some(checkpoint) = self.ensemble_to_resume(next) {
            let members = checkpoint.together.len() + 1;
            return Some(self.jobs[next..next + members].iter().map(config).collect());
        }
        let shape = &self.variants[self.jobs.get(next)?.variant];
        let configs: Vec<TrainConfig> = self.jobs[next..]
            .iter()
            .take_while(|job| {
                shares_model(&self.variants[job.variant], shape)
                    && !self.resumes(job.variant, job.seed)
            })
            .map(config)
            .collect();
        (configs.len() >= 2 && ensemble_refusal(&configs).is_none()).then_some(configs)
    }

    /// The ensemble of jobs from `next`, when they train as one ([`Self::ensemble_configs`]),
    /// resumed from the pending checkpoint when it is theirs.
    pub(super) fn start_together(
        &mut self,
        next: usize,
    ) -> Result<Option<Box<Together>>, StudyError> {
        let Some(configs) = self.ensemble_configs(next) else {
            return Ok(None);
        };
        let resumes = self.ensemble_to_resume(next).is_some();
        let members = configs.len();
        let trainer = self
            .system
            .ensemble_trainer(configs, &self.training_data, &self.device)?;
        let mut together = Box::new(Together {
            first: next,
            trainer,
            logs: MemberLogs::new(members),
            training_secs: 0.0,
        });
        if resumes {
            self.resume_together(&mut together)?;
        }
        Ok(Some(together))
    }

    /// Up to `budget / K` ensemble iterations (at least one: the work of about `budget`
    /// iterations of one network), then one loss readback; once trained (or every member
    /// diverged) the members wait as trained jobs and the first is evaluated next.
    pub(super) async fn continue_together(
        &mut self,
        mut together: Box<Together>,
        budget: usize,
    ) -> Step {
        let members = together.trainer.members();
        let before = together.logs.logs[0].history.len();
        let total = together.trainer.configs()[0].total_iterations();
        let steps = (budget / members)
            .max(1)
            .min(total - together.trainer.iteration());
        let start = (self.clock)();
        for _ in 0..steps {
            let losses = together.trainer.step()?;
            together.logs.push(losses);
        }
        together.logs.flush().await?;
        together.training_secs += (self.clock)() - start;
        self.work_done += (steps * members) as f64;
        let mut progress = self.progress(Phase::Training, None);
        let spec = &self.jobs[together.first];
        progress.variant = Some(together.trainer.configs()[0].variant_id());
        progress.job = together.first + 1;
        progress.seed = spec.seed;
        progress.iteration = together.trainer.iteration();
        progress.iterations = together.trainer.configs()[0].iterations;
        progress.new_losses = together.logs.logs[0].history[before..].to_vec();
        progress.member_losses = (1..members)
            .map(|k| MemberLosses {
                variant: together.trainer.configs()[k].variant_id(),
                seed: self.jobs[together.first + k].seed,
                new_losses: together.logs.logs[k].history[before..].to_vec(),
            })
            .collect();
        let diverged = together
            .logs
            .logs
            .iter()
            .all(|log| log.diverged_at.is_some());
        if !together.trainer.finished() && !diverged {
            return Ok((Stage::TrainingTogether(together), progress));
        }
        let first = together.first;
        self.split(*together)?;
        Ok((Stage::NextJob { next: first }, progress))
    }

    /// The members of a finished ensemble as trained jobs, each with its own losses and an
    /// equal share of the training time.
    fn split(&mut self, together: Together) -> Result<(), StudyError> {
        let Together {
            first,
            trainer,
            logs,
            training_secs,
        } = together;
        let members = trainer.members();
        for (k, log) in logs.logs.into_iter().enumerate() {
            if let Some(diverged_at) = log.diverged_at {
                // Recording a diverged job counts its iterations after `diverged_at` as done
                // work; a member ran some of them already.
                let ran_after = trainer.iteration().saturating_sub(diverged_at + 1);
                self.work_done -= ran_after as f64;
            }
            self.trained.push(Job {
                index: first + k,
                trainer: JobTrainer::Member(Box::new(TrainedMember {
                    config: trainer.configs()[k].clone(),
                    net: trainer.member(k)?,
                    iteration: trainer.iteration(),
                })),
                training_secs: training_secs / members as f64,
                log,
                tests: Vec::new(),
                samples: Vec::new(),
            });
        }
        Ok(())
    }

    /// The trained member that is job `next`, if an ensemble trained it.
    pub(super) fn take_trained(&mut self, next: usize) -> Option<Box<Job>> {
        let at = self.trained.iter().position(|job| job.index == next)?;
        Some(Box::new(self.trained.remove(at)))
    }
}
