//! The cost of a study before it runs, as pure functions of its [`StudyConfig`]: counted FLOPs
//! (training and evaluation), estimated peak memory, and the time at a measured FLOP rate
//! ([`calibrate`] measures it on a device). The browser shows it under the form and refuses a
//! study above its memory limit; the CLI prints it before a study runs.

use burn::tensor::Device;

use crate::nets::NetConfig;
use crate::study::run::error::StudyError;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::system::physics::PhysicalSystem;
use crate::train::ensemble::ensemble_refusal;
use crate::train::flops::{flops_per_iteration, training_flops};
use crate::train::run::LossLog;
use crate::train::{EnsembleTrainer, MemberLogs, Modality, Mode, TrainConfig, TrainError, Trainer};
use crate::types::{EvalConfig, Trajectory};

/// What a study costs. See [`cost`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Trainings (variants × seeds).
    pub trainings: usize,
    /// Training iterations in all.
    pub iterations: usize,
    /// Counted FLOPs of every training iteration ([`flops_per_iteration`]).
    pub training_flops: f64,
    /// Counted FLOPs of the evaluation rollouts (network forward + solver per step, per test).
    pub evaluation_flops: f64,
    /// Counted FLOPs of making the data with the f64 ground truth
    /// ([`SystemDescription::data_flops`]; made once, before any training).
    pub data_flops: f64,
    /// Estimated peak memory in bytes ([`memory_bytes`]).
    pub memory_bytes: f64,
}

impl Cost {
    /// Counted FLOPs of the trainings and their evaluations (the data are counted apart,
    /// [`Cost::data_flops`]: they run at another rate).
    pub fn flops(&self) -> f64 {
        self.training_flops + self.evaluation_flops
    }

    /// Estimated seconds of making the data at `data_rate` FLOP/s (measured on the same device
    /// by timing a small data set: [`time_data`]); `None` before it is known.
    pub fn data_seconds(&self, data_rate: Option<f64>) -> Option<f64> {
        data_rate
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|rate| self.data_flops / rate)
    }

    /// Estimated seconds at `flop_rate` FLOP/s; `None` before the rate is known.
    pub fn seconds(&self, flop_rate: Option<f64>) -> Option<f64> {
        flop_rate
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|rate| self.flops() / rate)
    }
}

/// Trainings, iterations, counted FLOPs and memory of `config`. The FLOPs are training
/// ([`flops_per_iteration`]: network forward per call × `network_calls_per_iteration`,
/// backward ≈ 2× forward, solver, loss, Adam) plus the evaluation rollouts (per test size,
/// `rollout` steps of network forward + solver over its tests), and apart from them the data
/// (the f64 ground truth, [`SystemDescription::data_flops`]). `system` is `config.system`'s
/// implementation.
pub fn cost(config: &StudyConfig, system: &dyn SystemDescription) -> Cost {
    let seeds = config.seeds.len();
    let n = system.state_shape().values();
    let mut cost = Cost {
        trainings: 0,
        iterations: 0,
        training_flops: 0.0,
        evaluation_flops: 0.0,
        data_flops: system.data_flops(&config.base.data, &config.base.solver, Some(&config.eval)),
        memory_bytes: memory_bytes(config, system),
    };
    for variant in config.variants() {
        cost.trainings += seeds;
        cost.iterations += seeds * variant.iterations;
        let solver = system.solver_flops_per_state(variant.mode, variant.alpha);
        cost.training_flops += seeds as f64 * training_flops(&variant, n, solver);
        cost.evaluation_flops += seeds as f64 * evaluation_flops(&variant, &config.eval, n, solver);
    }
    cost
}

/// f32 values autodiff keeps per sample of `resolution` values for the backward pass: each
/// architecture's [`crate::nets::Network::activation_floats_per_sample`].
pub fn activation_floats_per_sample(net: &NetConfig, resolution: usize) -> f64 {
    net.activation_floats_per_sample(resolution)
}

