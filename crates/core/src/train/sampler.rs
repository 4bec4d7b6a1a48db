//! The minibatches of a training and the learning rate of each iteration, in the order its
//! [`MinibatchOrder`] names: seeded rounds ([`Schedule`]) or `ks_train.py`'s epochs
//! ([`EpochSampler`]). Both are pure functions of `(seed, iteration)`, so a run can pause,
//! resume and be replayed exactly.

use super::config::{MinibatchOrder, TrainConfig};
use super::data::TrainingData;
use super::epochs::EpochSampler;
use super::error::TrainError;
use super::schedule::{Minibatch, Schedule};

/// A training's minibatch order.
#[derive(Debug, Clone)]
pub enum Sampler {
    /// Seeded rounds of the sizes, windows with replacement.
    Rounds(Schedule),
    /// The official epochs.
    Epochs(EpochSampler),
}

impl Sampler {
    /// The order of `config` on `data`: its seed, batch and the longest window its curriculum
    /// unrolls, checked against the trajectories' length.
    pub fn new(config: &TrainConfig, data: &TrainingData) -> Result<Self, TrainError> {
        let unroll = config.effective_unroll();
        let longest = config.stage_horizons().into_iter().max().unwrap_or(1);
        let span = unroll.warmup + longest;
        let frames = data.sizes.iter().map(|size| size.frames).min().unwrap_or(0);
        if frames <= span + 1 {
            return Err(TrainError::invalid(
                "frames",
                format!("trajectories have {frames} frames, an unroll of {span} needs more"),
            ));
        }
        let trajectories = data.sizes.iter().map(|s| s.trajectories).min().unwrap_or(0);
        let batch = config.effective_batch();
        Ok(match config.order {
            MinibatchOrder::Rounds => Sampler::Rounds(Schedule {
                seed: config.seed,
                sizes: data.sizes.len(),
                trajectories,
                frames,
                batch,
                span,
            }),
            // The official windows: input frames 0..frames − span − 1 (`stack_prediction_inputs`).
            MinibatchOrder::OfficialEpochs => Sampler::Epochs(EpochSampler::new(
                config.seed,
                data.sizes.len(),
                trajectories,
                frames - span - 1,
                batch,
            )),
        })
    }

    /// The minibatch of `iteration`.
    pub fn minibatch(&mut self, iteration: usize) -> Minibatch {
        match self {
            Sampler::Rounds(schedule) => schedule.minibatch(iteration),
            Sampler::Epochs(epochs) => epochs.minibatch(iteration),
        }
    }

    /// The learning rate of `iteration`: [`TrainConfig::learning_rate_at`] for rounds; for the
    /// official epochs, the initial rate × γ per decay before it
    /// ([`EpochSampler::decays_before`]).
    pub fn learning_rate(&mut self, config: &TrainConfig, iteration: usize) -> f64 {
        match self {
            Sampler::Rounds(_) => config.learning_rate_at(iteration),
            Sampler::Epochs(epochs) => {
                let optimizer = &config.optimizer;
                let decays = epochs.decays_before(iteration, optimizer.decay_every);
                optimizer.learning_rate * optimizer.decay.powi(decays.min(i32::MAX as usize) as i32)
            }
        }
    }
}
