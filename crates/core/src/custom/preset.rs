//! The presets of a reader's equation. It is not in the paper: `paper` is the KS study's
//! training recipe (ResNet1D 16 × 10, Adam 1e-4 ×0.9 every 2000 iterations, batch 16, m = 3,
//! 16 epochs) on the equation's data, and `quick` its survey budget (600 iterations at 1e-3
//! ×0.9 every 100), as for Burgers. The data and the test set are the equation's own settings
//! (`train`, `test`, `states`, `warmup`, `frames`, `tests`, `rollout`).

use crate::metrics::ERROR_HORIZON;
use crate::system::config::{Preset, StudyConfig};
use crate::train::config::{Modality, Mode, OptimizerConfig, TrainConfig, TrainDataConfig};
use crate::train::preset::{deviations, iterations_for_epochs};
use crate::types::{Equation, EvalConfig, System};

/// Epochs of the full budget (the KS study's).
pub const EPOCHS: usize = 16;

/// The training data of `equation`: its training values × `states` trajectories.
pub fn train_data(equation: &Equation) -> TrainDataConfig {
    TrainDataConfig {
        scales: equation.train_values(),
        warmup_steps: equation.warmup,
        frames: equation.frames,
    }
}

/// The test set of `equation`: its test values, `tests` each, rollouts of `rollout` steps from
/// the first frame after the warm-up, error horizon 12.
pub fn eval_config(equation: &Equation) -> EvalConfig {
    EvalConfig {
        scales: equation.test_values(),
        tests_per_size: equation.tests,
        test_seed: 0,
        start_frame: 0,
        error_horizon: ERROR_HORIZON,
        rollout_steps: equation.rollout,
    }
}

/// The full budget of `mode` × `modality` for the system `system` of `equation`.
pub fn full(system: System, equation: &Equation, mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = TrainConfig::study(system, mode, modality, train_data(equation), 0);
    let trajectories = config.data.scales.len() * equation.states;
    let (frames, horizon) = (config.data.frames, config.unroll.horizon);
    config.iterations = iterations_for_epochs(trajectories, frames, horizon, config.batch, EPOCHS);
    config
}

/// The training config of `preset` (`paper`: the full budget; the others: 600 iterations at
/// 1e-3 ×0.9 every 100).
pub fn training(system: System, equation: &Equation, preset: Preset) -> TrainConfig {
    let mut config = full(system, equation, Mode::Correct, Modality::Wig);
    if preset != Preset::Paper {
        config.iterations = 600;
        config.optimizer = OptimizerConfig::every(1e-3, 0.9, 100);
    }
    config
}

/// What `preset`'s budget changes from the full one, one line per field.
pub fn preset_deviations(system: System, equation: &Equation, preset: Preset) -> Vec<String> {
    deviations(
        &training(system, equation, preset),
        &full(system, equation, Mode::Correct, Modality::Wig),
    )
}

/// The grid of `preset`: P and C × ONE / NOG / WIG (`quick`, `paper`), the base
/// architecture's four sizes with WIG (`sizes`), m ∈ {1, 2, 4, 8} in correction (`horizons`).
pub fn study_config(
    system: System,
    equation: &Equation,
    preset: Preset,
    seeds: usize,
) -> StudyConfig {
    preset.grid(
        training(system, equation, preset),
        eval_config(equation),
        seeds,
    )
}
