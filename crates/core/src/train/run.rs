//! Driving a [`Trainer`]: the loss log (losses stay on the device until one batched readback),
//! divergence detection, and a complete run with progress callbacks (native CLI; the browser
//! drives the same pieces tick by tick).

use burn::tensor::Tensor;
use serde::{Deserialize, Serialize};

use super::config::TrainConfig;
use super::error::TrainError;
use super::trainer::Trainer;
use crate::readback::read_f32;

/// Losses not yet read back, and the history of those that were.
#[derive(Debug, Default)]
pub struct LossLog {
    pending: Vec<Tensor<1>>,
    /// Loss of every iteration read so far (index = iteration).
    pub history: Vec<f32>,
    /// First iteration whose loss was NaN or infinite.
    pub diverged_at: Option<usize>,
}

impl LossLog {
    /// Queues one iteration's loss (no readback).
    pub fn push(&mut self, loss: Tensor<1>) {
        self.pending.push(loss);
    }

    /// Losses queued but not yet read.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Reads every queued loss in one transfer; returns the divergence iteration if one appeared.
    pub async fn flush(&mut self) -> Result<Option<usize>, TrainError> {
        if self.pending.is_empty() {
            return Ok(self.diverged_at);
        }
        let losses = Tensor::cat(std::mem::take(&mut self.pending), 0);
        let values = read_f32(losses).await?;
        self.record(&values);
        Ok(self.diverged_at)
    }

    /// Appends read values, noting the first non-finite one.
    pub fn record(&mut self, values: &[f32]) {
        for &value in values {
            if self.diverged_at.is_none() && !value.is_finite() {
                self.diverged_at = Some(self.history.len());
            }
            self.history.push(value);
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainOutcome {
    /// The configuration trained.
    pub config: TrainConfig,
    /// Loss per iteration.
    pub loss_history: Vec<f32>,
    /// Iterations completed.
    pub iterations_done: usize,
    /// `Some(k)`: the loss became NaN/inf at iteration k and the run stopped there.
    pub diverged_at: Option<usize>,
    /// Wall time of the training loop (data generation excluded), seconds.
    pub wall_secs: f64,
    /// `iterations_done / wall_secs`.
    pub iterations_per_sec: f64,
}

/// What a progress callback sees, after each flush.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Iterations done.
    pub iteration: usize,
    /// Iterations planned.
    pub iterations: usize,
    /// Most recent loss.
    pub loss: f32,
}

/// Iterations between loss readbacks in [`run_blocking`].
pub const FLUSH_EVERY: usize = 20;

/// Runs `trainer` to the end on the calling thread (native CLI and tests), reading losses back
/// every [`FLUSH_EVERY`] iterations; stops at the first non-finite loss. `now_secs` is a clock.
pub fn run_blocking(
    trainer: &mut Trainer,
    now_secs: &dyn Fn() -> f64,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<TrainOutcome, TrainError> {
    let start = now_secs();
    let mut log = LossLog::default();
    while !trainer.finished() {
        if let Some(loss) = pollster::block_on(trainer.advance())? {
            log.push(loss);
        }
        if log.pending() >= FLUSH_EVERY || trainer.finished() {
            let diverged = pollster::block_on(log.flush())?;
            on_progress(Progress {
                iteration: trainer.iteration(),
                iterations: trainer.config().total_iterations(),
                loss: log.history.last().copied().unwrap_or(f32::NAN),
            });
            if diverged.is_some() {
                break;
            }
        }
    }
    let wall_secs = (now_secs() - start).max(1e-9);
    let iterations_done = match log.diverged_at {
        Some(k) => k,
        None => trainer.iteration(),
    };
    if let Some(k) = log.diverged_at {
        log.history.truncate(k + 1);
    }
    Ok(TrainOutcome {
        config: trainer.config().clone(),
        loss_history: log.history,
        iterations_done,
        diverged_at: log.diverged_at,
        wall_secs,
        iterations_per_sec: trainer.iteration() as f64 / wall_secs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_finds_the_first_non_finite_loss() {
        let mut log = LossLog::default();
        log.record(&[1.0, 0.5]);
        assert_eq!(log.diverged_at, None);
        log.record(&[0.25, f32::NAN, f32::INFINITY]);
        assert_eq!(log.diverged_at, Some(3));
        assert_eq!(log.history.len(), 5);
    }
}
