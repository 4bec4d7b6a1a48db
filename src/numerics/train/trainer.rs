//! The [`Trainer`]: one `step()` = minibatch gather, unrolled forward, backward and Adam update,
//! returning the loss as a (detached) tensor. It never reads back: the caller reads losses when
//! it chooses (asynchronously in the browser, see [`super::run::LossLog`]).

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor};

use super::config::TrainConfig;
use super::data::TrainingData;
use super::error::TrainError;
use super::modality::unrolled_loss;
use super::mode::Stepper;
use super::schedule::Schedule;
use crate::numerics::ks::data::Trajectory;
use crate::numerics::ks::KsConfig;
use crate::numerics::nets::Net;
use crate::numerics::profile::{span, Phase};

/// A training run in progress. Owns the network, the optimiser state and the data on the device.
pub struct Trainer {
    config: TrainConfig,
    net: Option<Net>,
    optimizer: ModuleOptimizer,
    data: TrainingData,
    stepper: Stepper,
    schedule: Schedule,
    iteration: usize,
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
    /// Validates `config`, uploads `trajectories` (the training set of `config.data`, see
    /// [`super::data::generate`]) and initialises the network from `config.seed` on `device`
    /// with autodiff. `device` must be a plain (non-autodiff) device.
    pub fn new(
        config: TrainConfig,
        trajectories: &[Trajectory],
        device: &Device,
    ) -> Result<Self, TrainError> {
        config.validate()?;
        let device = device.clone().autodiff();
        let data = TrainingData::upload(trajectories, &device)?;
        let scales: Vec<f64> = data.sizes.iter().map(|size| size.scale).collect();
        let stepper = Stepper::new(
            config.mode,
            config.alpha,
            &scales,
            data.resolution,
            &device,
            config.black_box_solver,
        )?;
        let unroll = config.effective_unroll();
        let span = unroll.warmup + unroll.horizon;
        let frames = data.sizes.iter().map(|size| size.frames).min().unwrap_or(0);
        if frames <= span {
            return Err(TrainError::invalid(
                "frames",
                format!("trajectories have {frames} frames, an unroll of {span} needs more"),
            ));
        }
        let schedule = Schedule {
            seed: config.seed,
            sizes: data.sizes.len(),
            trajectories: data.sizes.iter().map(|s| s.trajectories).min().unwrap_or(0),
            frames,
            batch: config.effective_batch(),
            span,
        };
        let net = config.net.init(&device, config.seed)?;
        Ok(Self {
            optimizer: AdamConfig::new().init(),
            net: Some(net),
            config,
            data,
            stepper,
            schedule,
            iteration: 0,
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

    /// True once `config.iterations` steps are done.
    pub fn finished(&self) -> bool {
        self.iteration >= self.config.iterations
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

    /// One optimiser iteration; the loss `[1]` (detached, not read back).
    pub fn step(&mut self) -> Result<Tensor<1>, TrainError> {
        let net = self.net.take().ok_or(TrainError::Poisoned)?;
        let batch = self.schedule.minibatch(self.iteration);
        let unroll = self.config.effective_unroll();
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
        let mut gradients = span(Phase::Backward, || loss.backward());
        let learning_rate = self.config.optimizer.learning_rate_at(self.iteration);
        self.net = Some(span(Phase::Optimizer, || {
            let gradients = GradientsParams::from_module(&mut gradients, &net);
            self.optimizer.step(learning_rate, net, gradients)
        }));
        self.iteration += 1;
        Ok(loss.detach())
    }
}

/// The ground-truth solver configuration training data is generated with (ETRK2, the study's
/// grid), at resolution `resolution`.
pub fn data_solver(resolution: usize) -> KsConfig {
    KsConfig {
        resolution,
        ..KsConfig::default()
    }
}
