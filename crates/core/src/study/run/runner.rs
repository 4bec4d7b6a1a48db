//! Runs a [`StudyConfig`] in small increments, as an explicit state machine over [`Stage`]:
//! [`Study::advance`] does one bounded piece of the current stage and moves to the next — one
//! training trajectory, one test's ground truth, one test's baseline, up to `n` training
//! iterations plus one loss readback, up to `n ·`[`EVAL_STEPS_PER_ITERATION`] evaluation
//! rollout steps plus one readback, or the scoring of one test. Every piece is small (tens of
//! milliseconds), so the browser stays responsive calling it once per tick; the CLI loops on it
//! (both through [`super::driver::Driver`]). Pausing is not calling it; cancelling is dropping
//! it. The physics is reached through the study's [`PhysicalSystem`].

use burn::tensor::Device;

use super::error::StudyError;
use super::stage::{Job, JobTrainer, Stage};
use crate::study::data::aggregate::{self, study_results, SeedOutcome};
use crate::study::data::checkpoint::TrainingCheckpoint;
use crate::study::data::progress::{Phase, StudyProgress};
use crate::study::data::results::{Metrics, SampleTest, StudyResults, VariantResult};
use crate::system::config::StudyConfig;
use crate::system::physics::{PhysicalSystem, Systems};
use crate::train::run::LossLog;
use crate::train::{TrainConfig, Trainer};
use crate::types::{TestMetrics, TestSize, Trajectory};

/// Evaluation rollout steps per training iteration of the `advance` budget (a rollout step of
/// 10 tests costs a small fraction of a training iteration: forward only, no unroll).
pub const EVAL_STEPS_PER_ITERATION: usize = 8;
/// Index, within each test size, of the test kept for the space–time maps.
pub const SAMPLE_TEST: usize = 0;

/// A job of the grid: which variant, which seed.
pub(super) struct JobSpec {
    pub(super) variant: usize,
    pub(super) seed: u64,
}

/// A study in progress.
pub struct Study {
    pub(super) config: StudyConfig,
    pub(super) system: &'static dyn PhysicalSystem,
    pub(super) variants: Vec<TrainConfig>,
    pub(super) device: Device,
    pub(super) training_data: Vec<Trajectory>,
    pub(super) test_sets: Vec<TestSize>,
    pub(super) baseline_tests: Vec<TestMetrics>,
    pub(super) baseline: Option<Metrics>,
    pub(super) samples: Vec<SampleTest>,
    pub(super) jobs: Vec<JobSpec>,
    pub(super) stage: Stage,
    pub(super) outcomes: Vec<Vec<SeedOutcome>>,
    pub(super) results: Vec<Option<VariantResult>>,
    pub(super) weights: Vec<Option<Vec<u8>>>,
    pub(super) work_done: f64,
    pub(super) work_total: f64,
    pub(super) clock: Box<dyn Fn() -> f64>,
    /// A training to resume when it starts ([`Study::resume_from`]).
    pub(super) resume: Option<TrainingCheckpoint>,
    /// Train consecutive jobs that share a model as one ensemble where they can
    /// ([`Study::set_ensembles`]).
    pub(super) ensembles: bool,
    /// Jobs an ensemble trained, waiting for their evaluation (in job order).
    pub(super) trained: Vec<Job>,
}

/// Work units of one data trajectory (and of one test size's data, and of the baseline).
pub(super) const DATA_WORK: f64 = 20.0;
/// Work units of evaluating one test size.
pub(super) const EVAL_WORK: f64 = 50.0;

/// The next stage and what to report.
pub(super) type Step = Result<(Stage, StudyProgress), StudyError>;

