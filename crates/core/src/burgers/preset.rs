//! The Burgers study's presets. Burgers is not in the paper: `paper` is the KS study's training
//! recipe (ResNet1D 16 × 10, Adam 1e-4 ×0.9 every 2000 iterations, batch 16, m = 3, 16 epochs)
//! applied to this system's data, and the reduced presets list what they change from it, field by
//! field, like KS's.

use super::config::{
    KEPT_FRAMES, ROLLOUT_STEPS, TESTS_PER_VISCOSITY, TEST_VISCOSITIES, TRAIN_ICS,
    TRAIN_VISCOSITIES, WARMUP_STEPS,
};
use crate::metrics::ERROR_HORIZON;
use crate::system::config::{Preset, StudyConfig};
use crate::train::config::{Modality, Mode, OptimizerConfig, TrainConfig, TrainDataConfig};
use crate::train::preset::{deviations, iterations_for_epochs};
use crate::types::{EvalConfig, System};

/// Epochs of the full budget (the KS study's).
pub const EPOCHS: usize = 16;

/// The training data: [`TRAIN_VISCOSITIES`] × [`TRAIN_ICS`] trajectories, [`WARMUP_STEPS`]
/// dropped, [`KEPT_FRAMES`] kept.
pub fn train_data() -> TrainDataConfig {
    TrainDataConfig {
        scales: TRAIN_VISCOSITIES.to_vec(),
        warmup_steps: WARMUP_STEPS,
        frames: KEPT_FRAMES,
    }
}

/// The test set: [`TEST_VISCOSITIES`], [`TESTS_PER_VISCOSITY`] tests each, rollouts of
/// [`ROLLOUT_STEPS`] from the first frame after the warm-up, error horizon 12.
pub fn eval_config() -> EvalConfig {
    EvalConfig {
        scales: TEST_VISCOSITIES.to_vec(),
        tests_per_size: TESTS_PER_VISCOSITY,
        test_seed: 0,
        start_frame: 0,
        error_horizon: ERROR_HORIZON,
        rollout_steps: ROLLOUT_STEPS,
    }
}

/// The full budget of `mode` × `modality`.
pub fn full(mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = TrainConfig::study(System::Burgers, mode, modality, train_data(), 0);
    let trajectories = config.data.scales.len() * TRAIN_ICS;
    let (frames, horizon) = (config.data.frames, config.unroll.horizon);
    config.iterations = iterations_for_epochs(trajectories, frames, horizon, config.batch, EPOCHS);
    config
}

/// The quick budget: 600 iterations at learning rate 1e-3 ×0.9 every 100 (KS's survey budget).
pub fn quick(mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = full(mode, modality);
    config.iterations = 600;
    config.optimizer = OptimizerConfig::every(1e-3, 0.9, 100);
    config
}

/// The training config of `preset` (`paper`: the full budget; the others: the quick one).
pub fn training(preset: Preset, mode: Mode, modality: Modality) -> TrainConfig {
    match preset {
        Preset::Paper => full(mode, modality),
        _ => quick(mode, modality),
    }
}

/// What `preset`'s budget changes from the full one, one line per field.
pub fn preset_deviations(preset: Preset) -> Vec<String> {
    deviations(
        &training(preset, Mode::Correct, Modality::Wig),
        &full(Mode::Correct, Modality::Wig),
    )
}

/// The grid of `preset`: P and C × ONE / NOG / WIG (`quick`, `paper`), the base
/// architecture's four sizes with WIG (`sizes`), m ∈ {1, 2, 4, 8} in correction (`horizons`).
pub fn study_config(preset: Preset, seeds: usize) -> StudyConfig {
    preset.grid(
        training(preset, Mode::Correct, Modality::Wig),
        eval_config(),
        seeds,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_budget_is_sixteen_epochs_and_quick_lists_its_changes() {
        let config = full(Mode::Correct, Modality::Nog);
        // 16 epochs over 32 trajectories × 247 windows at batch 16.
        assert_eq!(config.iterations, 7_904);
        assert!(preset_deviations(Preset::Paper).is_empty());
        let quick = preset_deviations(Preset::Quick);
        assert!(quick.iter().any(|d| d.starts_with("iterations 600")));
        let grid = study_config(Preset::Quick, 2);
        assert_eq!(grid.variants().len(), 6);
        assert_eq!(grid.seeds, vec![0, 1]);
    }
}