/// Counted FLOPs of evaluating one trained `variant`: every test size's rollout of
/// `rollout_steps` steps, batched over its tests (network forward + the solver's
/// `solver_flops_per_state` per state and step).
fn evaluation_flops(
    variant: &TrainConfig,
    eval: &EvalConfig,
    resolution: usize,
    solver_flops_per_state: f64,
) -> f64 {
    let tests = eval.tests_per_size;
    let net = variant.net.flops_per_sample(resolution) * tests as f64;
    let solver = solver_flops_per_state * tests as f64;
    (eval.scales.len() * eval.rollout_steps) as f64 * (net + solver)
}

/// Estimated peak memory of the study in bytes (f32 = 4 bytes, f64 = 8). Variants train one
/// after the other, so the per-training terms are the largest variant's:
///
/// ```text
///   8 · S·6·F·N                 training data (f32): the study's host copy + the trainer's device copy
/// + 8 · S_t·T·(R+1)·N           test ground truth (f64)
/// + 16 · T·(R+1)·N              one test size's rollout: f32 states on the device, f32 readback, f64 copy
/// + max over variants of
///     16 · P                    parameters, gradients and Adam's two moments (f32)
///   + 4 · B·m·a(net)            the unrolled activations of one iteration: every loss step's network
///                               intermediates (a = activation_floats_per_sample), kept for the backward
///                               pass; warm-up steps are detached and freed, so they do not add up
///   + 4 · B·m·I                 WIG only: the solver's intermediates kept for the backward (I per state
///                               and step, `SystemDescription::solver_backward_floats`; KS: 8 per sub-step and value)
///   + 4 · B·(w+m+1)·N           the gathered minibatch windows
/// ```
///
/// S = training sizes, F = frames per trajectory, N = values per state, S_t = test sizes,
/// T = tests per size, R = rollout steps, P = parameters, B = effective batch (ONE: batch·m),
/// m = effective horizon (ONE: 1), w = warm-up. Allocator and autodiff bookkeeping are not
/// counted.
pub fn memory_bytes(config: &StudyConfig, system: &dyn SystemDescription) -> f64 {
    let resolution = system.state_shape().values();
    let n = resolution as f64;
    let trajectories = system.training_trajectories(&config.base.data);
    let data = trajectories as f64 * config.base.data.frames as f64 * n;
    let eval = &config.eval;
    let rollout_values = eval.tests_per_size as f64 * (eval.rollout_steps + 1) as f64 * n;
    let shared =
        8.0 * data + 8.0 * eval.scales.len() as f64 * rollout_values + 16.0 * rollout_values;
    let per_training = config
        .variants()
        .iter()
        .map(|variant| {
            let batch = variant.effective_batch() as f64;
            let unroll = variant.effective_unroll();
            let m = unroll.horizon as f64;
            let params = 16.0 * variant.net.parameter_count() as f64;
            let activations =
                4.0 * batch * m * activation_floats_per_sample(&variant.net, resolution);
            let solver = match variant.modality {
                Modality::Wig => {
                    4.0 * batch * m * system.solver_backward_floats(variant.mode, variant.alpha)
                }
                _ => 0.0,
            };
            let windows = 4.0 * batch * (unroll.warmup + unroll.horizon + 1) as f64 * n;
            params + activations + solver + windows
        })
        .fold(0.0, f64::max);
    shared + per_training
}

/// Makes the training data of `config` (on the CPU, as a study does) and times it with
/// `now_secs`: the trajectories and the data FLOP rate ([`SystemDescription::data_flops`] per
/// second; `None` when the clock did not move or nothing was counted).
pub fn time_data(
    system: &dyn PhysicalSystem,
    config: &TrainConfig,
    now_secs: &dyn Fn() -> f64,
) -> Result<(Vec<Trajectory>, Option<f64>), TrainError> {
    let start = now_secs();
    let trajectories = system.training_data(&config.data, &config.solver)?;
    let seconds = now_secs() - start;
    let flops = system.data_flops(&config.data, &config.solver, None);
    let rate = (seconds > 0.0 && flops > 0.0).then(|| flops / seconds);
    Ok((trajectories, rate.filter(|r| r.is_finite())))
}