impl Study {
    /// Validates the config against its system's implementation (found by `systems`, the
    /// registry's `System::physics`); nothing is computed yet. `clock` reads seconds (the numerics
    /// have no clock of their own: `Instant` natively, `performance.now()` in the browser); it
    /// times the training iterations.
    pub fn new(
        config: StudyConfig,
        systems: Systems,
        device: &Device,
        clock: Box<dyn Fn() -> f64>,
    ) -> Result<Self, StudyError> {
        let system = systems(config.system);
        config.validate(system)?;
        let variants = config.variants();
        let jobs: Vec<JobSpec> = (0..variants.len())
            .flat_map(|variant| {
                config
                    .seeds
                    .iter()
                    .map(move |&seed| JobSpec { variant, seed })
            })
            .collect();
        let trajectories = system.training_trajectories(&config.base.data);
        let work_total = DATA_WORK * (trajectories + config.eval.scales.len() + 1) as f64
            + jobs
                .iter()
                .map(|j| {
                    variants[j.variant].iterations as f64
                        + EVAL_WORK * config.eval.scales.len() as f64
                })
                .sum::<f64>();
        Ok(Self {
            outcomes: vec![Vec::new(); variants.len()],
            results: vec![None; variants.len()],
            weights: vec![None; variants.len()],
            system,
            variants,
            device: device.clone(),
            training_data: Vec::new(),
            test_sets: Vec::new(),
            baseline_tests: Vec::new(),
            baseline: None,
            samples: Vec::new(),
            jobs,
            stage: Stage::TrainingData { next: 0 },
            config,
            work_done: 0.0,
            work_total,
            clock,
            resume: None,
            ensembles: false,
            trained: Vec::new(),
        })
    }

    /// Keeps only the jobs (trainings, variant-major then seed, as in a
    /// [`crate::study::cells::plan::StudyPlan`]) whose index is in `cells`; the data and
    /// the baseline are still made in full. Call before the first [`Self::advance`].
    pub fn only_jobs(mut self, cells: &[usize]) -> Result<Self, StudyError> {
        let jobs = self.jobs.len();
        if let Some(&index) = cells.iter().find(|&&i| i >= jobs) {
            return Err(StudyError::NoSuchJob { index, jobs });
        }
        let removed: Vec<JobSpec> = std::mem::take(&mut self.jobs);
        for (index, job) in removed.into_iter().enumerate() {
            if cells.contains(&index) {
                self.jobs.push(job);
            } else {
                self.work_total -= self.variants[job.variant].iterations as f64
                    + EVAL_WORK * self.config.eval.scales.len() as f64;
            }
        }
        Ok(self)
    }

    /// Trains consecutive jobs that share a model (a variant's seeds, and the NOG and WIG
    /// variants of one configuration: [`crate::train::ensemble::shares_model`]) as
    /// one ensemble ([`crate::train::EnsembleTrainer`]) where they can (an
    /// architecture with a member axis, no gradient guard, no single training's checkpoint to
    /// resume), else one at a time. Every member computes what it would alone, to rounding
    /// (see the trainer's tests); an ensemble's checkpoint resumes as the same ensemble
    /// ([`Self::checkpoint`]). Call before the first [`Self::advance`].
    pub fn set_ensembles(&mut self, on: bool) {
        self.ensembles = on;
    }

    /// The baseline's metrics on every test (size-major), once the data stage is over.
    pub fn baseline_tests(&self) -> &[TestMetrics] {
        &self.baseline_tests
    }

    /// The sample tests (truth and baseline) of the space–time maps.
    pub fn samples(&self) -> &[SampleTest] {
        &self.samples
    }

    /// The configuration being run.
    pub fn config(&self) -> &StudyConfig {
        &self.config
    }

    /// True when every job is recorded.
    pub fn finished(&self) -> bool {
        matches!(self.stage, Stage::Done)
    }

    /// The trainer of the running job, when it trains alone.
    pub fn trainer(&self) -> Option<&Trainer> {
        match &self.stage {
            Stage::Training(job) | Stage::Evaluating(job, _) => match &job.trainer {
                JobTrainer::Alone(trainer) => Some(trainer.as_ref()),
                JobTrainer::Member(_) => None,
            },
            _ => None,
        }
    }

