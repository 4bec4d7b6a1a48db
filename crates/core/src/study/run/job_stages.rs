//! The job stages of a [`Study`]: training a variant × seed in bounded pieces, evaluating it on
//! the test set piece by piece (every test of every size as one rollout batch), and recording
//! it (weights, per-seed outcome, the variant's result once all its seeds are in).

use super::error::StudyError;
use super::runner::{Step, Study, EVAL_STEPS_PER_ITERATION, EVAL_WORK, SAMPLE_TEST};
use super::stage::{Evaluation, Job, Stage, TestRollout};
use crate::nets::export::{flat_weights, weights_bytes};
use crate::nets::Net;
use crate::study::data::aggregate::{downsample, variant_result, SeedOutcome};
use crate::study::data::progress::Phase;
use crate::study::data::results::SeedTraining;
use crate::study::rollout::evaluate::{rollout_chunk_groups, start_state};
use crate::train::step::Stepper;
use crate::types::packed::Packed;

impl Study {
    /// Trains `job` for up to `budget` iterations; once it is trained, evaluation starts (or,
    /// when it diverged, the job is recorded without one).
    pub(super) async fn continue_training(&mut self, job: Box<Job>, budget: usize) -> Step {
        if job.log.diverged_at.is_some() {
            return self.finish_job(job, 0).await;
        }
        if !job.trainer.finished() {
            return self.train(job, budget).await;
        }
        let config = job.trainer.config();
        let evaluation = Box::new(Evaluation {
            stepper: self.system.stepper(
                config.mode,
                config.alpha,
                false,
                &config.solver,
                &self.config.eval.scales,
                &self.device,
            )?,
            net: job.trainer.net_for_inference(),
            current: None,
            next_size: 0,
        });
        self.evaluate(job, evaluation, budget).await
    }

    /// Up to `budget` training iterations of `job`, then one loss readback.
    pub(super) async fn train(&mut self, mut job: Box<Job>, budget: usize) -> Step {
        let before = job.log.history.len();
        let remaining = job.trainer.config().total_iterations() - job.trainer.iteration();
        let steps = budget.min(remaining);
        let start = (self.clock)();
        for _ in 0..steps {
            if let Some(loss) = job.trainer.advance().await? {
                job.log.push(loss);
            }
        }
        job.log.flush().await?;
        job.training_secs += (self.clock)() - start;
        self.work_done += steps as f64;
        let mut progress = self.progress(Phase::Training, Some(&*job));
        progress.new_losses = job.log.history[before..].to_vec();
        Ok((Stage::Training(job), progress))
    }

    /// One piece of evaluation: the start of the rollout of every test (all sizes as one
    /// batch), a rollout chunk of it, or the scoring of one test.
    pub(super) async fn evaluate(
        &mut self,
        mut job: Box<Job>,
        mut evaluation: Box<Evaluation>,
        budget: usize,
    ) -> Step {
        let Some(current) = evaluation.current.as_mut() else {
            evaluation.current = Some(self.start_rollout(&evaluation.stepper));
            evaluation.next_size = self.test_sets.len();
            let progress = self.progress(Phase::Evaluating, Some(&*job));
            return Ok((Stage::Evaluating(job, evaluation), progress));
        };
        if current.steps_done() < self.config.eval.rollout_steps {
            let (net, stepper) = (&evaluation.net, &evaluation.stepper);
            self.roll_out_chunk(net, stepper, current, budget).await?;
        } else {
            self.score_next(&mut job, current)?;
            if current.scored == current.frames.len() {
                evaluation.current = None;
            }
        }
        let progress = self.progress(Phase::Evaluating, Some(&*job));
        Ok((Stage::Evaluating(job, evaluation), progress))
    }

    /// The start of the rollout of every test of every size, as one batch.
    fn start_rollout(&self, stepper: &Stepper) -> TestRollout {
        let sizes = self.test_sets.len();
        let per_size = self.config.eval.tests_per_size;
        let truths = self.test_sets.iter().flat_map(|size| &size.truth);
        TestRollout {
            state: start_state(truths.clone(), &stepper.device()),
            channel: stepper.groups_channel(sizes, per_size),
            frames: truths
                .map(|t| vec![t[0].iter().map(|&v| v as f32 as f64).collect()])
                .collect(),
            scored: 0,
        }
    }

