//! The full training configuration (serde: `train.json`, the URL, the results file).

use serde::{Deserialize, Serialize};

use super::error::TrainError;
use crate::nets::NetConfig;
use crate::types::{SolverSetup, System};

use super::curriculum::Curriculum;

/// How the network enters the time step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `u' = f(u, s)`: the network alone.
    Predict,
    /// `u' = ETD1²(u) + Δt·f(u, s)` with Δt = 0.5: solver-in-the-loop.
    Correct,
    /// `v = ETRK2 over α of the step`, `u' = v + (1 − α)·f(v, s)`.
    Transition,
}

crate::named_enum!(Mode, "mode", {
    Predict => "predict",
    Correct => "correct",
    Transition => "transition",
});

impl Mode {
    /// The paper's one-letter tag (`P`, `C`, `T`).
    pub fn letter(self) -> &'static str {
        match self {
            Mode::Predict => "P",
            Mode::Correct => "C",
            Mode::Transition => "T",
        }
    }
}

/// How gradients flow through the unrolled steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Modality {
    /// One-step supervised: horizon 1, batch ×m (iterations unchanged, so epochs ×m).
    One,
    /// Unrolled, no gradients through time: each step's input is detached.
    Nog,
    /// Unrolled with gradients through network and solver (cut every `detach_interval` steps).
    Wig,
}

crate::named_enum!(Modality, "modality", {
    One => "one",
    Nog => "nog",
    Wig => "wig",
});

impl Modality {
    /// Upper-case label (`ONE`, `NOG`, `WIG`).
    pub fn label(self) -> &'static str {
        match self {
            Modality::One => "ONE",
            Modality::Nog => "NOG",
            Modality::Wig => "WIG",
        }
    }
}

/// The unroll: `warmup` detached steps outside the loss, then `horizon` steps in the loss, with
/// the gradient cut before every `detach_interval`-th loss step (WIG; 0 = never).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrollConfig {
    /// Loss steps `m` (the study: 3).
    pub horizon: usize,
    /// Warm-up steps `w` (pushforward trick; the study: 0).
    pub warmup: usize,
    /// Truncated BPTT interval `k` (0 = never cut; the study: 0).
    pub detach_interval: usize,
}

impl UnrollConfig {
    /// `m` loss steps after `w` warm-up steps, cut every `k` steps (0: never).
    pub const fn new(horizon: usize, warmup: usize, detach_interval: usize) -> Self {
        Self {
            horizon,
            warmup,
            detach_interval,
        }
    }
}

impl Default for UnrollConfig {
    fn default() -> Self {
        Self::new(3, 0, 0)
    }
}

/// Adam with a step-decayed learning rate `lr · γ^⌊i / K⌋`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OptimizerConfig {
    /// Initial learning rate (the study: 1e-4 for the CNN, 1e-3 for the GCN).
    pub learning_rate: f64,
    /// Decay factor γ (the study: 0.9).
    pub decay: f64,
    /// Iterations between decays K (the study: 2000).
    pub decay_every: usize,
    /// `Some(n)`: K follows the budget, `⌊(iterations − 1) / n⌋` (at least 1), so a run decays
    /// n times whatever its length (a few more on runs under ~n² iterations), and
    /// [`TrainConfig::set_iterations`] keeps it so; KS's quick preset compresses the study's
    /// schedule this way. `None`: K is fixed, as in the study's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decays: Option<usize>,
    /// Adam's ε (added to √v̂): [`OFFICIAL_ADAM_EPSILON`], PyTorch's and TensorFlow's default
    /// that both official scripts train with. A file without the field was trained with burn's
    /// default, [`BURN_ADAM_EPSILON`], and reads so.
    #[serde(
        default = "legacy_adam_epsilon",
        skip_serializing_if = "is_legacy_adam_epsilon"
    )]
    pub epsilon: f64,
}

/// Adam's ε in PyTorch (`ks_train.py`) and TensorFlow 1 (`kolm_train.py`).
pub const OFFICIAL_ADAM_EPSILON: f64 = 1e-8;
/// burn's default Adam ε, what configurations written without the field trained with.
pub const BURN_ADAM_EPSILON: f64 = 1e-5;

fn legacy_adam_epsilon() -> f64 {
    BURN_ADAM_EPSILON
}

fn is_legacy_adam_epsilon(epsilon: &f64) -> bool {
    *epsilon == BURN_ADAM_EPSILON
}

impl Default for OptimizerConfig {
    fn default() -> Self {
        Self {
            learning_rate: 1e-4,
            decay: 0.9,
            decay_every: 2000,
            decays: None,
            epsilon: OFFICIAL_ADAM_EPSILON,
        }
    }
}

impl OptimizerConfig {
    /// Adam from `learning_rate`, ×`decay` every `decay_every` iterations (a fixed interval).
    pub fn every(learning_rate: f64, decay: f64, decay_every: usize) -> Self {
        Self {
            learning_rate,
            decay,
            decay_every,
            decays: None,
            epsilon: OFFICIAL_ADAM_EPSILON,
        }
    }

