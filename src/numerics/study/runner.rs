//! Runs a [`StudyConfig`] in small increments: [`Study::advance`] does one bounded piece of work
//! (one training trajectory, up to `n` training iterations plus one loss readback, or the
//! evaluation of one test size) and reports progress. The CLI loops on it; the browser calls it
//! once per animation tick, so pausing is simply not calling it and cancelling is dropping it.

use burn::tensor::Device;

use super::aggregate::{downsample, relative_to_one, variant_result, SeedOutcome};
use super::evaluate::{
    baseline_rollout, evaluation_stepper, rollout, test_metrics, test_set, TestMetrics, TestSize,
};
use super::results::{Metrics, SeedTraining, StudyResults, VariantResult, RESULTS_SCHEMA};
use super::StudyConfig;
use crate::numerics::ks::data::{self, DataConfig, Trajectory};
use crate::numerics::ks::initial::{train_ic, TRAIN_IC_PARAMETERS};
use crate::numerics::ks::KsConfig;
use crate::numerics::train::run::LossLog;
use crate::numerics::train::trainer::data_solver;
use crate::numerics::train::{TrainConfig, TrainError, Trainer};

/// Grid points of every study (the study's N).
pub const RESOLUTION: usize = 48;

/// What the study is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Generating training and test data.
    Data,
    /// Training a variant.
    Training,
    /// Evaluating a trained variant.
    Evaluating,
    /// All done: [`Study::results`] is ready.
    Done,
}

/// A progress report after each [`Study::advance`].
#[derive(Debug, Clone, PartialEq)]
pub struct StudyProgress {
    /// Current phase.
    pub phase: Phase,
    /// `C-NOG`-style label of the current variant (empty during data generation).
    pub variant: String,
    /// Index of the current training job (variant × seed) and their number.
    pub job: usize,
    /// Number of jobs.
    pub jobs: usize,
    /// Seed of the current job.
    pub seed: u64,
    /// Iterations done in the current job, and planned.
    pub iteration: usize,
    /// Iterations planned for the current job.
    pub iterations: usize,
    /// Losses read back since the previous report (the live curve).
    pub new_losses: Vec<f32>,
    /// Fraction of the whole study's work done, in [0, 1] (counted in training iterations
    /// plus a fixed share per data and evaluation step).
    pub fraction: f64,
    /// A variant that just finished evaluating (all its seeds), to show its metrics live.
    pub finished_variant: Option<VariantResult>,
}

struct Job {
    variant: usize,
    seed: u64,
}

struct Active {
    trainer: Trainer,
    /// Clock reading when training started, and seconds spent in training steps.
    training_secs: f64,
    log: LossLog,
    evaluated_sizes: usize,
    tests: Vec<TestMetrics>,
}

/// A study in progress.
pub struct Study {
    config: StudyConfig,
    variants: Vec<TrainConfig>,
    device: Device,
    training_data: Vec<Trajectory>,
    test_sets: Vec<TestSize>,
    baseline: Option<Metrics>,
    jobs: Vec<Job>,
    next_job: usize,
    active: Option<Active>,
    outcomes: Vec<Vec<SeedOutcome>>,
    results: Vec<Option<VariantResult>>,
    work_done: f64,
    work_total: f64,
    clock: Box<dyn Fn() -> f64>,
}

/// Work units of one data trajectory, one evaluated test size, the baseline.
const DATA_WORK: f64 = 20.0;
const EVAL_WORK: f64 = 50.0;

