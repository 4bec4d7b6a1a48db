//! The one run loop of a study, for every front end: [`Driver::tick`] advances the
//! [`Study`] by one bounded piece (sized by a [`TickPolicy`]) and returns typed [`RunEvent`]s —
//! progress with phase and ETA, new losses of a named series, the data made (when asked to
//! share it), a finished training, a finished variant, the results with the trained weights,
//! or an error. This one serialisable stream is what the CLI's progress bars, a Web Worker
//! (posting it as JSON) and the page's pool controller consume. No browser or terminal types here.

use std::rc::Rc;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::error::StudyError;
use super::runner::Study;
use crate::study::data::aggregate::SeedOutcome;
use crate::study::data::prepared::Prepared;
use crate::study::data::progress::{eta_secs, Phase, StudyProgress};
use crate::study::data::results::{StudyResults, VariantId, VariantResult};
use crate::system::config::StudyConfig;
use crate::system::physics::Systems;
use crate::train::{Modality, Mode};

/// What a running study reports, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RunEvent {
    /// Where the study is, after every tick.
    Progress(Progress),
    /// Losses of one training series (a variant's seed) read back in this tick.
    Losses(Losses),
    /// The data and the baseline are made (only from a driver asked to share them,
    /// [`Driver::sharing_data`]).
    DataReady(Box<Prepared>),
    /// A training finished and was evaluated (or diverged).
    TrainingFinished(Box<TrainingFinished>),
    /// A variant finished evaluating (all its seeds).
    VariantFinished(Box<VariantResult>),
    /// The study is done: its results and the trained weights (first seed of each variant,
    /// burnpack bytes, with the variant's file-name label).
    Finished {
        /// The results file.
        results: Box<StudyResults>,
        /// `(label, bytes)` per trained variant.
        weights: Vec<(String, Vec<u8>)>,
    },
    /// The study stopped.
    Error(String),
}

/// One finished training (variant × seed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingFinished {
    /// Its index among the whole study's trainings (variant-major, then seed: a plan's cell).
    pub cell: usize,
    /// Index of its variant in [`StudyConfig::variants`].
    pub variant: usize,
    /// The training's summary, per-test metrics and sample rollouts.
    pub outcome: SeedOutcome,
    /// The variant's trained weights `(file-name label, burnpack bytes)` when this is its
    /// first seed and it did not diverge.
    pub weights: Option<(String, Vec<u8>)>,
    /// Seconds since the previous finished training (or the start): data, training and
    /// evaluation.
    pub wall_secs: f64,
    /// Of which making the data and scoring the baseline (the driver's first training only).
    pub data_secs: f64,
}

/// Progress of the study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// What the study is doing.
    pub phase: Phase,
    /// One line: `Training C-NOG seed 0 (4/6), iteration 120/300`.
    pub description: String,
    /// Fraction of the work done, in [0, 1].
    pub fraction: f64,
    /// Estimated seconds left (after 1 % of the work).
    pub eta_secs: Option<f64>,
}

/// New losses of one series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// The series: the variant, its size or horizon where the grid varies them, the seed
    /// (`C-NOG 8×4 seed 1`).
    pub series: String,
    /// The variant's mode × modality (its colour).
    pub hue: (Mode, Modality),
    /// Iteration of the first loss.
    pub first_iteration: usize,
    /// One loss per iteration (a non-finite loss is `null` in JSON).
    #[serde(deserialize_with = "crate::types::nullable::f32s")]
    pub values: Vec<f32>,
}

/// How many training iterations one tick may do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TickPolicy {
    /// Always this many (the CLI: 20).
    Fixed(usize),
    /// Start at 1 and double or halve to keep a training tick near `target_secs` (the
    /// browser: 40 ms, so the page stays responsive).
    Adaptive {
        /// Target wall time of one tick.
        target_secs: f64,
    },
}

/// Most training iterations per tick under [`TickPolicy::Adaptive`].
pub const MAX_ITERATIONS_PER_TICK: usize = 256;

/// Training iterations per tick natively (the CLI's study and a cluster cell: tick size decides
/// where a diverging training's loss curve is cut, so both use this one).
pub const NATIVE_ITERATIONS_PER_TICK: usize = 20;

/// Drives a [`Study`] to its end, one tick at a time.
pub struct Driver {
    study: Study,
    policy: TickPolicy,
    per_tick: usize,
    clock: Rc<dyn Fn() -> f64>,
    started_secs: f64,
    stopped: bool,
    share_data: bool,
    data_secs: Option<f64>,
    last_finished_secs: f64,
    trainings_finished: usize,
}

