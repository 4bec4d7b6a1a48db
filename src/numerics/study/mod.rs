//! A study = training configurations × seeds → evaluated results: the one data path shared by
//! the CLI (`unroll-lab study`) and the browser. [`StudyConfig`] names the grid (modes ×
//! modalities × network sizes × unroll horizons × seeds); [`runner::Study`] runs it in small,
//! resumable increments; [`aggregate`] turns per-seed metrics into the results schema.

pub mod aggregate;
pub mod batch;
pub mod cell;
pub mod checkpoint;
pub mod controller;
pub mod convergence;
pub mod cost;
pub mod description;
pub mod device_choice;
pub mod driver;
pub mod evaluate;
pub mod inference;
mod jobs;
mod limits;
pub mod merge;
pub mod packed;
pub mod physics;
pub mod plan;
pub mod playground;
pub mod pool;
pub mod prepared;
pub mod preset;
pub mod progress;
pub mod results;
pub mod runner;
pub mod stage;
pub mod together;

use serde::{Deserialize, Serialize};

pub use crate::numerics::types::EvalConfig;
pub use limits::{MAX_ROLLOUT, MAX_TESTS_PER_SIZE};
pub use preset::Preset;
pub use runner::{Phase, Study, StudyProgress};
pub use stage::StudyError;

use crate::numerics::nets::{Architecture, NetConfig};
use crate::numerics::train::{Modality, Mode, TrainConfig, TrainError};
use crate::numerics::types::System;
use description::SystemDescription;

/// A network of the grid: its size, and its architecture where the grid varies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetSize {
    /// The architecture; `None` = the base config's (files written before the grid could
    /// vary it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<Architecture>,
    /// Channels C.
    pub channels: usize,
    /// Depth D (residual blocks, U-Net levels, FNO layers).
    pub depth: usize,
}

impl NetSize {
    /// `C × D` of the base config's architecture.
    pub fn new(channels: usize, depth: usize) -> Self {
        Self {
            architecture: None,
            channels,
            depth,
        }
    }

    /// `C × D` of `architecture`.
    pub fn of(architecture: Architecture, channels: usize, depth: usize) -> Self {
        Self {
            architecture: Some(architecture),
            channels,
            depth,
        }
    }
}

/// The grid of a study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyConfig {
    /// The preset it came from (its name in the file).
    pub preset: Preset,
    /// The simulated system (`ks` in files written before there was a choice).
    #[serde(default)]
    pub system: System,
    /// Training settings shared by every variant (mode, modality, size, horizon, seed are
    /// replaced per variant).
    pub base: TrainConfig,
    /// Simulation modes.
    pub modes: Vec<Mode>,
    /// Training modalities.
    pub modalities: Vec<Modality>,
    /// Network sizes.
    pub sizes: Vec<NetSize>,
    /// Unroll horizons m.
    pub horizons: Vec<usize>,
    /// Seeds (each variant is trained once per seed; one seed = identical initial weights
    /// across modalities).
    pub seeds: Vec<u64>,
    /// The test set and rollout lengths.
    pub eval: EvalConfig,
}

/// Largest accepted number of trainings (variants × seeds).
pub const MAX_TRAININGS: usize = 512;

impl StudyConfig {
    /// The training configuration of every variant (seed 0), network-major (architecture and
    /// size), then horizon, mode, modality.
    pub fn variants(&self) -> Vec<TrainConfig> {
        let mut out = Vec::new();
        for size in &self.sizes {
            for &horizon in &self.horizons {
                for &mode in &self.modes {
                    for &modality in &self.modalities {
                        let mut config = self.base.clone();
                        config.net = NetConfig {
                            architecture: size.architecture.unwrap_or(config.net.architecture),
                            channels: size.channels,
                            depth: size.depth,
                        };
                        config.unroll.horizon = horizon;
                        config.mode = mode;
                        config.modality = modality;
                        config.black_box_solver = false;
                        if config.curriculum.is_some() {
                            // ONE trains as many one-step stages.
                            config.iterations = config.total_iterations();
                        }
                        out.push(config);
                    }
                }
            }
        }
        out
    }

    /// The grid reduced to one training: `training` (one of [`Self::variants`], with its
    /// seed) alone, for its cost.
    pub fn single_training(&self, training: &TrainConfig) -> StudyConfig {
        StudyConfig {
            modes: vec![training.mode],
            modalities: vec![training.modality],
            sizes: vec![NetSize {
                architecture: Some(training.net.architecture),
                channels: training.net.channels,
                depth: training.net.depth,
            }],
            horizons: vec![training.unroll.horizon],
            seeds: vec![training.seed],
            ..self.clone()
        }
    }

