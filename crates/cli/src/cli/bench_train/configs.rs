//! What `bench train` times: the study's training configs of a system (every mode × modality
//! it studies) and cheap training data made by the study's recipe.

use super::super::CliError;
use unroll_core::nets::{Architecture, NetConfig};
use unroll_core::system::config::Preset;
use unroll_core::system::PhysicalSystem;
use unroll_core::train::config::TrainDataConfig;
use unroll_core::train::{Modality, Mode, TrainConfig};
use unroll_core::types::Trajectory;

/// The study's training config of `mode` × `modality` (the `paper` preset's base: its budget and
/// smallest network), at its last curriculum stage if it has one (the longest unroll, timed from
/// the start). `None` where the system does not study `mode`.
fn study_training(
    system: &dyn PhysicalSystem,
    mode: Mode,
    modality: Modality,
) -> Option<TrainConfig> {
    let mut config = system.preset(Preset::Paper, 1).base;
    config.mode = mode;
    config.modality = modality;
    if let Some(curriculum) = &mut config.curriculum {
        let last = *curriculum.horizons.last()?;
        curriculum.horizons = vec![last];
        curriculum.learning_rates.truncate(1);
        curriculum.ramp = false;
        config.unroll.horizon = last;
    }
    system.validate_training(&config).ok().map(|()| config)
}

/// What `bench train` times for `mode` × `modality`: the study's config with `architecture`
/// (at its default size unless it is the study's) on `data`, `iterations` long.
fn bench_config(
    system: &dyn PhysicalSystem,
    mode: Mode,
    modality: Modality,
    architecture: Option<Architecture>,
    data: &TrainDataConfig,
    iterations: usize,
) -> Option<TrainConfig> {
    let mut config = study_training(system, mode, modality)?;
    if let Some(architecture) = architecture.filter(|a| *a != config.net.architecture) {
        let (channels, depth) = architecture.default_size();
        config.net = NetConfig {
            architecture,
            channels,
            depth,
        };
    }
    config.data = data.clone();
    config.iterations = iterations;
    if let Some(curriculum) = &mut config.curriculum {
        curriculum.stage_iterations = iterations;
    }
    Some(config)
}

/// Every config the bench times, prediction's first.
pub(super) fn bench_configs(
    system: &dyn PhysicalSystem,
    architecture: Option<Architecture>,
    data: &TrainDataConfig,
    iterations: usize,
) -> Vec<TrainConfig> {
    [Mode::Predict, Mode::Correct]
        .into_iter()
        .flat_map(|mode| Modality::ALL.map(|modality| (mode, modality)))
        .filter_map(|(mode, modality)| {
            bench_config(system, mode, modality, architecture, data, iterations)
        })
        .collect()
}

/// The data the bench trains on, cheap to make: the study's recipe with at most 200 frames per
/// trajectory; Kolmogorov's 128² spectral truth spun up to t = 5 only (250 coarse frames, not
/// the study's t = 50) with 40 frames per Reynolds number.
pub(super) fn bench_data(
    system: &dyn PhysicalSystem,
) -> Result<(TrainDataConfig, Vec<Trajectory>), CliError> {
    let config = system.preset(Preset::Paper, 1).base;
    let data = system.bench_data();
    let trajectories = system.training_data(&data, &config.solver)?;
    Ok((data, trajectories))
}

/// `"<architecture> C×D, batch B, m = M (ONE: …)"` of the first config.
pub(super) fn heading(configs: &[TrainConfig]) -> String {
    configs.first().map_or_else(String::new, |c| {
        let one = if c.curriculum.is_some() {
            "ONE: one-step stages"
        } else {
            "ONE: batch ×m"
        };
        format!(
            "{} {}×{}, batch {}, m = {} ({one})",
            c.net.architecture, c.net.channels, c.net.depth, c.batch, c.unroll.horizon
        )
    })
}