/// Training iterations of one timed round of a [`Calibration`].
pub const TIMED_ITERATIONS: usize = 3;
/// Seconds of timed rounds a [`Calibration`] runs (it stops after the first round that passes
/// them): enough rounds that some fall where nothing else competes for the core.
pub const TIMING_BUDGET_SECS: f64 = 2.5;
/// Timed rounds of a [`Calibration`] at most (a clock that barely moves).
pub const MAX_TIMED_ROUNDS: usize = 200;

/// The FLOP-rate calibration of a device: a trainer of the system's quick budget (correction +
/// WIG; KS: the study's ResNet1D 16 × 10) on a small data set, after one untimed
/// iteration that takes the first-use costs (allocations, WebGPU pipeline compilation) out of
/// the measurement. [`Calibration::measure`] then times rounds of [`TIMED_ITERATIONS`]
/// iterations for [`TIMING_BUDGET_SECS`] and keeps their lower quartile ([`steady_ms`]).
pub struct Calibration {
    trainer: Stepping,
    config: TrainConfig,
    resolution: usize,
    solver_flops_per_state: f64,
}

impl Calibration {
    /// Builds the trainer of `system` on `device` and runs the untimed iteration (one async
    /// readback).
    pub async fn start(system: &dyn PhysicalSystem, device: &Device) -> Result<Self, StudyError> {
        let mut config = system.preset(Preset::Quick, 1).base;
        config.mode = Mode::Correct;
        config.modality = Modality::Wig;
        let config = Self::small(config);
        let trajectories = system.training_data(&config.data, &config.solver)?;
        Self::with_data(system, config, &trajectories, device).await
    }

    /// `config` with a small data set (the cost of an iteration does not depend on it): one
    /// parameter value, no data warm-up, 32 frames or the longest window (warm-up + horizon +
    /// 1): the configuration [`Self::with_data`] takes.
    pub fn small(mut config: TrainConfig) -> TrainConfig {
        let unroll = config.effective_unroll();
        let longest = config.stage_horizons().into_iter().max().unwrap_or(1);
        let needed = longest.max(unroll.horizon) + unroll.warmup + 1;
        if config.curriculum.take().is_some() {
            // Every timed iteration at the longest stage's horizon, the one counted; ONE keeps
            // its curriculum's batch (horizon 1).
            config.unroll.horizon = if config.modality == Modality::One {
                1
            } else {
                longest
            };
        }
        config.data.scales.truncate(1);
        config.data.warmup_steps = 0;
        config.data.frames = 32.max(needed);
        config
    }

    /// [`Self::start`] for `config` with its `trajectories` already made (the start-up probe
    /// times two devices on one data set).
    pub async fn with_data(
        system: &dyn PhysicalSystem,
        config: TrainConfig,
        trajectories: &[Trajectory],
        device: &Device,
    ) -> Result<Self, StudyError> {
        Self::with_members(system, config, 1, trajectories, device).await
    }

    /// [`Self::with_data`] for `members` trainings of `config` (seeds `1..=members`) as one
    /// ensemble, where they can be one (else one network); its timings are per network.
    pub async fn with_members(
        system: &dyn PhysicalSystem,
        config: TrainConfig,
        members: usize,
        trajectories: &[Trajectory],
        device: &Device,
    ) -> Result<Self, StudyError> {
        let resolution = system.state_shape().values();
        let solver_flops_per_state = system.solver_flops_per_state(config.mode, config.alpha);
        let configs: Vec<TrainConfig> = (1..=members.max(1) as u64)
            .map(|seed| TrainConfig {
                seed,
                ..config.clone()
            })
            .collect();
        let mut trainer = if configs.len() > 1 && ensemble_refusal(&configs).is_none() {
            Stepping::Together(Box::new(system.ensemble_trainer(
                configs,
                trajectories,
                device,
            )?))
        } else {
            Stepping::Alone(Box::new(system.trainer(
                config.clone(),
                trajectories,
                device,
            )?))
        };
        trainer.steps(1).await?;
        Ok(Self {
            trainer,
            config,
            resolution,
            solver_flops_per_state,
        })
    }

    /// Trainings one timed iteration steps (an ensemble's members; 1 alone).
    pub fn members(&self) -> usize {
        match &self.trainer {
            Stepping::Alone(_) => 1,
            Stepping::Together(trainer) => trainer.members(),
        }
    }