    /// Checks the grid and every variant's training config against `system` (this config's
    /// system's implementation: its parameter range, architectures and modes).
    pub fn validate(&self, system: &dyn SystemDescription) -> Result<(), TrainError> {
        let empty = |field: &'static str, what: &str| {
            TrainError::invalid(field, format!("select at least one {what}"))
        };
        if self.modes.is_empty() {
            return Err(empty("modes", "mode"));
        }
        if self.modalities.is_empty() {
            return Err(empty("modalities", "modality"));
        }
        if self.sizes.is_empty() {
            return Err(empty("sizes", "network size"));
        }
        if self.horizons.is_empty() {
            return Err(empty("horizons", "horizon"));
        }
        if self.seeds.is_empty() {
            return Err(empty("seeds", "seed"));
        }
        let trainings = self.variants().len() * self.seeds.len();
        if trainings > MAX_TRAININGS {
            return Err(TrainError::invalid(
                "seeds",
                format!("{trainings} trainings requested, at most {MAX_TRAININGS}"),
            ));
        }
        let eval = &self.eval;
        if eval.scales.is_empty() || eval.tests_per_size == 0 {
            return Err(TrainError::invalid(
                "tests",
                "need at least one test size and test",
            ));
        }
        if eval.rollout_steps < eval.error_horizon || eval.error_horizon == 0 {
            return Err(TrainError::invalid(
                "rollout_steps",
                "the rollout must be at least the error horizon (≥ 1)",
            ));
        }
        if eval.rollout_steps > MAX_ROLLOUT || eval.tests_per_size > MAX_TESTS_PER_SIZE {
            return Err(TrainError::invalid(
                "rollout_steps",
                format!(
                    "at most {MAX_ROLLOUT} rollout steps and {MAX_TESTS_PER_SIZE} tests per size"
                ),
            ));
        }
        for variant in self.variants() {
            system.validate(&variant)?;
        }
        Ok(())
    }
}

/// A study small enough for unit tests: P-NOG, one 2 × 0 network, 5 iterations on one
/// 12-frame trajectory, one 12-step test.
#[cfg(test)]
pub(crate) fn tiny_config() -> StudyConfig {
    let mut config = crate::numerics::ks::preset::study_config(Preset::Quick, 1);
    config.modes = vec![Mode::Predict];
    config.modalities = vec![Modality::Nog];
    config.sizes = vec![NetSize::new(2, 0)];
    config.base.iterations = 5;
    config.base.data.scales = vec![1.0];
    config.base.data.frames = 12;
    config.base.data.warmup_steps = 0;
    config.eval.scales = vec![1.0];
    config.eval.tests_per_size = 1;
    config.eval.start_frame = 2;
    config.eval.rollout_steps = 12;
    config
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::ks::preset::study_config;
    use crate::numerics::ks::system::Ks;

    #[test]
    fn presets_have_the_documented_grids() {
        let quick = study_config(Preset::Quick, 3);
        quick.validate(&Ks).expect("valid");
        let labels: Vec<String> = quick
            .variants()
            .iter()
            .map(|v| v.variant_id().label())
            .collect();
        assert_eq!(
            labels,
            ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]
        );
        assert_eq!(quick.seeds, vec![0, 1, 2]);
        let sizes = study_config(Preset::Sizes, 1);
        let params: Vec<usize> = sizes
            .sizes
            .iter()
            .map(|s| {
                NetConfig {
                    channels: s.channels,
                    depth: s.depth,
                    ..NetConfig::default()
                }
                .parameter_count()
            })
            .collect();
        // ≥ 4 sizes spanning ≥ 1.5 decades.
        assert!(params.len() >= 4);
        assert!((params[params.len() - 1] as f64 / params[0] as f64).log10() >= 1.5);
        let horizons = study_config(Preset::Horizons, 1);
        assert_eq!(horizons.horizons, vec![1, 2, 4, 8]);
        assert_eq!(horizons.variants().len(), 8);
    }

    #[test]
    fn empty_grids_are_rejected_with_the_field() {
        let mut config = study_config(Preset::Quick, 1);
        config.modalities.clear();
        let err = config.validate(&Ks).expect_err("invalid");
        assert!(err.to_string().starts_with("modalities"), "{err}");
    }
}
