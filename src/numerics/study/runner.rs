//! Runs a [`StudyConfig`] in small increments: [`Study::advance`] does one bounded piece of work
//! and reports progress — one training trajectory, one test's ground truth, one test's baseline,
//! up to `n` training iterations plus one loss readback, up to `n ·`[`EVAL_STEPS_PER_ITERATION`]
//! evaluation rollout steps plus one readback, or the scoring of one test. Every piece is small
//! (tens of milliseconds), so the browser stays responsive calling it once per tick; the CLI
//! loops on it. Pausing is not calling it; cancelling is dropping it.

use burn::tensor::{Device, Tensor};

use super::aggregate::{downsample, relative_to_one, variant_result, SeedOutcome};
use super::evaluate::{
    baseline_rollout, evaluation_stepper, rollout_chunk, start_state, test_metrics, test_truth,
    TestMetrics, TestSize,
};
use super::results::{
    Metrics, SampleTest, SeedTraining, SpaceTime, StudyResults, VariantResult, RESULTS_SCHEMA,
};
use super::StudyConfig;
use crate::numerics::ks::data::{self, DataConfig, Trajectory};
use crate::numerics::ks::initial::{train_ic, TRAIN_IC_PARAMETERS};
use crate::numerics::ks::KsConfig;
use crate::numerics::nets::export::weights_bytes;
use crate::numerics::nets::Net;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::run::LossLog;
use crate::numerics::train::trainer::data_solver;
use crate::numerics::train::{TrainConfig, TrainError, Trainer};

/// Grid points of every study (the study's N).
pub const RESOLUTION: usize = 48;
/// Evaluation rollout steps per training iteration of the `advance` budget (a rollout step of
/// 10 tests costs a small fraction of a training iteration: forward only, no unroll).
pub const EVAL_STEPS_PER_ITERATION: usize = 8;
/// Index, within each test size, of the test kept for the space–time maps.
pub const SAMPLE_TEST: usize = 0;
/// Most frames kept per space–time map.
pub const SAMPLE_FRAMES: usize = 100;

/// What the study is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Generating training and test data (and the baseline).
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

impl StudyProgress {
    /// One line for a progress display, e.g. `Training C-NOG seed 0 (4/6), iteration 120/300`.
    pub fn describe(&self) -> String {
        match self.phase {
            Phase::Data => "Generating data".to_string(),
            Phase::Training => format!(
                "Training {} seed {} ({}/{}), iteration {}/{}",
                self.variant, self.seed, self.job, self.jobs, self.iteration, self.iterations
            ),
            Phase::Evaluating => format!("Evaluating {} seed {}", self.variant, self.seed),
            Phase::Done => "Done".to_string(),
        }
    }
}

struct Job {
    variant: usize,
    seed: u64,
}

/// The rollout of one test size in progress.
struct SizeRollout {
    size: usize,
    state: Tensor<2>,
    scale: Tensor<2>,
    /// `[tests][frames so far][N]`, frame 0 = the start.
    frames: Vec<Vec<Vec<f64>>>,
    scored: usize,
}

/// Evaluation state of a trained job.
struct Evaluation {
    net: Net,
    stepper: Stepper,
    /// The size being rolled out or scored (`None` before the first).
    current: Option<SizeRollout>,
    next_size: usize,
}

struct Active {
    trainer: Trainer,
    /// Seconds spent in training steps.
    training_secs: f64,
    log: LossLog,
    evaluation: Option<Evaluation>,
    tests: Vec<TestMetrics>,
    /// Rollouts of the sample tests (first seed only).
    samples: Vec<SpaceTime>,
}

/// A study in progress.
pub struct Study {
    config: StudyConfig,
    variants: Vec<TrainConfig>,
    device: Device,
    training_data: Vec<Trajectory>,
    test_sets: Vec<TestSize>,
    baseline_tests: Vec<TestMetrics>,
    baseline: Option<Metrics>,
    samples: Vec<SampleTest>,
    jobs: Vec<Job>,
    next_job: usize,
    active: Option<Active>,
    outcomes: Vec<Vec<SeedOutcome>>,
    results: Vec<Option<VariantResult>>,
    weights: Vec<Option<Vec<u8>>>,
    work_done: f64,
    work_total: f64,
    clock: Box<dyn Fn() -> f64>,
}

