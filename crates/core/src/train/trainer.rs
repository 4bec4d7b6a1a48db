//! The [`Trainer`]: one `step()` = minibatch gather, unrolled forward, backward and Adam update,
//! returning the loss as a (detached) tensor. It never reads back: the caller reads losses when
//! it chooses (asynchronously in the browser, see [`super::run::LossLog`]).

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor};

use super::config::{OptimizerConfig, TrainConfig};
use super::data::TrainingData;
use super::error::TrainError;
use super::guard::{gradient_norms, GradientGuard};
use super::modality::unrolled_loss;
use super::sampler::Sampler;
use super::step::Stepper;
use crate::nets::Net;
use crate::profile::{span, Phase};
use crate::types::Trajectory;

/// A fresh Adam of `optimizer` (its ε; the learning rate is set per step).
pub(super) fn adam(optimizer: &OptimizerConfig) -> ModuleOptimizer {
    AdamConfig::new()
        .with_epsilon(optimizer.epsilon as f32)
        .init()
}

/// A training run in progress. Owns the network, the optimiser state and the data on the device.
pub struct Trainer {
    pub(super) config: TrainConfig,
    pub(super) net: Option<Net>,
    pub(super) optimizer: ModuleOptimizer,
    data: TrainingData,
    stepper: Stepper,
    sampler: Sampler,
    pub(super) iteration: usize,
    pub(super) guard: GradientGuard,
}

impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("variant", &self.config.variant_id().label())
            .field("iteration", &self.iteration)
            .finish()
    }
}

impl Trainer {
    /// Checks `config` (the generic checks; a system's own run in
    /// `PhysicalSystem::trainer`), uploads `trajectories` (the training set of `config.data`)
    /// and initialises the network from `config.seed` on `device`, an autodiff device;
    /// `stepper` is the system's hybrid step for the trajectories' parameter values, in order
    /// of first appearance, on that device.
    pub fn new(
        config: TrainConfig,
        trajectories: &[Trajectory],
        stepper: Stepper,
        device: &Device,
    ) -> Result<Self, TrainError> {
        config.validate()?;
        let device = device.clone();
        let data = TrainingData::upload(trajectories, &device)?;
        let sampler = Sampler::new(&config, &data)?;
        let net = config.net.init(&device, config.seed)?;
        Ok(Self {
            optimizer: adam(&config.optimizer),
            net: Some(net),
            config,
            data,
            stepper,
            sampler,
            iteration: 0,
            guard: GradientGuard::default(),
        })
    }

    /// The configuration being trained.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Iterations done so far.
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// True once all iterations (every curriculum stage) are done.
    pub fn finished(&self) -> bool {
        self.iteration >= self.config.total_iterations()
    }

    /// Updates the gradient guard skipped so far (0 without the guard).
    pub fn skipped_updates(&self) -> usize {
        self.guard.skipped
    }

    /// The network (current weights).
    pub fn net(&self) -> &Net {
        self.net
            .as_ref()
            .expect("the network is only taken inside step()")
    }

    /// The network without autodiff tracking, for evaluation.
    pub fn net_for_inference(&self) -> Net {
        self.net().valid()
    }

    /// The solver configuration of the grid (for evaluation helpers).
    pub fn resolution(&self) -> usize {
        self.data.resolution
    }

    /// A fresh optimiser and fresh guard bounds where the curriculum starts a stage afresh
    /// ([`TrainConfig::restarts_at`]).
    fn restart_stage(&mut self) {
        if self.config.restarts_at(self.iteration) {
            self.optimizer = adam(&self.config.optimizer);
            self.guard.restart();
        }
    }

    /// One optimiser iteration; the loss `[1]` (detached, not read back). Ignores the
    /// gradient guard (see [`Trainer::advance`]).
    pub fn step(&mut self) -> Result<Tensor<1>, TrainError> {
        self.restart_stage();
        let (net, loss, mut gradients) = self.forward_backward()?;
        let gradients = GradientsParams::from_module(&mut gradients, &net);
        self.apply(net, gradients);
        Ok(loss.detach())
    }

    /// One iteration honouring [`TrainConfig::gradient_guard`]: with the guard, the gradient
    /// norms are read back (async) and an update the guard rejects is skipped (`None`; the
    /// iteration still counts). Without it, [`Trainer::step`].
    pub async fn advance(&mut self) -> Result<Option<Tensor<1>>, TrainError> {
        if !self.config.gradient_guard {
            return self.step().map(Some);
        }
        self.restart_stage();
        let (net, loss, mut gradients) = self.forward_backward()?;
        let gradients = GradientsParams::from_module(&mut gradients, &net);
        let norms = match gradient_norms(&net, &gradients).await {
            Ok(norms) => norms,
            Err(err) => {
                self.net = Some(net);
                return Err(err);
            }
        };
        if self.guard.accept(&norms) {
            self.apply(net, gradients);
            Ok(Some(loss.detach()))
        } else {
            self.net = Some(net);
            self.iteration += 1;
            Ok(None)
        }
    }

    /// Gathers the minibatch of this iteration, runs the unroll of its curriculum stage and
    /// back-propagates: the network (taken out), the loss and its gradients.
    fn forward_backward(
        &mut self,
    ) -> Result<(Net, Tensor<1>, burn::tensor::Gradients), TrainError> {
        let net = self.net.take().ok_or(TrainError::Poisoned)?;
        let batch = self.sampler.minibatch(self.iteration);
        let unroll = self.config.unroll_at(self.iteration);
        let frames = span(Phase::Gather, || {
            self.data
                .gather(batch.size, &batch.windows, unroll.warmup + unroll.horizon)
        });
        let loss = match unrolled_loss(
            &net,
            &self.stepper,
            batch.size,
            &frames,
            self.config.modality,
            unroll,
        ) {
            Ok(loss) => loss,
            Err(err) => {
                self.net = Some(net);
                return Err(err);
            }
        };
        let gradients = span(Phase::Backward, || loss.backward());
        Ok((net, loss, gradients))
    }

    /// The Adam update of this iteration's learning rate.
    fn apply(&mut self, net: Net, gradients: GradientsParams) {
        let learning_rate = self.sampler.learning_rate(&self.config, self.iteration);
        self.net = Some(span(Phase::Optimizer, || {
            self.optimizer.step(learning_rate, net, gradients)
        }));
        self.iteration += 1;
    }
}