    /// Counted FLOPs of one timed iteration.
    pub fn flops_per_iteration(&self) -> f64 {
        flops_per_iteration(&self.config, self.resolution, self.solver_flops_per_state)
    }

    /// Times rounds of iterations with `now_secs` ([`Self::ms_per_iteration`]): counted FLOP/s.
    pub async fn measure(self, now_secs: &dyn Fn() -> f64) -> Result<f64, StudyError> {
        let flops = self.flops_per_iteration();
        let ms = self.ms_per_iteration(now_secs).await?;
        Ok(flops / (ms / 1000.0))
    }

    /// Times rounds of [`TIMED_ITERATIONS`] iterations with `now_secs` (one readback at the end
    /// of each) until they took [`TIMING_BUDGET_SECS`] ([`MAX_TIMED_ROUNDS`] at most): the
    /// milliseconds per iteration of one network (an ensemble's divided by its members) of the
    /// rounds' lower quartile ([`steady_ms`]).
    pub async fn ms_per_iteration(mut self, now_secs: &dyn Fn() -> f64) -> Result<f64, StudyError> {
        let members = self.members();
        let (mut rounds, mut spent) = (Vec::new(), 0.0);
        while spent < TIMING_BUDGET_SECS && rounds.len() < MAX_TIMED_ROUNDS {
            let start = now_secs();
            self.trainer.steps(TIMED_ITERATIONS).await?;
            let seconds = now_secs() - start;
            if !(seconds > 0.0 && seconds.is_finite()) {
                return Err(StudyError::Clock(seconds));
            }
            spent += seconds;
            rounds.push(1000.0 * seconds / (TIMED_ITERATIONS * members) as f64);
        }
        Ok(steady_ms(&rounds))
    }
}

/// What a [`Calibration`] steps: one network, or an ensemble.
enum Stepping {
    Alone(Box<Trainer>),
    Together(Box<EnsembleTrainer>),
}

impl Stepping {
    /// `iterations` iterations, then one readback of their losses.
    async fn steps(&mut self, iterations: usize) -> Result<(), StudyError> {
        match self {
            Stepping::Alone(trainer) => {
                let mut log = LossLog::default();
                for _ in 0..iterations {
                    log.push(trainer.step()?);
                }
                log.flush().await?;
            }
            Stepping::Together(trainer) => {
                let mut logs = MemberLogs::new(trainer.members());
                for _ in 0..iterations {
                    logs.push(trainer.step()?);
                }
                logs.flush().await?;
            }
        }
        Ok(())
    }
}

/// Measures the counted FLOP/s of training `system` on `device` ([`Calibration`] without a
/// pause).
pub async fn calibrate(
    system: &dyn PhysicalSystem,
    device: &Device,
    now_secs: &dyn Fn() -> f64,
) -> Result<f64, StudyError> {
    Calibration::start(system, device)
        .await?
        .measure(now_secs)
        .await
}