impl Driver {
    /// Validates `config` and prepares the study on `device` (`systems`: the registry's
    /// `System::physics`); `clock` reads seconds.
    pub fn new(
        config: StudyConfig,
        systems: Systems,
        device: &Device,
        clock: Rc<dyn Fn() -> f64>,
        policy: TickPolicy,
    ) -> Result<Self, StudyError> {
        let study_clock = clock.clone();
        let study = Study::new(config, systems, device, Box::new(move || study_clock()))?;
        Ok(Self::from_study(study, clock, policy))
    }

    /// Drives a prepared `study` (e.g. one restricted by [`Study::only_jobs`]).
    pub fn from_study(study: Study, clock: Rc<dyn Fn() -> f64>, policy: TickPolicy) -> Self {
        let per_tick = match policy {
            TickPolicy::Fixed(n) => n.max(1),
            TickPolicy::Adaptive { .. } => 1,
        };
        let now = clock();
        Self {
            study,
            policy,
            per_tick,
            started_secs: now,
            clock,
            stopped: false,
            share_data: false,
            data_secs: None,
            last_finished_secs: now,
            trainings_finished: 0,
        }
    }

    /// Also reports the data and the baseline once they are made ([`RunEvent::DataReady`]).
    pub fn sharing_data(mut self) -> Self {
        self.share_data = true;
        self
    }

    /// Seconds since the last training finished (or the driver started), on its clock: the
    /// running training's wall time so far, as [`TrainingFinished::wall_secs`] will count it.
    pub fn running_secs(&self) -> f64 {
        (self.clock)() - self.last_finished_secs
    }

    /// True after the results or an error were reported.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The study being run.
    pub fn study(&self) -> &Study {
        &self.study
    }

    /// The study being run, to change before its first tick (e.g. [`Study::resume_from`]).
    pub(in crate::study) fn study_mut(&mut self) -> &mut Study {
        &mut self.study
    }

    /// Advances the study by one piece; the events it produced (none once stopped).
    pub async fn tick(&mut self) -> Vec<RunEvent> {
        if self.stopped {
            return Vec::new();
        }
        let tick_start = (self.clock)();
        let progress = match self.study.advance(self.per_tick).await {
            Ok(progress) => progress,
            Err(err) => {
                self.stopped = true;
                return vec![RunEvent::Error(err.to_string())];
            }
        };
        let now = (self.clock)();
        if progress.phase == Phase::Training {
            self.resize(now - tick_start);
        }
        let mut events = vec![RunEvent::Progress(self.progress(&progress, now))];
        events.extend(self.losses(&progress).into_iter().map(RunEvent::Losses));
        if self.data_secs.is_none() && self.study.data_ready() {
            self.data_secs = Some(now - self.started_secs);
            if self.share_data {
                events.extend(
                    self.study
                        .prepared()
                        .map(|p| RunEvent::DataReady(Box::new(p))),
                );
            }
        }
        if let Some((variant, outcome)) = progress.finished_training {
            events.push(RunEvent::TrainingFinished(Box::new(
                self.training_finished(variant, outcome, now),
            )));
        }
        if let Some(variant) = progress.finished_variant {
            events.push(RunEvent::VariantFinished(Box::new(variant)));
        }
        if self.study.finished() {
            self.stopped = true;
            let weights = self
                .study
                .weights()
                .into_iter()
                .map(|(label, bytes)| (label, bytes.to_vec()))
                .collect();
            events.push(RunEvent::Finished {
                results: Box::new(self.study.results(now - self.started_secs)),
                weights,
            });
        }
        events
    }

    /// Doubles or halves the iterations per tick toward the adaptive target.
    fn resize(&mut self, elapsed_secs: f64) {
        if let TickPolicy::Adaptive { target_secs } = self.policy {
            if elapsed_secs < target_secs / 2.0 {
                self.per_tick = (self.per_tick * 2).min(MAX_ITERATIONS_PER_TICK);
            } else if elapsed_secs > target_secs * 1.5 && self.per_tick > 1 {
                self.per_tick /= 2;
            }
        }
    }

    fn progress(&self, progress: &StudyProgress, now: f64) -> Progress {
        let fraction = progress.fraction;
        let elapsed = now - self.started_secs;
        Progress {
            phase: progress.phase,
            description: progress.describe(),
            fraction,
            eta_secs: eta_secs(elapsed, fraction),
        }
    }

