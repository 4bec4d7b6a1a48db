//! The [`EnsembleTrainer`]: `K` trainings of one shape — members that differ only in their seed,
//! their unrolled modality (NOG or WIG) and their detach interval; each its own initial weights,
//! data order, parameter values per iteration and gradient cuts — stepped in lockstep as one
//! [`Ensemble`]. One iteration gathers every member's own minibatch (member-major rows),
//! unrolls all of them as one batch ([`unrolled_member_losses`]), back-propagates the sum of
//! the members' losses (so each member's weights get exactly its own gradient) and takes one
//! Adam step over the stacked weights. Adam is elementwise, so that step is each member's own
//! Adam step, with its own moments. A member whose loss turns NaN stays NaN in its own weights
//! only; its log says where it diverged ([`MemberLogs`]). Trained together or alone, a member's
//! losses and weights agree to rounding (tests).

use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor};

use super::config::{MinibatchOrder, Modality, TrainConfig, UnrollConfig};
use super::data::TrainingData;
use super::error::TrainError;
use super::modality::{unrolled_member_losses, MemberUnroll};
use super::run::LossLog;
use super::sampler::Sampler;
use super::step::Stepper;
use super::trainer::adam;
use crate::nets::{Ensemble, Net};
use crate::profile::{span, Phase};
use crate::readback::read_f32;
use crate::types::Trajectory;

/// `K` trainings of one shape ([`shares_model`]) in progress, as one model.
pub struct EnsembleTrainer {
    pub(super) configs: Vec<TrainConfig>,
    pub(super) ensemble: Option<Ensemble>,
    pub(super) optimizer: ModuleOptimizer,
    data: TrainingData,
    stepper: Stepper,
    samplers: Vec<Sampler>,
    pub(super) iteration: usize,
}

impl std::fmt::Debug for EnsembleTrainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnsembleTrainer")
            .field("variant", &self.configs[0].variant_id().label())
            .field("members", &self.configs.len())
            .field("iteration", &self.iteration)
            .finish()
    }
}

/// What must be equal for two trainings to share one model: `config` without its seed, with
/// NOG and WIG as one (both unroll the same frames; the cuts differ per member) and without
/// its detach interval (a cut per member too). ONE stays apart (its batch and horizon differ).
fn shape_of(config: &TrainConfig) -> TrainConfig {
    let modality = match config.modality {
        Modality::Nog | Modality::Wig => Modality::Wig,
        Modality::One => Modality::One,
    };
    TrainConfig {
        seed: 0,
        modality,
        unroll: UnrollConfig {
            detach_interval: 0,
            ..config.unroll
        },
        ..config.clone()
    }
}

/// Whether `a` and `b` can be members of one ensemble as far as their configurations go: they
/// differ at most in seed, NOG/WIG modality and detach interval ([`ensemble_refusal`] also
/// checks the architecture and the gradient guard). In the official epochs they also share
/// their seed: a seed's epochs end at its own iterations, so its learning rate decays on its
/// own clock, and an ensemble takes one Adam step at one rate. The one grouping rule of the
/// study runner, the cells' units and the page's workers.
pub fn shares_model(a: &TrainConfig, b: &TrainConfig) -> bool {
    shape_of(a) == shape_of(b) && (a.order == MinibatchOrder::Rounds || a.seed == b.seed)
}

/// Why `configs` cannot train as one ensemble, if they cannot: none, members that differ in
/// more than seed, NOG/WIG and detach interval ([`shares_model`]), the gradient guard (it skips
/// updates per iteration, not per member), or an architecture without a member axis.
pub fn ensemble_refusal(configs: &[TrainConfig]) -> Option<TrainError> {
    let Some(first) = configs.first() else {
        return Some(TrainError::invalid("ensemble", "no members"));
    };
    if configs.iter().any(|config| !shares_model(config, first)) {
        return Some(TrainError::invalid(
            "ensemble",
            "members must differ only in their seed (not in the official epochs), NOG/WIG modality and detach interval",
        ));
    }
    if first.gradient_guard {
        return Some(TrainError::invalid(
            "ensemble",
            "the gradient guard skips whole updates; train its members one at a time",
        ));
    }
    let architecture = first.net.architecture;
    if !Ensemble::supports(architecture) {
        return Some(TrainError::invalid(
            "ensemble",
            format!("the {architecture} network has no member axis; train it one at a time"),
        ));
    }
    None
}