/// The lower quartile of timed `rounds` (ms per iteration; the nearest rank, so the fastest
/// of up to four): the device's pace where nothing else competed for it. The probe times while
/// the page is still loading, whose own work (the first screen's picture, the playground) and
/// other programs slow some rounds 2–5× (bench/measurements/2026-12-06-probe-experiment-release.txt),
/// while a run trains on a quiet page; a quartile rather than the fastest round keeps one
/// round's luck out.
pub fn steady_ms(rounds: &[f64]) -> f64 {
    let mut sorted = rounds.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n => sorted[(n - 1) / 4],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::system::Ks;

    /// A calibration of 3 seeds times them as one ensemble where the architecture has a member
    /// axis (its time per network), else one network.
    #[test]
    fn calibration_times_an_ensemble_per_network() {
        let mut config = Ks.preset(Preset::Quick, 1).base;
        config.net.channels = 4;
        config.net.depth = 1;
        let config = Calibration::small(config);
        let data = Ks
            .training_data(&config.data, &config.solver)
            .expect("data");
        let ticks = std::cell::Cell::new(0.0);
        let clock = || {
            ticks.set(ticks.get() + 0.5);
            ticks.get()
        };
        let device = backend::cpu();
        let together = pollster::block_on(Calibration::with_members(
            &Ks,
            config.clone(),
            3,
            &data,
            &device,
        ))
        .expect("calibration");
        assert_eq!(together.members(), 3);
        // 3 timed ensemble iterations in 0.5 s of the test clock: 0.5 s / 9 network iterations.
        let ms = pollster::block_on(together.ms_per_iteration(&clock)).expect("timed");
        assert!((ms - 500.0 / 9.0).abs() < 1e-9, "{ms}");
        // What cannot share a model (here: the gradient guard) is timed alone.
        let mut guarded = config;
        guarded.gradient_guard = true;
        let alone = pollster::block_on(Calibration::with_members(&Ks, guarded, 3, &data, &device))
            .expect("calibration");
        assert_eq!(alone.members(), 1);
    }

    /// Rounds are timed until the budget is spent, and their lower quartile kept: disturbed
    /// rounds do not count; one slow round is enough.
    #[test]
    fn calibration_times_rounds_for_its_budget() {
        let mut config = Ks.preset(Preset::Quick, 1).base;
        (config.net.channels, config.net.depth) = (4, 1);
        let config = Calibration::small(config);
        let data = Ks
            .training_data(&config.data, &config.solver)
            .expect("data");
        let timed = |rounds: &[f64]| {
            // The clock reads each round's start, then its end.
            let mut stamps = vec![0.0];
            for round in rounds {
                let end = stamps.last().copied().unwrap_or(0.0) + round;
                stamps.extend([end, end]);
            }
            let next = std::cell::Cell::new(0);
            let clock = || {
                next.set(next.get() + 1);
                stamps[next.get() - 1]
            };
            let device = backend::cpu();
            let calibration = Calibration::with_data(&Ks, config.clone(), &data, &device);
            let calibration = pollster::block_on(calibration).expect("calibration");
            let ms = pollster::block_on(calibration.ms_per_iteration(&clock)).expect("timed");
            (ms, next.get() / 2)
        };
        let per_iteration = |seconds: f64| 1000.0 * seconds / TIMED_ITERATIONS as f64;
        let (ms, rounds) = timed(&[1.0, 0.5, 0.3, 0.29, 0.28, 0.9, 0.1, 0.1]);
        assert_eq!(
            rounds, 6,
            "the sixth round spends the {TIMING_BUDGET_SECS} s"
        );
        assert!((ms - per_iteration(0.29)).abs() < 1e-9, "{ms}");
        let busy = [0.6, 0.2, 0.5, 0.2, 0.21, 0.5, 0.4, 0.2, 0.6];
        let (ms, rounds) = timed(&busy);
        assert_eq!(rounds, 7);
        assert!((ms - per_iteration(0.2)).abs() < 1e-9, "{ms}");
        let (ms, rounds) = timed(&[3.0, 0.1]);
        assert_eq!(rounds, 1, "one round past the budget is the timing");
        assert!((ms - per_iteration(3.0)).abs() < 1e-9, "{ms}");
    }

    /// A curriculum's training counts each stage at its own horizon, and the probe's small
    /// config times every iteration at the longest, which is what it counts per iteration.
    #[test]
    fn curricula_count_each_stage_and_the_probe_times_the_longest() {
        use crate::kolmogorov::system::Kolmogorov;
        let config = Kolmogorov.preset(Preset::Quick, 1);
        let n = Kolmogorov.state_shape().values();
        let wig = config
            .variants()
            .into_iter()
            .find(|v| v.modality == Modality::Wig)
            .expect("WIG");
        let curriculum = wig.curriculum.clone().expect("a curriculum");
        let solver = Kolmogorov.solver_flops_per_state(wig.mode, wig.alpha);
        let at = |horizon: usize| {
            let mut stage = wig.clone();
            stage.unroll.horizon = horizon;
            flops_per_iteration(&stage, n, solver)
        };
        let stages: f64 = curriculum.horizons.iter().map(|&h| at(h)).sum();
        let total = training_flops(&wig, n, solver);
        assert!((total - curriculum.stage_iterations as f64 * stages).abs() <= 1e-9 * total);
        assert!(total < wig.total_iterations() as f64 * at(4));
        let small = Calibration::small(wig.clone());
        assert!(small.curriculum.is_none());
        let longest = curriculum.horizons.iter().copied().max().expect("stages");
        assert_eq!(small.effective_unroll().horizon, longest);
        assert_eq!(flops_per_iteration(&small, n, solver), at(longest));
    }

    #[test]
    fn steady_ms_is_the_lower_quartile() {
        assert_eq!(steady_ms(&[9.0, 1.0, 2.0, 3.0]), 1.0);
        assert_eq!(steady_ms(&[9.0, 8.0, 1.0, 7.0, 2.0]), 2.0);
        assert_eq!(
            steady_ms(&[5.0, 4.0, 3.0, 2.0, 1.0, 6.0, 7.0, 8.0, 9.0]),
            3.0
        );
        assert_eq!(steady_ms(&[4.0]), 4.0);
        assert!(steady_ms(&[]).is_nan());
    }

    #[test]
    fn cost_counts_trainings_flops_and_memory() {
        let config = Ks.preset(Preset::Quick, 1);
        let c = cost(&config, &Ks);
        assert_eq!((c.trainings, c.iterations), (6, 6 * 900));
        let training: f64 = config
            .variants()
            .iter()
            .map(|v| 900.0 * flops_per_iteration(v, 48, Ks.solver_flops_per_state(v.mode, v.alpha)))
            .sum();
        assert!((c.training_flops - training).abs() <= 1e-9 * training);
        assert!(c.evaluation_flops > 0.0);
        assert_eq!(c.seconds(None), None);
        let rate = c.flops() / 120.0;
        assert!((c.seconds(Some(rate)).expect("rate") - 120.0).abs() < 1e-6);
        // Two seeds double everything but the memory; a longer unroll takes more memory.
        let two = cost(&Ks.preset(Preset::Quick, 2), &Ks);
        assert!((two.flops() - 2.0 * c.flops()).abs() < 1e-6 * c.flops());
        assert_eq!(two.memory_bytes, c.memory_bytes);
        let mut longer = config.clone();
        longer.horizons = vec![12];
        assert!(memory_bytes(&longer, &Ks) > c.memory_bytes);
    }

    #[test]
    fn a_small_calibration_keeps_room_for_the_longest_window() {
        let mut config = Ks.preset(Preset::Quick, 1).base;
        config.modality = Modality::Wig;
        config.unroll.horizon = 40;
        let small = Calibration::small(config);
        assert_eq!(small.data.scales.len(), 1);
        assert!(small.data.frames >= 41, "{}", small.data.frames);
        assert!(small.validate().is_ok(), "{:?}", small.validate());
    }

    #[test]
    fn calibration_measures_a_positive_rate() {
        let ticks = std::cell::Cell::new(0.0);
        let clock = || {
            ticks.set(ticks.get() + 0.5);
            ticks.get()
        };
        let rate = pollster::block_on(calibrate(&Ks, &backend::cpu(), &clock)).expect("calibrates");
        assert!(rate > 0.0 && rate.is_finite());
    }

    /// Every system's data are counted, and timing a small data set gives a rate.
    #[test]
    fn data_are_counted_and_timed() {
        for system in crate::types::System::ALL {
            let physics = system.physics();
            let config = physics.preset(Preset::Quick, 1);
            let cost = cost(&config, physics);
            assert!(cost.data_flops > 0.0, "{system}: {cost:?}");
            assert_eq!(cost.data_seconds(Some(cost.data_flops / 10.0)), Some(10.0));
        }
        let mut config = Ks.preset(Preset::Quick, 1).base;
        config.data.scales.truncate(1);
        config.data.frames = 8;
        let clock = std::cell::Cell::new(0.0);
        let tick = || {
            clock.set(clock.get() + 0.5);
            clock.get()
        };
        let (data, rate) = time_data(&Ks, &config, &tick).expect("data");
        assert_eq!(data.len(), Ks.training_trajectories(&config.data));
        assert_eq!(
            rate,
            Some(Ks.data_flops(&config.data, &config.solver, None) / 0.5)
        );
    }
}
