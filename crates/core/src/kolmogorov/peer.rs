//! A Kolmogorov study as the paper's `kolm_train.py` would run it: one line per network size
//! and modality (ONE is the 1-step stage, NOG `--nogradient` and WIG `--gradient` the
//! curriculum), with the settings the script has no flag for. APEBench has no equivalent.

use crate::nets::resnet2d::PAPER_SIZES;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::train::curriculum::Curriculum;
use crate::train::Modality;
use crate::types::{PeerCommands, PeerExport};

/// The paper's training script, as its repository names it.
pub const SCRIPT: &str = "kolmogorov/kolm_train.py";

/// The export of a Kolmogorov study `config`.
pub fn peer_commands(system: &dyn SystemDescription, config: &StudyConfig) -> PeerCommands {
    PeerCommands {
        script: SCRIPT,
        script_export: kolm_train_command(system, config),
        apebench: None,
    }
}

/// The `--feat_selector` of `(channels, depth)` (a row of [`PAPER_SIZES`]).
fn feat_selector(channels: usize, depth: usize) -> Option<usize> {
    PAPER_SIZES
        .iter()
        .position(|(c, d, _)| (*c, *d) == (channels, depth))
}

/// The `--feat_selector` values of the study's sizes (its base size where none is a paper
/// size).
fn selectors(config: &StudyConfig) -> Vec<usize> {
    let sizes: Vec<usize> = config
        .sizes
        .iter()
        .filter_map(|size| feat_selector(size.channels, size.depth))
        .collect();
    if sizes.is_empty() {
        let net = &config.base.net;
        feat_selector(net.channels, net.depth).into_iter().collect()
    } else {
        sizes
    }
}

/// The study's curriculum (one stage at its horizon where it has none).
fn curriculum(config: &StudyConfig) -> Curriculum {
    let base = &config.base;
    base.curriculum.clone().unwrap_or_else(|| Curriculum {
        horizons: vec![base.unroll.horizon],
        stage_iterations: base.iterations,
        learning_rates: vec![base.optimizer.learning_rate],
        ramp: false,
        restart: true,
    })
}

/// The budget in the script's whole `--epochs` per stage, and the data it reads but `config`
/// changes, noted in `no_flag`.
fn epochs_and_data(
    system: &dyn SystemDescription,
    config: &StudyConfig,
    curriculum: &Curriculum,
    no_flag: &mut Vec<String>,
) -> usize {
    let base = &config.base;
    let paper = system.preset(Preset::Paper, 1).base.data;
    let longest = curriculum.horizons.last().copied().unwrap_or(1);
    let epoch = base.data.scales.len() * paper.frames.saturating_sub(longest + 1);
    let epochs = curriculum.stage_iterations as f64 / epoch.max(1) as f64;
    let whole = epochs.round().max(1.0) as usize;
    if (epochs - whole as f64).abs() > 1e-9 {
        no_flag.push(format!(
            "{} iterations per stage = {epochs:.4} epochs of 6 Re × 6000 frames (--epochs is whole: {whole} shown)",
            curriculum.stage_iterations
        ));
    }
    if base.data.frames != paper.frames {
        no_flag.push(format!(
            "{} frames per Re (the script reads its 6000-frame data set)",
            base.data.frames
        ));
    }
    if base.data.scales != paper.scales {
        no_flag.push(format!(
            "training Re {:?} (fixed in the script)",
            base.data.scales
        ));
    }
    no_flag.push("the data set DS6000.npz is made by the notebook, not by a flag".into());
    whole
}

/// `items` as one space-separated flag value.
fn spaced<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// The `python kolm_train.py …` lines (one per size and modality), with the settings the
/// script has no flag for.
fn kolm_train_command(system: &dyn SystemDescription, config: &StudyConfig) -> PeerExport {
    let mut no_flag = Vec::new();
    let curriculum = curriculum(config);
    let whole = epochs_and_data(system, config, &curriculum, &mut no_flag);
    let seeds = spaced(config.seeds.iter());
    let stages = curriculum.horizons.len();
    let rates = spaced(
        curriculum
            .learning_rates
            .iter()
            .take(stages)
            .map(|lr| format!("{lr:e}")),
    );
    let steps = |one: bool| spaced(curriculum.horizons.iter().map(|&m| if one { 1 } else { m }));
    let mut lines = Vec::new();
    for feat in selectors(config) {
        for modality in &config.modalities {
            let gradient = match modality {
                Modality::One | Modality::Nog => "--nogradient",
                Modality::Wig => "--gradient",
            };
            lines.push(format!(
                "python kolm_train.py {gradient} --step_counts {} --start_learning_rate {rates} --epochs {whole} --feat_selector {feat} --batch_size {} --seeds {seeds}  # {}",
                steps(*modality == Modality::One),
                config.base.batch,
                modality.label()
            ));
        }
    }
    PeerExport { lines, no_flag }
}
