//! A training between two iterations, as data: the weights and the optimiser's state (burnpack
//! bytes; each parameter keeps its id, which is how Adam's moments find their parameter again),
//! the iteration and the gradient guard. The minibatch schedule and the learning rate are
//! functions of the iteration, so [`Trainer::resume`] on a fresh trainer of the same
//! configuration continues exactly where [`Trainer::checkpoint`] left off. An ensemble's
//! checkpoint is the same record of its stacked weights and their Adam state
//! ([`EnsembleTrainer::checkpoint`]): it resumes in an ensemble of the same members only.
//!
//! Reads the tensors synchronously (burn's `into_record`): for the native CLI's long cells, not
//! for WebGPU in the browser.

use burn::module::Module;
use burn::optim::{ModuleOptimizer, OptimizerRecord};
use burn::store::ModuleRecord;
use burn::tensor::Bytes;
use serde::{Deserialize, Serialize};

use super::ensemble::EnsembleTrainer;
use super::error::TrainError;
use super::guard::GradientGuard;
use super::trainer::{adam, Trainer};

/// The state of a [`Trainer`] between two iterations.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainerCheckpoint {
    /// Iterations done.
    pub iteration: usize,
    /// The network's record (burnpack bytes, with parameter ids).
    #[serde(with = "serde_bytes")]
    pub net: Vec<u8>,
    /// The optimiser's record (burnpack bytes, keyed by parameter id).
    #[serde(with = "serde_bytes")]
    pub optimizer: Vec<u8>,
    /// The gradient guard's bounds and skip count.
    pub guard: GradientGuard,
}

impl std::fmt::Debug for TrainerCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrainerCheckpoint")
            .field("iteration", &self.iteration)
            .field("net_bytes", &self.net.len())
            .field("optimizer_bytes", &self.optimizer.len())
            .finish()
    }
}

fn checkpoint_error(err: impl std::fmt::Display) -> TrainError {
    TrainError::Checkpoint(err.to_string())
}

/// `module`'s record and `optimizer`'s, as burnpack bytes.
fn record_bytes<M: Module>(
    module: &M,
    optimizer: &ModuleOptimizer,
) -> Result<(Vec<u8>, Vec<u8>), TrainError> {
    let net = module
        .clone()
        .into_record()
        .into_bytes()
        .map_err(checkpoint_error)?;
    let optimizer = optimizer
        .to_record()
        .into_bytes()
        .map_err(checkpoint_error)?;
    Ok((net.to_vec(), optimizer.to_vec()))
}

/// `module` with the weights of `checkpoint` (an error if they are another network's), and
/// `optimizer` with its Adam state.
fn load_records<M: Module>(
    module: M,
    optimizer: ModuleOptimizer,
    checkpoint: TrainerCheckpoint,
) -> Result<(M, ModuleOptimizer), TrainError> {
    let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(checkpoint.net))
        .map_err(checkpoint_error)?;
    let module = module.try_load_record(record).map_err(checkpoint_error)?;
    let record = OptimizerRecord::from_bytes(Bytes::from_bytes_vec(checkpoint.optimizer))
        .map_err(checkpoint_error)?;
    Ok((module, optimizer.load_record(record)))
}

/// An error unless `checkpoint` is at most at the last of `total` iterations.
fn within(checkpoint: &TrainerCheckpoint, total: usize) -> Result<(), TrainError> {
    if checkpoint.iteration > total {
        return Err(TrainError::Checkpoint(format!(
            "it is at iteration {}, past this training's {total}",
            checkpoint.iteration
        )));
    }
    Ok(())
}

impl Trainer {
    /// The trainer's state now (between two iterations).
    pub fn checkpoint(&self) -> Result<TrainerCheckpoint, TrainError> {
        let net = self.net.as_ref().ok_or(TrainError::Poisoned)?;
        let (net, optimizer) = record_bytes(net, &self.optimizer)?;
        Ok(TrainerCheckpoint {
            iteration: self.iteration,
            net,
            optimizer,
            guard: self.guard.clone(),
        })
    }

    /// Continues from `checkpoint`, taken from a trainer of the same configuration and data.
    pub fn resume(&mut self, checkpoint: TrainerCheckpoint) -> Result<(), TrainError> {
        within(&checkpoint, self.config.total_iterations())?;
        let (iteration, guard) = (checkpoint.iteration, checkpoint.guard.clone());
        let net = self.net.take().ok_or(TrainError::Poisoned)?;
        let optimizer = std::mem::replace(&mut self.optimizer, adam(&self.config.optimizer));
        let (net, optimizer) = load_records(net, optimizer, checkpoint)?;
        self.net = Some(net);
        self.optimizer = optimizer;
        self.iteration = iteration;
        self.guard = guard;
        Ok(())
    }
}