    fn training_finished(
        &mut self,
        variant: usize,
        outcome: SeedOutcome,
        now: f64,
    ) -> TrainingFinished {
        let seeds = &self.study.config().seeds;
        let seed = outcome.training.seed;
        let position = seeds.iter().position(|&s| s == seed).unwrap_or_default();
        let first = self.trainings_finished == 0;
        let finished = TrainingFinished {
            cell: variant * seeds.len() + position,
            variant,
            weights: (position == 0)
                .then(|| self.study.variant_weights(variant))
                .flatten(),
            outcome,
            wall_secs: now - self.last_finished_secs,
            data_secs: if first {
                self.data_secs.unwrap_or_default()
            } else {
                0.0
            },
        };
        self.last_finished_secs = now;
        self.trainings_finished += 1;
        finished
    }

    /// The live-loss events of a report: the job's, and each other ensemble member's.
    fn losses(&self, progress: &StudyProgress) -> Vec<Losses> {
        let Some(id) = progress.variant else {
            return Vec::new();
        };
        let first_iteration = progress.iteration - progress.new_losses.len();
        let series = |id: &VariantId, seed: u64, values: &[f32]| Losses {
            series: series_name(self.study.config(), id, seed),
            hue: (id.mode, id.modality),
            first_iteration,
            values: values.to_vec(),
        };
        std::iter::once(series(&id, progress.seed, &progress.new_losses))
            .chain(
                progress
                    .member_losses
                    .iter()
                    .map(|m| series(&m.variant, m.seed, &m.new_losses)),
            )
            .filter(|losses| !losses.values.is_empty())
            .collect()
    }
}

/// The live-loss series name of a job: the variant, its size or horizon where the study varies
/// them, and the seed.
pub fn series_name(config: &StudyConfig, id: &VariantId, seed: u64) -> String {
    let mut name = id.label();
    if config
        .sizes
        .iter()
        .any(|s| s.architecture != config.sizes[0].architecture)
    {
        name.push_str(&format!(" {}", id.architecture));
    }
    if config.sizes.len() > 1 {
        name.push_str(&format!(" {}×{}", id.channels, id.depth));
    }
    if config.horizons.len() > 1 {
        name.push_str(&format!(" m={}", id.horizon));
    }
    format!("{name} seed {seed}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::preset::tiny_config;

    #[test]
    fn a_tiny_study_reports_progress_losses_variants_and_results() {
        let mut config = tiny_config();
        config.horizons = vec![1, 2];
        let ticks = std::cell::Cell::new(0.0);
        let clock: Rc<dyn Fn() -> f64> = Rc::new(move || {
            ticks.set(ticks.get() + 0.001);
            ticks.get()
        });
        let mut driver = Driver::new(
            config,
            crate::system::System::physics,
            &backend::cpu(),
            clock,
            TickPolicy::Adaptive { target_secs: 0.04 },
        )
        .expect("driver");
        let mut events = Vec::new();
        let mut guard = 0;
        while !driver.stopped() {
            events.extend(pollster::block_on(driver.tick()));
            guard += 1;
            assert!(guard < 500, "does not finish");
        }
        let losses: Vec<&Losses> = events
            .iter()
            .filter_map(|e| match e {
                RunEvent::Losses(l) => Some(l),
                _ => None,
            })
            .collect();
        assert_eq!(losses.iter().map(|l| l.values.len()).sum::<usize>(), 10);
        assert!(losses.iter().any(|l| l.series == "P-NOG m=2 seed 0"));
        assert_eq!(losses[0].first_iteration, 0);
        let finished = events
            .iter()
            .filter(|e| matches!(e, RunEvent::VariantFinished(_)))
            .count();
        assert_eq!(finished, 2);
        let trainings: Vec<&TrainingFinished> = events
            .iter()
            .filter_map(|e| match e {
                RunEvent::TrainingFinished(t) => Some(&**t),
                _ => None,
            })
            .collect();
        assert_eq!(trainings.iter().map(|t| t.cell).collect::<Vec<_>>(), [0, 1]);
        assert!(trainings.iter().all(|t| t.weights.is_some()));
        assert!(trainings[0].data_secs > 0.0 && trainings[1].data_secs == 0.0);
        assert!(!events.iter().any(|e| matches!(e, RunEvent::DataReady(_))));
        // The stream is serialisable: what a worker posts reads back equal.
        for event in &events {
            let json = serde_json::to_string(event).expect("json");
            let back: RunEvent = serde_json::from_str(&json).expect("parse");
            assert_eq!(&back, event);
        }
        let Some(RunEvent::Finished { results, weights }) = events.last() else {
            panic!("the last event is the results");
        };
        assert_eq!(results.variants.len(), 2);
        assert_eq!(weights.len(), 2);
        assert!(events.iter().any(|e| matches!(
            e,
            RunEvent::Progress(Progress {
                eta_secs: Some(_),
                ..
            })
        )));
        assert!(pollster::block_on(driver.tick()).is_empty());
    }
}
