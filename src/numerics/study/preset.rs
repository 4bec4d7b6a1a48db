//! The one preset enum: a study's grid and its training budget. The CLI's `--preset` (for
//! `study` and `train`), the browser's menu and the URL's `preset=` all name these.

use serde::{Deserialize, Serialize};

use super::{EvalConfig, NetSize, StudyConfig};
use crate::numerics::nets::Architecture;
use crate::numerics::system::System;
use crate::numerics::train::preset::{deviations, paper, quick};
use crate::numerics::train::{Modality, Mode, TrainConfig};

/// The presets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// P and C × ONE/NOG/WIG at the default net, quick training budget (the paper's headline
    /// comparison; the browser's default).
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

    /// The training configuration of `mode` and `modality` at this preset's budget (`paper`:
    /// the study's settings; every other preset: the quick budget).
    pub fn training(self, mode: Mode, modality: Modality) -> TrainConfig {
        match self {
            Preset::Paper => paper(mode, modality),
            _ => quick(mode, modality),
        }
    }

    /// What the training budget changes from the study, one line per field (empty for `paper`).
    pub fn deviations(self) -> Vec<String> {
        deviations(
            &self.training(Mode::Correct, Modality::Wig),
            &paper(Mode::Correct, Modality::Wig),
        )
    }

    /// One paragraph: what the training budget is, and every deviation from the study.
    pub fn description(self) -> String {
        match self {
            Preset::Paper => "The study's settings: ResNet1D 16 channels × depth 10, Adam 1e-4 \
                              ×0.9 every 2000 iterations, batch 16, m = 3, 6 train sizes × 6 ICs, \
                              1250 frames each (25 % of 5000), 16 epochs."
                .to_string(),
            _ => format!(
                "A reduced budget so the six variants train in minutes. Deviations from the \
                 study: {}.",
                self.deviations().join("; ")
            ),
        }
    }

    /// The network sizes of the grid when the preset fixes them (`sizes`: the base
    /// architecture's), else `None`.
    pub fn sizes(self) -> Option<Vec<NetSize>> {
        (self == Preset::Sizes).then(|| self.config(1).sizes)
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

    /// The unroll horizons of the grid when the preset fixes them (`horizons`), else `None`.
    pub fn horizons(self) -> Option<Vec<usize>> {
        (self == Preset::Horizons).then(|| self.config(1).horizons)
    }

    /// The grid of this preset for `system` with `seeds` seeds.
    pub fn config_for(self, system: System, seeds: usize) -> StudyConfig {
        match system {
            System::Ks => self.config(seeds),
            System::Kolmogorov => crate::numerics::kolmogorov::preset::config(self, seeds),
        }
    }

    /// What the training budget of `system` changes from the paper, one line per field.
    pub fn deviations_for(self, system: System) -> Vec<String> {
        match system {
            System::Ks => self.deviations(),
            System::Kolmogorov => crate::numerics::kolmogorov::preset::preset_deviations(self),
        }
    }

    /// The grid of this preset (KS) with `seeds` seeds (0, 1, …).
    pub fn config(self, seeds: usize) -> StudyConfig {
        let base = self.training(Mode::Correct, Modality::Wig);
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
            preset: self.name().to_string(),
            system: System::Ks,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_budget_lists_every_deviation() {
        assert!(Preset::Paper.deviations().is_empty());
        assert!(Preset::Quick.description().contains("study: 44892"));
        assert_eq!(
            Preset::Sizes.training(Mode::Predict, Modality::One),
            Preset::Quick.training(Mode::Predict, Modality::One)
        );
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
