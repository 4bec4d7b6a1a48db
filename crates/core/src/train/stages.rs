//! A run's stages as its configuration sets them: the horizons trained in order, the stage,
//! unroll and learning rate at each iteration (from the [`Curriculum`](super::curriculum::Curriculum) where there is one), and
//! the curriculum's validation.

use super::config::{Modality, OptimizerConfig, TrainConfig, UnrollConfig};
use super::curriculum::StageAt;
use super::error::TrainError;

impl TrainConfig {
    /// The horizons trained in order: the curriculum's (ONE: as many stages, each at horizon
    /// 1), else the effective unroll's one.
    pub fn stage_horizons(&self) -> Vec<usize> {
        match (&self.curriculum, self.modality) {
            (Some(c), Modality::One) => vec![1; c.horizons.len()],
            (Some(c), _) => c.horizons.clone(),
            (None, _) => vec![self.effective_unroll().horizon],
        }
    }

    /// Total optimiser iterations: stages × stage iterations with a curriculum, else
    /// `iterations`.
    pub fn total_iterations(&self) -> usize {
        match &self.curriculum {
            Some(c) => c.stage_iterations * self.stage_horizons().len(),
            None => self.iterations,
        }
    }

    /// The stage that 0-based `iteration` belongs to.
    pub fn stage_at(&self, iteration: usize) -> StageAt {
        let horizons = self.stage_horizons();
        match &self.curriculum {
            Some(c) => {
                let stage = (iteration / c.stage_iterations.max(1)).min(horizons.len() - 1);
                StageAt {
                    stage,
                    start: stage * c.stage_iterations,
                    horizon: horizons[stage],
                }
            }
            None => StageAt {
                stage: 0,
                start: 0,
                horizon: horizons[0],
            },
        }
    }

    /// The learning rate at 0-based `iteration`: the optimiser's decay within the stage, from
    /// the stage's own rate, ramped up at the start of stages with a horizon above 1 when the
    /// curriculum says so.
    pub fn learning_rate_at(&self, iteration: usize) -> f64 {
        let Some(curriculum) = &self.curriculum else {
            return self.optimizer.learning_rate_at(iteration);
        };
        let at = self.stage_at(iteration);
        let within = iteration - at.start;
        let base = curriculum.learning_rates[at.stage];
        let decayed = OptimizerConfig {
            learning_rate: base,
            ..self.optimizer
        }
        .learning_rate_at(within);
        let ramp_length = 64 * at.horizon;
        if curriculum.ramp && at.horizon > 1 && within < ramp_length {
            decayed * within as f64 / ramp_length as f64
        } else {
            decayed
        }
    }

    /// Whether the optimiser and the gradient guard start afresh at 0-based `iteration`: the
    /// first iteration of a stage after the first, when the curriculum restarts them.
    pub fn restarts_at(&self, iteration: usize) -> bool {
        let Some(curriculum) = &self.curriculum else {
            return false;
        };
        let at = self.stage_at(iteration);
        curriculum.restart && at.stage > 0 && iteration == at.start
    }

    /// The unroll at 0-based `iteration` (the curriculum's stage horizon, else the effective
    /// unroll).
    pub fn unroll_at(&self, iteration: usize) -> UnrollConfig {
        match &self.curriculum {
            Some(_) => UnrollConfig {
                horizon: self.stage_at(iteration).horizon,
                ..self.effective_unroll()
            },
            None => self.effective_unroll(),
        }
    }

    /// A curriculum needs increasing horizons ending at the variant's, one positive learning
    /// rate per stage and at least one iteration per stage.
    pub(super) fn validate_curriculum(&self) -> Result<(), TrainError> {
        let Some(c) = &self.curriculum else {
            return Ok(());
        };
        let increasing = c.horizons.windows(2).all(|w| w[0] < w[1]);
        if c.horizons.is_empty() || c.horizons[0] == 0 || !increasing {
            return Err(TrainError::invalid(
                "curriculum",
                "stage horizons must be increasing and at least 1",
            ));
        }
        if c.horizons.last() != Some(&self.unroll.horizon) {
            return Err(TrainError::invalid(
                "curriculum",
                format!(
                    "the last stage's horizon must be the variant's horizon {}",
                    self.unroll.horizon
                ),
            ));
        }
        if c.learning_rates.len() != c.horizons.len()
            || !c
                .learning_rates
                .iter()
                .all(|lr| lr.is_finite() && *lr > 0.0)
        {
            return Err(TrainError::invalid(
                "curriculum",
                "one positive learning rate per stage",
            ));
        }
        if c.stage_iterations == 0 || self.iterations != self.total_iterations() {
            return Err(TrainError::invalid(
                "iterations",
                format!(
                    "with a curriculum, iterations = stages × stage iterations = {}",
                    self.total_iterations()
                ),
            ));
        }
        Ok(())
    }
}