impl EnsembleTrainer {
    /// Checks `configs` (each as [`super::Trainer::new`] does, and together with
    /// [`ensemble_refusal`]), uploads `trajectories` once and builds member `k` from
    /// `configs[k].seed` on `device` (an autodiff device), with `stepper` as for one trainer.
    pub fn new(
        configs: Vec<TrainConfig>,
        trajectories: &[Trajectory],
        stepper: Stepper,
        device: &Device,
    ) -> Result<Self, TrainError> {
        for config in &configs {
            config.validate()?;
        }
        if let Some(refusal) = ensemble_refusal(&configs) {
            return Err(refusal);
        }
        let data = TrainingData::upload(trajectories, device)?;
        let samplers = configs
            .iter()
            .map(|config| Sampler::new(config, &data))
            .collect::<Result<Vec<_>, _>>()?;
        let seeds: Vec<u64> = configs.iter().map(|config| config.seed).collect();
        let ensemble = Ensemble::init(&configs[0].net, &seeds, device)
            .map_err(|err| TrainError::invalid("net", err.to_string()))?;
        Ok(Self {
            optimizer: adam(&configs[0].optimizer),
            configs,
            ensemble: Some(ensemble),
            data,
            stepper,
            samplers,
            iteration: 0,
        })
    }

    /// The members' configurations, in member order.
    pub fn configs(&self) -> &[TrainConfig] {
        &self.configs
    }

    /// Number of members `K`.
    pub fn members(&self) -> usize {
        self.configs.len()
    }

    /// Iterations done so far (every member the same).
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// True once all iterations are done.
    pub fn finished(&self) -> bool {
        self.iteration >= self.configs[0].total_iterations()
    }

    /// Member `k` as its own network (a copy of its current weights).
    pub fn member(&self, k: usize) -> Result<Net, TrainError> {
        let ensemble = self.ensemble.as_ref().ok_or(TrainError::Poisoned)?;
        Ok(ensemble.member(self.configs[0].net.architecture, k)?)
    }

    /// One iteration of every member; their losses `[K]` (detached, not read back).
    pub fn step(&mut self) -> Result<Tensor<1>, TrainError> {
        let config = &self.configs[0];
        if config.restarts_at(self.iteration) {
            self.optimizer = adam(&self.configs[0].optimizer);
        }
        let unroll = config.unroll_at(self.iteration);
        let learning_rate = self.samplers[0].learning_rate(config, self.iteration);
        let unrolls: Vec<MemberUnroll> = self
            .configs
            .iter()
            .map(|member| MemberUnroll {
                modality: member.modality,
                unroll: member.unroll_at(self.iteration),
            })
            .collect();
        let iteration = self.iteration;
        let batches: Vec<_> = self
            .samplers
            .iter_mut()
            .map(|sampler| sampler.minibatch(iteration))
            .collect();
        let sizes: Vec<usize> = batches.iter().map(|batch| batch.size).collect();
        let frames = span(Phase::Gather, || {
            let window = unroll.warmup + unroll.horizon;
            let members: Vec<Vec<Tensor<2>>> = batches
                .iter()
                .map(|batch| self.data.gather(batch.size, &batch.windows, window))
                .collect();
            (0..=window)
                .map(|j| Tensor::cat(members.iter().map(|m| m[j].clone()).collect(), 0))
                .collect::<Vec<_>>()
        });
        let ensemble = self.ensemble.take().ok_or(TrainError::Poisoned)?;
        let losses =
            match unrolled_member_losses(&ensemble, &self.stepper, &sizes, &frames, &unrolls) {
                Ok(losses) => losses,
                Err(err) => {
                    self.ensemble = Some(ensemble);
                    return Err(err);
                }
            };
        let gradients = span(Phase::Backward, || losses.clone().sum().backward());
        let gradients = GradientsParams::from_grads(gradients, &ensemble);
        self.ensemble = Some(span(Phase::Optimizer, || {
            self.optimizer.step(learning_rate, ensemble, gradients)
        }));
        self.iteration += 1;
        Ok(losses.detach())
    }
}

/// Each member's [`LossLog`], filled from the ensemble's `[K]` losses with one readback per
/// flush.
#[derive(Debug, Default)]
pub struct MemberLogs {
    pending: Vec<Tensor<1>>,
    /// Member `k`'s losses so far and where it diverged.
    pub logs: Vec<LossLog>,
}

impl MemberLogs {
    /// Logs for `members` members.
    pub fn new(members: usize) -> Self {
        Self {
            pending: Vec::new(),
            logs: (0..members).map(|_| LossLog::default()).collect(),
        }
    }

    /// Queues one iteration's losses `[K]` (no readback).
    pub fn push(&mut self, losses: Tensor<1>) {
        self.pending.push(losses);
    }

    /// Reads every queued iteration in one transfer into the members' logs.
    pub async fn flush(&mut self) -> Result<(), TrainError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let members = self.logs.len();
        let values = read_f32(Tensor::cat(std::mem::take(&mut self.pending), 0)).await?;
        for iteration in values.chunks_exact(members) {
            for (log, &value) in self.logs.iter_mut().zip(iteration) {
                log.record(&[value]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "ensemble_tests.rs"]
mod tests;
