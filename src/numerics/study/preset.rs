//! The one preset enum: a study's grid and its training budget. The CLI's `--preset` (for
//! `study` and `train`), the browser's menu and the URL's `preset=` all name these.

use serde::{Deserialize, Serialize};

use super::{NetSize, StudyConfig};
use crate::numerics::nets::Architecture;
use crate::numerics::train::{Modality, Mode, TrainConfig};
use crate::numerics::types::EvalConfig;

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
    /// ([`crate::numerics::nets::Facts::size_grid`]), each 4–8× the parameters of the one
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

    #[test]
    fn size_grids_span_decades_and_names_parse() {
        assert_eq!("horizons".parse::<Preset>(), Ok(Preset::Horizons));
        // Every architecture's grid spans ≥ 2 decades of parameters, each step ≥ 3×.
        for architecture in Architecture::ONE_D {
            let params: Vec<usize> = Preset::size_grid(architecture)
                .into_iter()
                .map(|size| {
                    assert_eq!(size.architecture, Some(architecture));
                    let net = crate::numerics::nets::NetConfig {
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