    /// Adam from `learning_rate`, ×`decay` `decays` times over a run of `iterations`
    /// ([`OptimizerConfig::decays`]).
    pub fn decaying(learning_rate: f64, decay: f64, decays: usize, iterations: usize) -> Self {
        let mut optimizer = Self {
            learning_rate,
            decay,
            decay_every: 1,
            decays: Some(decays),
            epsilon: OFFICIAL_ADAM_EPSILON,
        };
        optimizer.fit_to(iterations);
        optimizer
    }

    /// Sets K for a run of `iterations` where the schedule follows the budget (`decays`).
    pub fn fit_to(&mut self, iterations: usize) {
        if let Some(decays) = self.decays {
            self.decay_every = (iterations.saturating_sub(1) / decays.max(1)).max(1);
        }
    }

    /// The learning rate at 0-based iteration `iteration`.
    pub fn learning_rate_at(&self, iteration: usize) -> f64 {
        let decays = iteration / self.decay_every.max(1);
        self.learning_rate * self.decay.powi(decays.min(i32::MAX as usize) as i32)
    }
}

/// The training data: the system's trajectories for each parameter value (KS: 6 ICs per size).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainDataConfig {
    /// The system's parameter values (KS: domain scales `s`; Kolmogorov: Re), one minibatch
    /// per value.
    pub scales: Vec<f64>,
    /// Steps simulated and dropped before the first kept frame (the study: 200).
    pub warmup_steps: usize,
    /// Frames used per trajectory (the study keeps 5000 and trains on the first 25 %: 1250).
    pub frames: usize,
}

/// Everything one training run needs; the same seed gives the same run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// The network.
    pub net: NetConfig,
    /// Prediction, correction or transition.
    pub mode: Mode,
    /// α of the transition mode, in [0, 1) (ignored by the other modes).
    pub alpha: f64,
    /// ONE, NOG or WIG.
    pub modality: Modality,
    /// Horizon, warm-up, detach interval.
    pub unroll: UnrollConfig,
    /// Windows per minibatch for NOG/WIG (ONE uses `batch · horizon`).
    pub batch: usize,
    /// Optimiser iterations.
    pub iterations: usize,
    /// Adam and the learning-rate schedule.
    pub optimizer: OptimizerConfig,
    /// Seed of the initial weights and of the minibatch schedule.
    pub seed: u64,
    /// The training trajectories.
    pub data: TrainDataConfig,
    /// NOG correction only: run the coarse solver as a black box (the f64 rustfft reference,
    /// outside autodiff, with a synchronous readback per step: CPU backend only).
    #[serde(default)]
    pub black_box_solver: bool,
    /// The system the network learns (files written before there was a choice: KS).
    #[serde(default, skip_serializing_if = "System::is_default")]
    pub system: System,
    /// The unroll curriculum (`None`: one stage at `unroll.horizon` for `iterations`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curriculum: Option<Curriculum>,
    /// Skip an update whose gradient has a NaN or whose norm (per parameter tensor) exceeds
    /// its running bound (10 × an exponential average of 10 × the accepted norms, as in the
    /// paper's Kolmogorov code); skipped updates are counted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gradient_guard: bool,
    /// The system's coarse-solver set-up (scheme, gradient, data path; empty: the paper's).
    #[serde(default, skip_serializing_if = "SolverSetup::is_default")]
    pub solver: SolverSetup,
    /// The minibatch order and learning-rate clock (files without it: seeded rounds).
    #[serde(default, skip_serializing_if = "MinibatchOrder::is_rounds")]
    pub order: MinibatchOrder,
}

/// How a training draws its minibatches, and what the learning-rate decay counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MinibatchOrder {
    /// Seeded rounds of the sizes (each size once per round), windows drawn with replacement;
    /// the learning rate decays every K iterations ([`super::schedule::Schedule`]).
    #[default]
    Rounds,
    /// `ks_train.py`'s epochs: windows without replacement, sizes in proportion to their data,
    /// an epoch ends when the first size runs out; decays on nominal epoch indices
    /// ([`super::epochs::EpochSampler`]).
    OfficialEpochs,
}

impl MinibatchOrder {
    /// Whether this is the default, [`MinibatchOrder::Rounds`] (skipped when serialising).
    pub fn is_rounds(&self) -> bool {
        *self == MinibatchOrder::Rounds
    }
}

/// Largest accepted horizon + warm-up (memory of the unrolled graph).
pub const MAX_UNROLL: usize = 64;
/// Largest accepted batch.
pub const MAX_BATCH: usize = 1024;

impl TrainConfig {
    /// The study's 1-D settings of `mode` × `modality` for `system` on `data`, `iterations`
    /// long: the default network and unroll, batch 16, α 0.5, Adam's default schedule, seed 0,
    /// minibatches in seeded rounds; no curriculum, gradient guard or black-box solver.
    pub fn study(
        system: System,
        mode: Mode,
        modality: Modality,
        data: TrainDataConfig,
        iterations: usize,
    ) -> Self {
        TrainConfig {
            net: NetConfig::default(),
            mode,
            alpha: 0.5,
            modality,
            unroll: UnrollConfig::default(),
            batch: 16,
            iterations,
            optimizer: OptimizerConfig::default(),
            seed: 0,
            data,
            black_box_solver: false,
            system,
            curriculum: None,
            gradient_guard: false,
            solver: SolverSetup::default(),
            order: MinibatchOrder::Rounds,
        }
    }