    /// The trained weights of every finished variant (its first seed; burnpack bytes, the
    /// format of `unroll-lab train`'s `weights.bpk`), with the variant's file-name label.
    pub fn weights(&self) -> Vec<(String, &[u8])> {
        self.variants
            .iter()
            .zip(&self.weights)
            .filter_map(|(config, bytes)| {
                bytes
                    .as_deref()
                    .map(|b| (config.variant_id().file_label(), b))
            })
            .collect()
    }

    /// The trained weights of variant `variant` (its first seed) once it finished, with its
    /// file-name label.
    pub fn variant_weights(&self, variant: usize) -> Option<(String, Vec<u8>)> {
        let bytes = self.weights.get(variant)?.as_ref()?;
        Some((
            self.variants[variant].variant_id().file_label(),
            bytes.clone(),
        ))
    }

    /// Does one bounded piece of work (at most `max_iterations` training iterations, or
    /// `max_iterations ·`[`EVAL_STEPS_PER_ITERATION`] rollout steps) and moves to the next
    /// stage. After an error the study stays failed; after the last job it is finished.
    pub async fn advance(&mut self, max_iterations: usize) -> Result<StudyProgress, StudyError> {
        let budget = max_iterations.max(1);
        let stage = std::mem::replace(&mut self.stage, Stage::Failed);
        let (next, progress) = match stage {
            Stage::TrainingData { next } => self.generate_trajectory(next)?,
            Stage::TestData { next } => self.generate_test(next)?,
            Stage::Baseline { next } => self.score_baseline(next)?,
            Stage::NextJob { next } => {
                if let Some(job) = self.take_trained(next) {
                    self.continue_training(job, budget).await?
                } else if let Some(together) = self.start_together(next)? {
                    self.continue_together(together, budget).await?
                } else {
                    let job = self.start_job(next)?;
                    self.continue_training(job, budget).await?
                }
            }
            Stage::Training(job) => self.continue_training(job, budget).await?,
            Stage::TrainingTogether(together) => self.continue_together(together, budget).await?,
            Stage::Evaluating(job, evaluation) => {
                if evaluation.done(self.test_sets.len()) {
                    let evaluated = evaluation.next_size;
                    self.finish_job(job, evaluated).await?
                } else {
                    self.evaluate(job, evaluation, budget).await?
                }
            }
            Stage::Done => return Err(StudyError::Finished),
            Stage::Failed => return Err(StudyError::Failed),
        };
        self.stage = next;
        Ok(progress)
    }

    pub(super) fn progress(&self, phase: Phase, job: Option<&Job>) -> StudyProgress {
        let (variant, index, seed, iteration, iterations) = match job {
            Some(job) => (
                Some(job.trainer.config().variant_id()),
                job.index + 1,
                self.jobs[job.index].seed,
                job.trainer.iteration(),
                job.trainer.config().iterations,
            ),
            None => (None, 0, 0, 0, 0),
        };
        StudyProgress {
            phase,
            variant,
            job: index,
            jobs: self.jobs.len(),
            seed,
            iteration,
            iterations,
            new_losses: Vec::new(),
            member_losses: Vec::new(),
            fraction: (self.work_done / self.work_total.max(1.0)).min(1.0),
            finished_variant: None,
            finished_training: None,
        }
    }

    fn tests_in_all_sizes(&self) -> usize {
        self.config.eval.scales.len() * self.config.eval.tests_per_size
    }

    /// Generates training trajectory `index`; the test data follows the last.
    fn generate_trajectory(&mut self, index: usize) -> Step {
        let data = &self.config.base.data;
        self.training_data.push(self.system.training_trajectory(
            data,
            &self.config.base.solver,
            index,
        )?);
        self.work_done += DATA_WORK;
        let next = if index + 1 < self.system.training_trajectories(data) {
            Stage::TrainingData { next: index + 1 }
        } else {
            Stage::TestData { next: 0 }
        };
        Ok((next, self.progress(Phase::Data, None)))
    }

