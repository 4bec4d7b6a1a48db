//! A study = training configurations × seeds → evaluated results: the one data path shared by
//! the CLI (`unroll-lab study`) and the browser. [`StudyConfig`] names the grid (modes ×
//! modalities × network sizes × unroll horizons × seeds); [`runner::Study`] runs it in small,
//! resumable increments; [`aggregate`] turns per-seed metrics into the results schema.

pub mod aggregate;
pub mod evaluate;
pub mod results;
pub mod runner;

use serde::{Deserialize, Serialize};

pub use evaluate::EvalConfig;
pub use runner::{Phase, Study, StudyProgress};

use crate::numerics::nets::NetConfig;
use crate::numerics::train::{Modality, Mode, Preset, TrainConfig, TrainError};

/// A network size of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetSize {
    /// Channels C.
    pub channels: usize,
    /// Residual blocks D.
    pub depth: usize,
}

/// The study presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StudyPreset {
    /// P and C × ONE/NOG/WIG at the default net, quick training budget.
    Quick,
    /// The same grid with the study's training settings.
    Paper,
    /// Network-size convergence: 4 sizes (≈ 250 … 50k parameters), P and C, WIG.
    Sizes,
    /// Unroll length: m ∈ {1, 2, 4, 8}, correction, NOG and WIG.
    Horizons,
}

impl StudyPreset {
    /// Every preset.
    pub const ALL: [StudyPreset; 4] = [
        StudyPreset::Quick,
        StudyPreset::Paper,
        StudyPreset::Sizes,
        StudyPreset::Horizons,
    ];

    /// The preset's name.
    pub fn name(self) -> &'static str {
        match self {
            StudyPreset::Quick => "quick",
            StudyPreset::Paper => "paper",
            StudyPreset::Sizes => "sizes",
            StudyPreset::Horizons => "horizons",
        }
    }

    /// Parses [`StudyPreset::name`].
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The grid of this preset with `seeds` seeds (0, 1, …).
    pub fn config(self, seeds: usize) -> StudyConfig {
        let training = match self {
            StudyPreset::Paper => Preset::Paper,
            _ => Preset::Quick,
        };
        let base = training.config(Mode::Correct, Modality::Wig);
        let default_size = NetSize {
            channels: base.net.channels,
            depth: base.net.depth,
        };
        let both_modes = vec![Mode::Predict, Mode::Correct];
        let (modes, modalities, sizes, horizons) = match self {
            StudyPreset::Quick | StudyPreset::Paper => (
                both_modes,
                Modality::ALL.to_vec(),
                vec![default_size],
                vec![base.unroll.horizon],
            ),
            StudyPreset::Sizes => (
                both_modes,
                vec![Modality::Wig],
                [(4, 2), (8, 4), (16, 6), (32, 8)]
                    .into_iter()
                    .map(|(channels, depth)| NetSize { channels, depth })
                    .collect(),
                vec![base.unroll.horizon],
            ),
            StudyPreset::Horizons => (
                vec![Mode::Correct],
                vec![Modality::Nog, Modality::Wig],
                vec![default_size],
                vec![1, 2, 4, 8],
            ),
        };
        StudyConfig {
            preset: self.name().to_string(),
            base,
            modes,
            modalities,
            sizes,
            horizons,
            seeds: (0..seeds as u64).collect(),
            eval: EvalConfig::default(),
        }
    }
}

/// The grid of a study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyConfig {
    /// Name of the preset it came from (or `"custom"`).
    pub preset: String,
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
    /// The training configuration of every variant (seed 0), size-major, then horizon, mode,
    /// modality.
    pub fn variants(&self) -> Vec<TrainConfig> {
        let mut out = Vec::new();
        for size in &self.sizes {
            for &horizon in &self.horizons {
                for &mode in &self.modes {
                    for &modality in &self.modalities {
                        let mut config = self.base.clone();
                        config.net = NetConfig {
                            channels: size.channels,
                            depth: size.depth,
                            ..config.net
                        };
                        config.unroll.horizon = horizon;
                        config.mode = mode;
                        config.modality = modality;
                        config.black_box_solver = false;
                        out.push(config);
                    }
                }
            }
        }
        out
    }

    /// Checks the grid and every variant's training config.
    pub fn validate(&self) -> Result<(), TrainError> {
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
        if eval.rollout_steps > 5000 || eval.tests_per_size > 100 {
            return Err(TrainError::invalid(
                "rollout_steps",
                "at most 5000 rollout steps and 100 tests per size",
            ));
        }
        for variant in self.variants() {
            variant.validate()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_the_documented_grids() {
        let quick = StudyPreset::Quick.config(3);
        quick.validate().expect("valid");
        let labels: Vec<String> = quick
            .variants()
            .iter()
            .map(TrainConfig::variant_label)
            .collect();
        assert_eq!(
            labels,
            ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]
        );
        assert_eq!(quick.seeds, vec![0, 1, 2]);
        let sizes = StudyPreset::Sizes.config(1);
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
        let horizons = StudyPreset::Horizons.config(1);
        assert_eq!(horizons.horizons, vec![1, 2, 4, 8]);
        assert_eq!(horizons.variants().len(), 8);
    }

    #[test]
    fn empty_grids_are_rejected_with_the_field() {
        let mut config = StudyPreset::Quick.config(1);
        config.modalities.clear();
        let err = config.validate().expect_err("invalid");
        assert!(err.to_string().starts_with("modalities"), "{err}");
    }
}
