//! The grid of a study, for every system: [`StudyConfig`] (modes × modalities × network sizes
//! × unroll horizons × seeds, with the shared training settings and the test set), the
//! [`Preset`]s that name the grids (the CLI's `--preset`, the browser's menu, the URL's
//! `preset=`), the bounds every study is held to, and a study's identity ([`config_hash`]).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::nets::{Architecture, NetConfig};
use crate::train::{Modality, Mode, TrainConfig, TrainError};
use crate::types::{EvalConfig, System};

/// Longest accepted evaluation rollout (steps).
pub const MAX_ROLLOUT: usize = 5000;
/// Most accepted tests per test size.
pub const MAX_TESTS_PER_SIZE: usize = 100;

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

    /// Checks the grid itself (every axis chosen, the trainings, the test set and the rollout
    /// within bounds); `StudyConfig::validate` (in [`super::description`]) adds every variant's
    /// checks by its system.
    pub fn validate_grid(&self) -> Result<(), TrainError> {
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
        Ok(())
    }
}

/// The identity of a study: the first 16 hex digits of the SHA-256 of its config's JSON.
pub fn config_hash(config: &StudyConfig) -> String {
    let json = serde_json::to_string(config).unwrap_or_default();
    let digest = Sha256::digest(json.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// P and C × ONE/NOG/WIG at the default net, quick training budget (the paper's headline
    /// comparison; the browser's default; `headline` in early files).
    #[serde(alias = "headline")]
    Quick,
    /// The same grid with the study's training settings.
    Paper,
    /// Network-size convergence: 4 sizes per architecture (≈ 200 … 60k parameters), P and C,
    /// WIG.
    Sizes,
    /// Unroll length: m ∈ {1, 2, 4, 8}, correction, NOG and WIG.
    Horizons,
}

crate::named_enum!(Preset, "preset", {
    Quick => "quick",
    Paper => "paper",
    Sizes => "sizes",
    Horizons => "horizons",
});

impl Preset {
    /// The presets the browser offers (the study's full budget is for the CLI).
    pub const BROWSER: [Preset; 3] = [Preset::Quick, Preset::Sizes, Preset::Horizons];

    /// Menu title.
    pub fn title(self) -> &'static str {
        match self {
            Preset::Quick => "Correction vs prediction (paper headline)",
            Preset::Paper => "Correction vs prediction, the study's full budget",
            Preset::Sizes => "Network size (convergence)",
            Preset::Horizons => "Unroll length",
        }
    }

    /// The `sizes` grid of `architecture`: its four `C × D` from the registry
    /// ([`crate::nets::Facts::size_grid`]), each 4–8× the parameters of the one
    /// before.
    pub fn size_grid(architecture: Architecture) -> Vec<NetSize> {
        architecture
            .facts()
            .size_grid
            .into_iter()
            .map(|(c, d)| NetSize::of(architecture, c, d))
            .collect()
    }

    /// The grid of this preset for a 1-D study around `base` (its system, net and horizon):
    /// P and C × ONE / NOG / WIG (`quick`, `paper`), the base architecture's four sizes with
    /// WIG (`sizes`), m ∈ {1, 2, 4, 8} in correction with NOG and WIG (`horizons`); `seeds`
    /// seeds (0, 1, …), tested on `eval`.
    pub fn grid(self, base: TrainConfig, eval: EvalConfig, seeds: usize) -> StudyConfig {
        let default_size = NetSize::new(base.net.channels, base.net.depth);
        let both_modes = vec![Mode::Predict, Mode::Correct];
        let (modes, modalities, sizes, horizons) = match self {
            Preset::Quick | Preset::Paper => (
                both_modes,
                Modality::ALL.to_vec(),
                vec![default_size],
                vec![base.unroll.horizon],
            ),
            Preset::Sizes => (
                both_modes,
                vec![Modality::Wig],
                Self::size_grid(base.net.architecture),
                vec![base.unroll.horizon],
            ),
            Preset::Horizons => (
                vec![Mode::Correct],
                vec![Modality::Nog, Modality::Wig],
                vec![default_size],
                vec![1, 2, 4, 8],
            ),
        };
        StudyConfig {
            preset: self,
            system: base.system,
            base,
            modes,
            modalities,
            sizes,
            horizons,
            seeds: (0..seeds as u64).collect(),
            eval,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::preset::study_config;
    use crate::ks::system::Ks;

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

    #[test]
    fn size_grids_span_decades_and_names_parse() {
        assert_eq!("horizons".parse::<Preset>(), Ok(Preset::Horizons));
        // Every architecture's grid spans ≥ 2 decades of parameters, each step ≥ 3×.
        for architecture in Architecture::ONE_D {
            let params: Vec<usize> = Preset::size_grid(architecture)
                .into_iter()
                .map(|size| {
                    assert_eq!(size.architecture, Some(architecture));
                    let net = crate::nets::NetConfig {
                        architecture,
                        channels: size.channels,
                        depth: size.depth,
                    };
                    net.validate().expect("valid size");
                    net.parameter_count()
                })
                .collect();
            assert!(
                params.windows(2).all(|w| w[1] >= 3 * w[0]),
                "{architecture}: {params:?}"
            );
            assert!(params[3] >= 100 * params[0], "{architecture}: {params:?}");
        }
        assert!("huge"
            .parse::<Preset>()
            .expect_err("unknown")
            .to_string()
            .contains("unknown preset 'huge' (expected quick, paper, sizes or horizons)"));
    }
}