impl EnsembleTrainer {
    /// Every member's state now (between two iterations): the stacked weights and their Adam
    /// state (the gradient guard is never on in an ensemble).
    pub fn checkpoint(&self) -> Result<TrainerCheckpoint, TrainError> {
        let ensemble = self.ensemble.as_ref().ok_or(TrainError::Poisoned)?;
        let (net, optimizer) = record_bytes(ensemble, &self.optimizer)?;
        Ok(TrainerCheckpoint {
            iteration: self.iteration,
            net,
            optimizer,
            guard: GradientGuard::default(),
        })
    }

    /// Continues from `checkpoint`, taken from an ensemble of the same members (configurations
    /// in the same order) and data; another ensemble's weights are refused.
    pub fn resume(&mut self, checkpoint: TrainerCheckpoint) -> Result<(), TrainError> {
        within(&checkpoint, self.configs[0].total_iterations())?;
        let iteration = checkpoint.iteration;
        let ensemble = self.ensemble.take().ok_or(TrainError::Poisoned)?;
        let optimizer = std::mem::replace(&mut self.optimizer, adam(&self.configs[0].optimizer));
        let (ensemble, optimizer) = load_records(ensemble, optimizer, checkpoint)?;
        self.ensemble = Some(ensemble);
        self.optimizer = optimizer;
        self.iteration = iteration;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::{Modality, Mode, TrainConfig};
    use super::super::tests::{flat_params, tiny_config_of, tiny_data};
    use super::*;
    use crate::backend;
    use crate::ks::system::Ks;
    use crate::nets::Architecture;
    use crate::system::physics::PhysicalSystem;
    use crate::types::Trajectory;
    use burn::optim::AdamConfig;

    /// Losses of `iterations` more steps, and the weights after them.
    fn train(trainer: &mut Trainer, iterations: usize) -> (Vec<f32>, Vec<f32>) {
        let mut losses = Vec::new();
        for _ in 0..iterations {
            if let Some(loss) = pollster::block_on(trainer.advance()).expect("step") {
                losses.extend(
                    loss.into_data()
                        .convert::<f32>()
                        .try_into_vec::<f32>()
                        .expect("f32"),
                );
            }
        }
        (losses, flat_params(trainer.net()))
    }

    fn check(config: TrainConfig, set: &[Trajectory], split: usize) {
        let label = format!("{:?}", config.net.architecture);
        let total = config.iterations;
        let device = backend::cpu();
        let mut straight = Ks.trainer(config.clone(), set, &device).expect("trainer");
        let (head, _) = train(&mut straight, split);
        let (tail, weights) = train(&mut straight, total - split);

        let mut first = Ks.trainer(config.clone(), set, &device).expect("trainer");
        let (first_head, _) = train(&mut first, split);
        assert_eq!(first_head, head, "{label}");
        let checkpoint = first.checkpoint().expect("checkpoint");
        assert_eq!(checkpoint.iteration, split);
        drop(first);

        let mut resumed = Ks.trainer(config.clone(), set, &device).expect("trainer");
        resumed.resume(checkpoint.clone()).expect("resume");
        assert_eq!(resumed.iteration(), split);
        let (resumed_tail, resumed_weights) = train(&mut resumed, total - split);
        assert!(resumed.finished());
        assert_eq!(resumed_tail, tail, "{label}: losses after the resume");
        assert_eq!(resumed_weights, weights, "{label}: final weights");

        // Without the optimiser's state the same weights train differently: the check can fail.
        let mut fresh_adam = Ks.trainer(config, set, &device).expect("trainer");
        let mut without = checkpoint;
        without.optimizer = burn::optim::AdamConfig::new()
            .init()
            .to_record()
            .into_bytes()
            .expect("bytes")
            .to_vec();
        fresh_adam.resume(without).expect("resume");
        assert_ne!(train(&mut fresh_adam, total - split).0, tail, "{label}");
    }

    /// A training stopped, checkpointed and resumed in a fresh trainer gives bit for bit the
    /// losses and weights of the training run straight through: every 1-D architecture, with
    /// the learning rate decaying across the split and the gradient guard on.
    #[test]
    fn a_resumed_training_equals_the_straight_one() {
        let (data, set) = tiny_data(30);
        for architecture in Architecture::ONE_D {
            let mut config =
                tiny_config_of(architecture, Mode::Correct, Modality::Wig, data.clone());
            config.iterations = 7;
            config.optimizer.decay_every = 2;
            config.optimizer.decay = 0.5;
            config.gradient_guard = architecture == Architecture::Resnet;
            check(config, &set, 3);
        }
    }

    #[test]
    fn a_checkpoint_of_another_network_is_refused() {
        let (data, set) = tiny_data(30);
        let config = tiny_config_of(Architecture::Resnet, Mode::Correct, Modality::One, data);
        let device = backend::cpu();
        let trainer = Ks.trainer(config.clone(), &set, &device).expect("trainer");
        let checkpoint = trainer.checkpoint().expect("checkpoint");
        let mut wider = config.clone();
        wider.net.channels += 2;
        let mut other = Ks.trainer(wider, &set, &device).expect("trainer");
        let err = other.resume(checkpoint.clone()).expect_err("other shape");
        assert!(matches!(err, TrainError::Checkpoint(_)), "{err}");
        let mut past = checkpoint;
        past.iteration = config.iterations + 1;
        let mut same = Ks.trainer(config, &set, &device).expect("trainer");
        let err = same.resume(past).expect_err("past the end");
        assert!(err.to_string().contains("past"), "{err}");
    }

    /// Every member's losses of `iterations` more ensemble steps, and their weights after them.
    fn train_together(
        trainer: &mut EnsembleTrainer,
        iterations: usize,
    ) -> (Vec<f32>, Vec<Vec<f32>>) {
        let mut losses = Vec::new();
        for _ in 0..iterations {
            losses.extend(
                trainer
                    .step()
                    .expect("step")
                    .into_data()
                    .convert::<f32>()
                    .try_into_vec::<f32>()
                    .expect("f32"),
            );
        }
        let weights = (0..trainer.members())
            .map(|k| flat_params(&trainer.member(k).expect("member")))
            .collect();
        (losses, weights)
    }

    /// An ensemble (NOG and WIG members, two seeds) stopped, checkpointed and resumed in a
    /// fresh ensemble of the same members gives bit for bit the losses and weights of the one
    /// trained straight through, with the learning rate decaying across the split; an
    /// ensemble of another size refuses the checkpoint.
    #[test]
    fn a_resumed_ensemble_equals_the_straight_one() {
        let (data, set) = tiny_data(30);
        let mut config = tiny_config_of(Architecture::Resnet, Mode::Correct, Modality::Nog, data);
        config.iterations = 7;
        config.optimizer.decay_every = 2;
        config.optimizer.decay = 0.5;
        let members: Vec<TrainConfig> =
            [(Modality::Nog, 3), (Modality::Wig, 3), (Modality::Wig, 8)]
                .into_iter()
                .map(|(modality, seed)| TrainConfig {
                    modality,
                    seed,
                    ..config.clone()
                })
                .collect();
        let device = backend::cpu();
        let ensemble = |configs: &[TrainConfig]| {
            Ks.ensemble_trainer(configs.to_vec(), &set, &device)
                .expect("ensemble")
        };
        let mut straight = ensemble(&members);
        let (head, _) = train_together(&mut straight, 3);
        let (tail, weights) = train_together(&mut straight, 4);

        let mut first = ensemble(&members);
        assert_eq!(train_together(&mut first, 3).0, head);
        let checkpoint = first.checkpoint().expect("checkpoint");
        assert_eq!(checkpoint.iteration, 3);
        drop(first);
        let mut resumed = ensemble(&members);
        resumed.resume(checkpoint.clone()).expect("resume");
        assert_eq!(resumed.iteration(), 3);
        let (resumed_tail, resumed_weights) = train_together(&mut resumed, 4);
        assert!(resumed.finished());
        assert_eq!(resumed_tail, tail, "losses after the resume");
        assert_eq!(resumed_weights, weights, "final weights");

        // Without the stacked Adam state the same weights train differently: the check can fail.
        let mut without = checkpoint.clone();
        without.optimizer = AdamConfig::new()
            .init()
            .to_record()
            .into_bytes()
            .expect("bytes")
            .to_vec();
        let mut fresh_adam = ensemble(&members);
        fresh_adam.resume(without).expect("resume");
        assert_ne!(train_together(&mut fresh_adam, 4).0, tail);
        let mut smaller = ensemble(&members[..2]);
        let err = smaller.resume(checkpoint).expect_err("two members");
        assert!(matches!(err, TrainError::Checkpoint(_)), "{err}");
    }
}