/// Work units of one data trajectory, of one test size's data, of the baseline, of evaluating
/// one test size.
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
            weights: vec![None; variants.len()],
            variants,
            device: device.clone(),
            training_data: Vec::new(),
            test_sets: Vec::new(),
            baseline_tests: Vec::new(),
            baseline: None,
            samples: Vec::new(),
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

    /// The trainer of the running job.
    pub fn trainer(&self) -> Option<&Trainer> {
        self.active.as_ref().map(|a| &a.trainer)
    }

    /// The trained weights of every finished variant (its first seed; burnpack bytes, the
    /// format of `unroll-lab train`'s `weights.bpk`), with the variant's file-name label.
    pub fn weights(&self) -> Vec<(String, &[u8])> {
        self.variants
            .iter()
            .zip(&self.weights)
            .filter_map(|(config, bytes)| {
                let label = format!(
                    "{}-{}x{}-m{}",
                    config.variant_label(),
                    config.net.channels,
                    config.net.depth,
                    config.unroll.horizon
                );
                bytes.as_deref().map(|b| (label, b))
            })
            .collect()
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

    fn tests_in_all_sizes(&self) -> usize {
        self.config.eval.scales.len() * self.config.eval.tests_per_size
    }

    /// Does one bounded piece of work (at most `max_iterations` training iterations, or
    /// `max_iterations ·`[`EVAL_STEPS_PER_ITERATION`] rollout steps).
    pub async fn advance(&mut self, max_iterations: usize) -> Result<StudyProgress, TrainError> {
        let budget = max_iterations.max(1);
        let wanted = self.config.base.data.scales.len() * TRAIN_IC_PARAMETERS.len();
        if self.training_data.len() < wanted {
            self.generate_one_trajectory()?;
            self.work_done += DATA_WORK;
            return Ok(self.progress(Phase::Data));
        }
        let generated: usize = self.test_sets.iter().map(|s| s.truth.len()).sum();
        if generated < self.tests_in_all_sizes() {
            self.generate_one_test(generated)?;
            self.work_done += DATA_WORK / self.config.eval.tests_per_size as f64;
            return Ok(self.progress(Phase::Data));
        }
        if self.baseline.is_none() {
            self.score_one_baseline_test()?;
            self.work_done += DATA_WORK / self.tests_in_all_sizes() as f64;
            return Ok(self.progress(Phase::Data));
        }
        if self.active.is_none() && !self.start_next_job()? {
            return Ok(self.progress(Phase::Done));
        }
        let active = self
            .active
            .as_mut()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        if !active.trainer.finished() && active.log.diverged_at.is_none() {
            return self.train(budget).await;
        }
        if active.log.diverged_at.is_none() && !self.evaluation_done() {
            self.evaluate(budget).await?;
            return Ok(self.progress(Phase::Evaluating));
        }
        self.finish_job().await
    }

    /// Starts the next job's trainer; false when every job ran.
    fn start_next_job(&mut self) -> Result<bool, TrainError> {
        let Some(job) = self.jobs.get(self.next_job) else {
            return Ok(false);
        };
        let mut config = self.variants[job.variant].clone();
        config.seed = job.seed;
        let trainer = Trainer::new(config, &self.training_data, &self.device)?;
        self.active = Some(Active {
            trainer,
            log: LossLog::default(),
            training_secs: 0.0,
            evaluation: None,
            tests: Vec::new(),
            samples: Vec::new(),
        });
        self.next_job += 1;
        Ok(true)
    }

    async fn train(&mut self, budget: usize) -> Result<StudyProgress, TrainError> {
        let active = self
            .active
            .as_mut()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        let before = active.log.history.len();
        let steps = budget.min(active.trainer.config().iterations - active.trainer.iteration());
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
        Ok(progress)
    }

    fn evaluation_done(&self) -> bool {
        self.active.as_ref().is_some_and(|a| {
            a.evaluation
                .as_ref()
                .is_some_and(|e| e.current.is_none() && e.next_size >= self.test_sets.len())
        })
    }

    /// One piece of evaluation: a rollout chunk of the current size, or the scoring of one test.
    async fn evaluate(&mut self, budget: usize) -> Result<(), TrainError> {
        let keep_samples = self.jobs[self.next_job - 1].seed == self.config.seeds[0];
        let eval = &self.config.eval;
        let sets = &self.test_sets;
        let active = self
            .active
            .as_mut()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        if active.evaluation.is_none() {
            let config = active.trainer.config();
            active.evaluation = Some(Evaluation {
                stepper: evaluation_stepper(
                    config.mode,
                    config.alpha,
                    eval,
                    RESOLUTION,
                    &self.device,
                )?,
                net: active.trainer.net_for_inference(),
                current: None,
                next_size: 0,
            });
        }
        let evaluation = active
            .evaluation
            .as_mut()
            .ok_or_else(|| TrainError::Readback("no evaluation".into()))?;
        let Some(current) = evaluation.current.as_mut() else {
            let size = evaluation.next_size;
            let truth = &sets[size].truth;
            evaluation.current = Some(SizeRollout {
                size,
                state: start_state(truth, &evaluation.stepper.device()),
                scale: evaluation.stepper.scale_channel(size, truth.len()),
                frames: truth
                    .iter()
                    .map(|t| vec![t[0].iter().map(|&v| v as f32 as f64).collect()])
                    .collect(),
                scored: 0,
            });
            evaluation.next_size += 1;
            return Ok(());
        };
        let done_steps = current.frames.first().map_or(0, Vec::len) - 1;
        let size = &sets[current.size];
        if done_steps < eval.rollout_steps {
            let steps = (budget * EVAL_STEPS_PER_ITERATION).min(eval.rollout_steps - done_steps);
            let (state, chunk) = rollout_chunk(
                &evaluation.net,
                &evaluation.stepper,
                current.size,
                current.state.clone(),
                &current.scale,
                steps,
            )
            .await?;
            current.state = state;
            for (frames, new) in current.frames.iter_mut().zip(chunk) {
                frames.extend(new);
            }
            self.work_done += EVAL_WORK * 0.5 * steps as f64 / eval.rollout_steps as f64;
            return Ok(());
        }
        let test = current.scored;
        active.tests.push(test_metrics(
            &size.truth[test],
            &current.frames[test],
            size.scale,
            eval.error_horizon,
        )?);
        if keep_samples && test == SAMPLE_TEST {
            active.samples.push(SpaceTime::from_rollout(
                &current.frames[test],
                SAMPLE_FRAMES,
            ));
        }
        current.scored += 1;
        self.work_done += EVAL_WORK * 0.5 / size.truth.len() as f64;
        if current.scored == size.truth.len() {
            evaluation.current = None;
        }
        Ok(())
    }

    /// Records the finished (or diverged) job; reports its variant when all its seeds are in.
    async fn finish_job(&mut self) -> Result<StudyProgress, TrainError> {
        let finished = self
            .active
            .take()
            .ok_or_else(|| TrainError::Readback("no job".into()))?;
        let job = &self.jobs[self.next_job - 1];
        let evaluated_sizes = finished.evaluation.as_ref().map_or(0, |e| e.next_size);
        self.work_done += EVAL_WORK * (self.test_sets.len() - evaluated_sizes) as f64;
        if let Some(k) = finished.log.diverged_at {
            let planned = finished.trainer.config().iterations;
            self.work_done += planned.saturating_sub(k + 1) as f64;
        } else if job.seed == self.config.seeds[0] {
            let net = finished.trainer.net_for_inference();
            let bytes = weights_bytes(&net, &finished.trainer.config().net)
                .await
                .map_err(TrainError::from)?;
            self.weights[job.variant] = Some(bytes);
        }
        let history = &finished.log.history;
        let diverged = finished.log.diverged_at.is_some();
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
            tests: if diverged { Vec::new() } else { finished.tests },
            samples: if diverged {
                Vec::new()
            } else {
                finished.samples
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

    /// Generates test number `index` (size-major) of the test set.
    fn generate_one_test(&mut self, index: usize) -> Result<(), TrainError> {
        let per_size = self.config.eval.tests_per_size;
        let (size, test) = (index / per_size, index % per_size);
        let truth = test_truth(&self.config.eval, RESOLUTION, size, test)?;
        if test == 0 {
            self.test_sets.push(TestSize {
                scale: self.config.eval.scales[size],
                truth: Vec::new(),
            });
        }
        self.test_sets[size].truth.push(truth);
        Ok(())
    }

    /// Rolls out and scores the baseline (ETD1, no network) on the next test; the baseline's
    /// metrics are complete after the last.
    fn score_one_baseline_test(&mut self) -> Result<(), TrainError> {
        let index = self.baseline_tests.len();
        let per_size = self.config.eval.tests_per_size;
        let size = &self.test_sets[index / per_size];
        let test = index % per_size;
        let truth = std::slice::from_ref(&size.truth[test]);
        let rollout = baseline_rollout(truth, size.scale, self.config.eval.rollout_steps)?;
        let metrics = test_metrics(
            &truth[0],
            &rollout[0],
            size.scale,
            self.config.eval.error_horizon,
        )?;
        if test == SAMPLE_TEST {
            self.samples.push(SampleTest {
                scale: size.scale,
                test,
                truth: SpaceTime::from_rollout(&truth[0], SAMPLE_FRAMES),
                baseline: SpaceTime::from_rollout(&rollout[0], SAMPLE_FRAMES),
            });
        }
        self.baseline_tests.push(metrics);
        if self.baseline_tests.len() == self.tests_in_all_sizes() {
            self.baseline = Some(super::aggregate::metrics(&[self.baseline_tests.as_slice()]));
        }
        Ok(())
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
            samples: self.samples.clone(),
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
        let mut evaluating = 0;
        while !study.finished() {
            let progress = pollster::block_on(study.advance(4)).expect("advance");
            evaluating += usize::from(progress.phase == Phase::Evaluating);
            losses += progress.new_losses.len();
            finished.extend(progress.finished_variant);
            guard += 1;
            assert!(guard < 1000, "study does not finish");
        }
        assert_eq!(finished.len(), 12);
        assert_eq!(losses, 12 * 6);
        // Evaluation comes in bounded pieces: per job and size one start, two rollout chunks of
        // at most 4 · 8 = 32 steps, two scored tests; then the job's completion (the last one
        // reports Done instead).
        assert_eq!(evaluating, 12 * (2 * (1 + 2 + 2) + 1) - 1);
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
        // Space–time samples: test 0 of each size, every frame of the 60-step rollout kept.
        assert_eq!(results.samples.len(), 2);
        for sample in &results.samples {
            assert_eq!((sample.truth.every, sample.truth.frames.len()), (1, 61));
            assert_eq!(sample.baseline.frames.len(), 61);
            assert_eq!(sample.truth.frames[0].len(), RESOLUTION);
        }
        for v in &results.variants {
            assert_eq!(v.samples.len(), 2);
            assert_eq!(v.samples[0].frames.len(), 61);
            // Frame 0 is the truth's start for the model too.
            assert_eq!(v.samples[0].frames[0], results.samples[0].truth.frames[0]);
            // Error over time: one point per frame, zero at the start, within [0, cap] after.
            assert_eq!(v.metrics.error_curve.len(), 61);
            assert!(v.metrics.error_curve[0].1 < 1e-12);
            assert!(v
                .metrics
                .error_curve
                .iter()
                .all(|(_, e)| (0.0..=super::super::results::ERROR_CURVE_CAP).contains(e)));
            assert!(v.metrics.error_curve[1..].iter().any(|(_, e)| *e > 0.0));
        }
        assert_eq!(results.baseline.error_curve.len(), 61);
        assert_eq!(study.weights().len(), 12);
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