    /// Steps the rollout `current` on by about the work of `budget` training iterations.
    async fn roll_out_chunk(
        &mut self,
        net: &Net,
        stepper: &Stepper,
        current: &mut TestRollout,
        budget: usize,
    ) -> Result<(), StudyError> {
        let sizes = self.test_sets.len();
        let eval = &self.config.eval;
        // About the work of a one-size chunk per tick (the browser's tick stays short).
        let steps = (budget * EVAL_STEPS_PER_ITERATION)
            .div_ceil(sizes.max(1))
            .min(eval.rollout_steps - current.steps_done());
        let (state, chunk) = rollout_chunk_groups(
            net,
            stepper,
            sizes,
            current.state.clone(),
            &current.channel,
            steps,
        )
        .await?;
        current.state = state;
        for (frames, new) in current.frames.iter_mut().zip(chunk) {
            frames.extend(new);
        }
        self.work_done += EVAL_WORK * 0.5 * (sizes * steps) as f64 / eval.rollout_steps as f64;
        Ok(())
    }

    /// Scores the next test of the finished rollout `current` into `job` (and keeps the first
    /// seed's sample test).
    fn score_next(&mut self, job: &mut Job, current: &mut TestRollout) -> Result<(), StudyError> {
        let eval = &self.config.eval;
        let per_size = eval.tests_per_size;
        let index = current.scored;
        let (size, test) = (index / per_size, index % per_size);
        let test_size = self
            .test_sets
            .get(size)
            .ok_or(StudyError::NoSuchTest { size, test })?;
        job.tests.push(self.system.test_metrics(
            &test_size.truth[test],
            &current.frames[index],
            test_size.scale,
            eval.error_horizon,
        )?);
        let first_seed = self.jobs[job.index].seed == self.config.seeds[0];
        if first_seed && test == SAMPLE_TEST {
            job.samples.push(self.system.sample(&current.frames[index]));
        }
        current.scored += 1;
        self.work_done += EVAL_WORK * 0.5 / per_size as f64;
        Ok(())
    }

    /// Records a finished (or diverged) job; reports its variant when all its seeds are in.
    /// The next job follows, or the study is done.
    /// `evaluated_sizes` test sizes were evaluated (the work of the others is counted as done).
    pub(super) async fn finish_job(&mut self, job: Box<Job>, evaluated_sizes: usize) -> Step {
        let spec = &self.jobs[job.index];
        let (variant, seed) = (spec.variant, spec.seed);
        self.work_done += EVAL_WORK * self.test_sets.len().saturating_sub(evaluated_sizes) as f64;
        let diverged_at = job.log.diverged_at;
        let mut weights = None;
        if let Some(k) = diverged_at {
            let planned = job.trainer.config().iterations;
            self.work_done += planned.saturating_sub(k + 1) as f64;
        } else {
            let net = job.trainer.net_for_inference();
            weights = Some(Packed::f32s(&flat_weights(&net).await?));
            if seed == self.config.seeds[0] {
                let bytes = weights_bytes(&net, &job.trainer.config().net).await?;
                self.weights[variant] = Some(bytes);
            }
        }
        let mut progress = self.progress(Phase::Evaluating, Some(&*job));
        let diverged = diverged_at.is_some();
        let job = *job;
        let outcome = SeedOutcome {
            training: SeedTraining {
                seed,
                iterations_done: diverged_at.unwrap_or(job.trainer.iteration()),
                iterations_per_sec: job.trainer.iteration() as f64 / job.training_secs.max(1e-9),
                diverged_at,
                loss_curve: downsample(&job.log.history, 200),
                gradient_skips: job.trainer.skipped_updates(),
            },
            tests: if diverged { Vec::new() } else { job.tests },
            samples: if diverged { Vec::new() } else { job.samples },
            weights,
        };
        progress.finished_training = Some((variant, outcome.clone()));
        self.outcomes[variant].push(outcome);
        if self.outcomes[variant].len() == self.config.seeds.len() {
            let result = variant_result(
                &self.variants[variant],
                &self.config.seeds,
                &self.outcomes[variant],
                self.system.diverged_error(),
            );
            self.results[variant] = Some(result.clone());
            progress.finished_variant = Some(result);
        }
        let next = if job.index + 1 < self.jobs.len() {
            Stage::NextJob {
                next: job.index + 1,
            }
        } else {
            progress.phase = Phase::Done;
            Stage::Done
        };
        Ok((next, progress))
    }
}