    /// Generates test `index` (size-major) of the test set; the baseline follows the last.
    fn generate_test(&mut self, index: usize) -> Step {
        let per_size = self.config.eval.tests_per_size;
        let (size, test) = (index / per_size, index % per_size);
        let truth =
            self.system
                .test_truth(&self.config.eval, &self.config.base.solver, size, test)?;
        if test == 0 {
            self.test_sets.push(TestSize {
                scale: self.config.eval.scales[size],
                truth: Vec::new(),
            });
        }
        self.test_sets
            .get_mut(size)
            .ok_or(StudyError::NoSuchTest { size, test })?
            .truth
            .push(truth);
        self.work_done += DATA_WORK / per_size as f64;
        let next = if index + 1 < self.tests_in_all_sizes() {
            Stage::TestData { next: index + 1 }
        } else {
            Stage::Baseline { next: 0 }
        };
        Ok((next, self.progress(Phase::Data, None)))
    }

    /// Rolls out and scores the baseline (the coarse solver, no network) on test `index`; its
    /// metrics are complete after the last, and the first job follows.
    fn score_baseline(&mut self, index: usize) -> Step {
        let per_size = self.config.eval.tests_per_size;
        let (size_index, test) = (index / per_size, index % per_size);
        let size = self
            .test_sets
            .get(size_index)
            .ok_or(StudyError::NoSuchTest {
                size: size_index,
                test,
            })?;
        let truth = std::slice::from_ref(size.truth.get(test).ok_or(StudyError::NoSuchTest {
            size: size_index,
            test,
        })?);
        let eval = &self.config.eval;
        let rollout = self.system.baseline_rollout(
            &self.config.base.solver,
            truth,
            size.scale,
            eval.rollout_steps,
        )?;
        let metrics =
            self.system
                .test_metrics(&truth[0], &rollout[0], size.scale, eval.error_horizon)?;
        if test == SAMPLE_TEST {
            self.samples.push(SampleTest {
                scale: size.scale,
                test,
                truth: self.system.sample(&truth[0]),
                baseline: self.system.sample(&rollout[0]),
            });
        }
        self.baseline_tests.push(metrics);
        self.work_done += DATA_WORK / self.tests_in_all_sizes() as f64;
        let next = if index + 1 < self.tests_in_all_sizes() {
            Stage::Baseline { next: index + 1 }
        } else {
            self.baseline = Some(aggregate::baseline_metrics(&self.baseline_tests));
            Stage::NextJob { next: 0 }
        };
        Ok((next, self.progress(Phase::Data, None)))
    }

    /// Builds the trainer of job `index`.
    fn start_job(&mut self, index: usize) -> Result<Box<Job>, StudyError> {
        let spec = self.jobs.get(index).ok_or(StudyError::Finished)?;
        let mut config = self.variants[spec.variant].clone();
        config.seed = spec.seed;
        let trainer = self
            .system
            .trainer(config, &self.training_data, &self.device)?;
        let mut job = Box::new(Job {
            index,
            trainer: JobTrainer::Alone(Box::new(trainer)),
            log: LossLog::default(),
            training_secs: 0.0,
            tests: Vec::new(),
            samples: Vec::new(),
        });
        self.resume_job(&mut job)?;
        Ok(job)
    }

    /// The results so far (every finished variant), with `wall_secs` from the caller's clock.
    pub fn results(&self, wall_secs: f64) -> StudyResults {
        study_results(
            &self.config,
            self.results.iter().flatten().cloned().collect(),
            self.baseline
                .clone()
                .unwrap_or_else(|| aggregate::metrics(&[])),
            self.samples.clone(),
            wall_secs,
        )
    }
}

/// `config`'s study on the CPU, its clock standing still, advanced until it finishes (tests).
#[cfg(test)]
pub(crate) fn finished_study(config: StudyConfig) -> Study {
    let mut study = Study::new(
        config,
        crate::system::System::physics,
        &crate::backend::cpu(),
        Box::new(|| 0.0),
    )
    .expect("study");
    let mut ticks = 0;
    while !study.finished() {
        pollster::block_on(study.advance(8)).expect("advance");
        ticks += 1;
        assert!(ticks < 500, "the study does not finish");
    }
    study
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