impl Study {
    /// Validates the config; nothing is computed yet. `clock` reads seconds (the numerics have
    /// no clock of their own: `Instant` natively, `performance.now()` in the browser); it times
    /// the training iterations.
    pub fn new(
        config: StudyConfig,
        device: &Device,
        clock: Box<dyn Fn() -> f64>,
    ) -> Result<Self, TrainError> {
        config.validate()?;
        let variants = config.variants();
        let jobs: Vec<Job> = (0..variants.len())
            .flat_map(|variant| config.seeds.iter().map(move |&seed| Job { variant, seed }))
            .collect();
        let trajectories = config.base.data.scales.len() * TRAIN_IC_PARAMETERS.len();
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
            variants,
            device: device.clone(),
            training_data: Vec::new(),
            test_sets: Vec::new(),
            baseline: None,
            jobs,
            next_job: 0,
            active: None,
            config,
            work_done: 0.0,
            work_total,
            clock,
        })
    }

    /// The configuration being run.
    pub fn config(&self) -> &StudyConfig {
        &self.config
    }

    /// True when every job is evaluated.
    pub fn finished(&self) -> bool {
        self.baseline.is_some() && self.next_job >= self.jobs.len() && self.active.is_none()
    }

    /// The trainer of the running job (e.g. to export its weights).
    pub fn trainer(&self) -> Option<&Trainer> {
        self.active.as_ref().map(|a| &a.trainer)
    }

    fn progress(&self, phase: Phase) -> StudyProgress {
        let (variant, seed, iteration, iterations) =
            match (&self.active, self.jobs.get(self.next_job.saturating_sub(1))) {
                (Some(active), Some(job)) => (
                    active.trainer.config().variant_label(),
                    job.seed,
                    active.trainer.iteration(),
                    active.trainer.config().iterations,
                ),
                _ => (String::new(), 0, 0, 0),
            };
        StudyProgress {
            phase,
            variant,
            job: self.next_job,
            jobs: self.jobs.len(),
            seed,
            iteration,
            iterations,
            new_losses: Vec::new(),
            fraction: (self.work_done / self.work_total.max(1.0)).min(1.0),
            finished_variant: None,
        }
    }

    /// Does one bounded piece of work (at most `max_iterations` training iterations).
    pub async fn advance(&mut self, max_iterations: usize) -> Result<StudyProgress, TrainError> {
        let wanted = self.config.base.data.scales.len() * TRAIN_IC_PARAMETERS.len();
        if self.training_data.len() < wanted {
            self.generate_one_trajectory()?;
            self.work_done += DATA_WORK;
            return Ok(self.progress(Phase::Data));
        }
        if self.test_sets.is_empty() {
            self.test_sets = test_set(&self.config.eval, RESOLUTION)?;
            self.work_done += DATA_WORK * self.config.eval.scales.len() as f64;
            return Ok(self.progress(Phase::Data));
        }
        if self.baseline.is_none() {
            self.baseline = Some(self.baseline_metrics()?);
            self.work_done += DATA_WORK;
            return Ok(self.progress(Phase::Data));
        }
        if self.active.is_none() {
            let Some(job) = self.jobs.get(self.next_job) else {
                return Ok(self.progress(Phase::Done));
            };
            let mut config = self.variants[job.variant].clone();
            config.seed = job.seed;
            let trainer = Trainer::new(config, &self.training_data, &self.device)?;
            self.active = Some(Active {
                trainer,
                log: LossLog::default(),
                training_secs: 0.0,
                evaluated_sizes: 0,
                tests: Vec::new(),
            });
            self.next_job += 1;
        }
        let active = self
            .active
            .as_mut()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        if !active.trainer.finished() && active.log.diverged_at.is_none() {
            let before = active.log.history.len();
            let steps = max_iterations
                .max(1)
                .min(active.trainer.config().iterations - active.trainer.iteration());
            let start = (self.clock)();
            for _ in 0..steps {
                active.log.push(active.trainer.step()?);
            }
            active.log.flush().await?;
            active.training_secs += (self.clock)() - start;
            self.work_done += steps as f64;
            let new_losses = active.log.history[before..].to_vec();
            let mut progress = self.progress(Phase::Training);
            progress.new_losses = new_losses;
            return Ok(progress);
        }
        if active.log.diverged_at.is_none() && active.evaluated_sizes < self.test_sets.len() {
            let size = &self.test_sets[active.evaluated_sizes];
            let config = active.trainer.config();
            let stepper = evaluation_stepper(
                config.mode,
                config.alpha,
                &self.config.eval,
                RESOLUTION,
                &self.device,
            )?;
            let net = active.trainer.net_for_inference();
            let rollouts = rollout(
                &net,
                &stepper,
                active.evaluated_sizes,
                &size.truth,
                self.config.eval.rollout_steps,
            )
            .await?;
            for (truth, model) in size.truth.iter().zip(&rollouts) {
                active.tests.push(test_metrics(
                    truth,
                    model,
                    size.scale,
                    self.config.eval.error_horizon,
                )?);
            }
            active.evaluated_sizes += 1;
            self.work_done += EVAL_WORK;
            return Ok(self.progress(Phase::Evaluating));
        }
        // Job complete (or diverged): record it.
        let finished = self
            .active
            .take()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        let job = &self.jobs[self.next_job - 1];
        let remaining_sizes = self.test_sets.len() - finished.evaluated_sizes;
        self.work_done += EVAL_WORK * remaining_sizes as f64;
        if let Some(k) = finished.log.diverged_at {
            let planned = finished.trainer.config().iterations;
            self.work_done += planned.saturating_sub(k + 1) as f64;
        }
        let history = &finished.log.history;
        self.outcomes[job.variant].push(SeedOutcome {
            training: SeedTraining {
                seed: job.seed,
                iterations_done: finished
                    .log
                    .diverged_at
                    .unwrap_or(finished.trainer.iteration()),
                iterations_per_sec: finished.trainer.iteration() as f64
                    / finished.training_secs.max(1e-9),
                diverged_at: finished.log.diverged_at,
                loss_curve: downsample(history, 200),
            },
            tests: if finished.log.diverged_at.is_some() {
                Vec::new()
            } else {
                finished.tests
            },
        });
        let mut progress = self.progress(Phase::Evaluating);
        if self.outcomes[job.variant].len() == self.config.seeds.len() {
            let result = variant_result(
                &self.variants[job.variant],
                &self.config.seeds,
                &self.outcomes[job.variant],
            );
            self.results[job.variant] = Some(result.clone());
            progress.finished_variant = Some(result);
        }
        if self.finished() {
            progress.phase = Phase::Done;
        }
        Ok(progress)
    }

    fn generate_one_trajectory(&mut self) -> Result<(), TrainError> {
        let index = self.training_data.len();
        let scale = self.config.base.data.scales[index / TRAIN_IC_PARAMETERS.len()];
        let solver = data_solver(RESOLUTION);
        let recipe = DataConfig {
            solver,
            warmup_steps: self.config.base.data.warmup_steps,
            kept_frames: self.config.base.data.frames,
        };
        let grid = KsConfig {
            domain_size: crate::numerics::ks::config::BASE_DOMAIN_SIZE * scale,
            ..solver
        }
        .validate()?;
        let ic = train_ic(&grid, index % TRAIN_IC_PARAMETERS.len())?;
        self.training_data
            .push(data::trajectory(&recipe, scale, &ic)?);
        Ok(())
    }

    fn baseline_metrics(&self) -> Result<Metrics, TrainError> {
        let mut tests = Vec::new();
        for size in &self.test_sets {
            let rollouts =
                baseline_rollout(&size.truth, size.scale, self.config.eval.rollout_steps)?;
            for (truth, model) in size.truth.iter().zip(&rollouts) {
                tests.push(test_metrics(
                    truth,
                    model,
                    size.scale,
                    self.config.eval.error_horizon,
                )?);
            }
        }
        Ok(super::aggregate::metrics(&[tests.as_slice()]))
    }

    /// The results so far (every finished variant), with `wall_secs` from the caller's clock.
    pub fn results(&self, wall_secs: f64) -> StudyResults {
        let mut variants: Vec<VariantResult> = self.results.iter().flatten().cloned().collect();
        relative_to_one(&mut variants);
        StudyResults {
            schema: RESULTS_SCHEMA.to_string(),
            preset: self.config.preset.clone(),
            config: serde_json::to_value(&self.config).unwrap_or(serde_json::Value::Null),
            variants,
            baseline: self
                .baseline
                .clone()
                .unwrap_or_else(|| super::aggregate::metrics(&[])),
            wall_secs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend;
    use crate::numerics::study::{NetSize, StudyPreset};

    /// A tiny end-to-end study: 2 sizes, 1 seed, few iterations; every field is produced and the
    /// file round-trips through the schema.
    #[test]
    fn tiny_study_produces_every_field() {
        let mut config = StudyPreset::Quick.config(1);
        config.sizes = vec![
            NetSize {
                channels: 4,
                depth: 1,
            },
            NetSize {
                channels: 6,
                depth: 2,
            },
        ];
        config.base.iterations = 6;
        config.base.data.scales = vec![1.0];
        config.base.data.frames = 40;
        config.base.data.warmup_steps = 20;
        config.eval.scales = vec![0.93, 1.15];
        config.eval.tests_per_size = 2;
        config.eval.rollout_steps = 60;
        let ticks = std::rc::Rc::new(std::cell::Cell::new(0.0));
        let ticks = ticks.clone();
        let mut study = Study::new(
            config,
            &backend::cpu(),
            Box::new(move || {
                ticks.set(ticks.get() + 0.25);
                ticks.get()
            }),
        )
        .expect("study");
        let mut finished = Vec::new();
        let mut losses = 0;
        let mut guard = 0;
        while !study.finished() {
            let progress = pollster::block_on(study.advance(4)).expect("advance");
            losses += progress.new_losses.len();
            finished.extend(progress.finished_variant);
            guard += 1;
            assert!(guard < 1000, "study does not finish");
        }
        assert_eq!(finished.len(), 12);
        assert_eq!(losses, 12 * 6);
        let results = study.results(1.5);
        assert_eq!(results.variants.len(), 12);
        for v in &results.variants {
            assert_eq!(v.seeds, vec![0]);
            assert!(v.metrics.relative_error.mean.is_finite());
            let s = v.metrics.stability;
            assert_eq!(s.r#static + s.unstable + s.recurring + s.regular, 4);
            assert_eq!(v.relative_to_one.is_some(), v.modality != "one");
            assert_eq!(v.training[0].loss_curve.len(), 6);
            // 6 iterations in two timed chunks of 0.25 s each (the test clock): 12 it/s.
            assert!((v.training[0].iterations_per_sec - 12.0).abs() < 1e-9);
        }
        let b = results.baseline.stability;
        assert_eq!(b.r#static + b.unstable + b.recurring + b.regular, 4);
        assert!(results.c_nog_over_p_wig().is_some());
        let json = serde_json::to_string(&results).expect("json");
        let parsed = StudyResults::from_json(&json).expect("parse");
        assert_eq!(parsed, results);
        assert!(results.table().contains("C-NOG"));
        assert_eq!(results.to_csv().lines().count(), 13);
        // The embedded config parses back into the study config.
        let config: StudyConfig = serde_json::from_value(parsed.config).expect("config");
        assert_eq!(config.sizes.len(), 2);
    }

    #[test]
    fn malformed_results_are_rejected_with_a_reason() {
        assert!(StudyResults::from_json("{").is_err());
        let err = StudyResults::from_json("{\"schema\":\"other@9\"}").expect_err("schema");
        assert!(err.to_string().contains("unsupported schema 'other@9'"));
        let err =
            StudyResults::from_json("{\"schema\":\"unroll-lab/results@1\"}").expect_err("shape");
        assert!(err.to_string().starts_with("not a results file"));
    }
}
