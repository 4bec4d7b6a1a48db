//! The unroll curriculum of a training run (the Kolmogorov study: horizon 1 → 2 → 4, one
//! learning rate per stage; ONE trains as many stages, each at horizon 1): its stages, the
//! horizon and learning rate at each iteration, and its validation.

use serde::{Deserialize, Serialize};

use super::config::{Modality, OptimizerConfig, TrainConfig, UnrollConfig};
use super::error::TrainError;

/// An unroll curriculum (the Kolmogorov study: 1 → 2 → 4): stage `i` trains
/// `stage_iterations` iterations at horizon `horizons[i]` and learning rate `learning_rates[i]`,
/// starting from the previous stage's weights. ONE trains the same stages at horizon 1 (the
/// paper's one-step curriculum: the same iterations and learning rates as NOG and WIG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curriculum {
    /// Horizon of each stage (increasing; the last is the variant's horizon).
    pub horizons: Vec<usize>,
    /// Iterations per stage.
    pub stage_iterations: usize,
    /// Initial learning rate of each stage (decayed within the stage by the optimiser's
    /// schedule).
    pub learning_rates: Vec<f64>,
    /// Stages with a horizon above 1 ramp their learning rate up linearly over their first
    /// `64 · horizon` iterations (as the paper's Kolmogorov code does in its first epoch).
    pub ramp: bool,
    /// Each stage after the first starts a fresh optimiser (Adam's moments at zero) and fresh
    /// gradient-guard bounds, as the paper's Kolmogorov code does (a new graph per stage);
    /// `false`: both carry over between stages.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
}

/// One stage of a run: its horizon and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageAt {
    /// Stage index.
    pub stage: usize,
    /// Iteration of the run at which it starts.
    pub start: usize,
    /// Its horizon.
    pub horizon: usize,
}

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