    /// Sets the iterations; a schedule that follows the budget ([`OptimizerConfig::decays`])
    /// keeps its number of decays.
    pub fn set_iterations(&mut self, iterations: usize) {
        self.iterations = iterations;
        self.optimizer.fit_to(iterations);
    }

    /// Windows per minibatch actually used: `batch · horizon` for ONE, `batch` otherwise (a
    /// curriculum's ONE is its first stage, at `batch`).
    pub fn effective_batch(&self) -> usize {
        match self.modality {
            Modality::One if self.curriculum.is_none() => self.batch * self.unroll.horizon,
            _ => self.batch,
        }
    }

    /// The unroll actually used: ONE is horizon 1 without warm-up.
    pub fn effective_unroll(&self) -> UnrollConfig {
        match self.modality {
            Modality::One => UnrollConfig {
                horizon: 1,
                warmup: 0,
                detach_interval: 0,
            },
            _ => self.unroll,
        }
    }

    /// Network calls per iteration (batch × steps, warm-up included).
    pub fn network_calls_per_iteration(&self) -> usize {
        let unroll = self.effective_unroll();
        self.effective_batch() * (unroll.warmup + unroll.horizon)
    }

    /// Checks every field that does not depend on the system; the first problem found, naming
    /// its field (a system's own checks: `PhysicalSystem::validate`).
    pub fn validate(&self) -> Result<(), TrainError> {
        self.net.validate()?;
        self.validate_curriculum()?;
        self.validate_steps()?;
        self.optimizer.validate()?;
        self.validate_data()?;
        if self.order == MinibatchOrder::OfficialEpochs && self.curriculum.is_some() {
            return Err(TrainError::invalid(
                "order",
                "the official epochs have no curriculum; use rounds with a curriculum",
            ));
        }
        if self.black_box_solver && !(self.mode == Mode::Correct && self.modality == Modality::Nog)
        {
            return Err(TrainError::invalid(
                "black_box_solver",
                "a black-box solver only works for NOG correction (no gradient through the solver)",
            ));
        }
        Ok(())
    }

    /// The unroll (horizon, warm-up), α, the batch and the iterations.
    fn validate_steps(&self) -> Result<(), TrainError> {
        let unroll = self.unroll;
        if unroll.horizon == 0 {
            return Err(TrainError::invalid("horizon", "must be at least 1"));
        }
        if unroll.horizon + unroll.warmup > MAX_UNROLL {
            return Err(TrainError::invalid(
                "horizon",
                format!("horizon + warm-up must be at most {MAX_UNROLL}"),
            ));
        }
        if !(self.alpha.is_finite() && (0.0..1.0).contains(&self.alpha)) {
            return Err(TrainError::invalid(
                "alpha",
                format!("must be in [0, 1), got {}", self.alpha),
            ));
        }
        if self.batch == 0 || self.effective_batch() > MAX_BATCH {
            return Err(TrainError::invalid(
                "batch",
                format!("must be in 1..={MAX_BATCH} (ONE uses batch × horizon)"),
            ));
        }
        if self.iterations == 0 {
            return Err(TrainError::invalid("iterations", "must be at least 1"));
        }
        Ok(())
    }

    /// The parameter values and enough frames for the longest window.
    fn validate_data(&self) -> Result<(), TrainError> {
        if self.data.scales.is_empty() {
            return Err(TrainError::invalid(
                "scales",
                "need at least one parameter value",
            ));
        }
        let longest = self.stage_horizons().into_iter().max().unwrap_or(1);
        let needed = longest.max(self.unroll.horizon) + self.unroll.warmup + 1;
        if self.data.frames < needed {
            return Err(TrainError::invalid(
                "frames",
                format!("need at least warm-up + horizon + 1 = {needed} frames per trajectory"),
            ));
        }
        Ok(())
    }
}

impl OptimizerConfig {
    /// The learning rate, its decay and Adam's ε.
    fn validate(&self) -> Result<(), TrainError> {
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(TrainError::invalid(
                "learning_rate",
                "must be a positive number",
            ));
        }
        if !(self.decay.is_finite() && self.decay > 0.0 && self.decay <= 1.0) {
            return Err(TrainError::invalid("decay", "must be in (0, 1]"));
        }
        if self.decay_every == 0 {
            return Err(TrainError::invalid("decay_every", "must be at least 1"));
        }
        if self.decays == Some(0) {
            return Err(TrainError::invalid("decays", "must be at least 1"));
        }
        if !(self.epsilon.is_finite() && self.epsilon > 0.0) {
            return Err(TrainError::invalid("epsilon", "must be a positive number"));
        }
        Ok(())
    }
}
