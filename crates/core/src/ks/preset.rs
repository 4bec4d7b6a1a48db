//! KS's training budgets: `paper` (the study's settings) and `quick` (small enough that all six
//! variants train natively on 2 cores in a few minutes), chosen by
//! [`crate::system::config::Preset`]. Deviations from `paper` are computed field by field
//! ([`crate::train::preset::deviations`]), so the list shown to users cannot drift
//! from the settings.

use super::data::{KEPT_FRAMES, TESTS_PER_SIZE, TEST_SCALES, TRAIN_SCALES, TRAIN_WARMUP_STEPS};
use crate::metrics::{ERROR_HORIZON, STABILITY_HORIZON};
use crate::system::config::{NetSize, Preset, StudyConfig};
use crate::train::config::{
    MinibatchOrder, Modality, Mode, OptimizerConfig, TrainConfig, TrainDataConfig,
};
use crate::train::preset::deviations;
use crate::types::{EvalConfig, System};

/// The study's training data: the six training scales, the first kept frame at step 201, the
/// first 25 % of the 5000 kept frames.
pub fn train_data() -> TrainDataConfig {
    TrainDataConfig {
        scales: TRAIN_SCALES.to_vec(),
        warmup_steps: TRAIN_WARMUP_STEPS,
        frames: KEPT_FRAMES / 4,
    }
}

/// Epochs of the study at its default dataset fraction (4 / 25 %).
pub const PAPER_EPOCHS: usize = 16;

/// Mean iterations of one official epoch of the study's data for NOG/WIG (batch 16, m = 3):
/// an epoch ends when the first size runs out ([`crate::train::epochs`]), 2,654.7
/// over 200 epochs of the sampler (tested), where the nominal epoch is 2,803.
pub const OFFICIAL_EPOCH_ITERATIONS: f64 = 2654.7;

/// Iterations of `epochs` official epochs of the study's data, rounded (16: 42,475).
pub fn official_iterations(epochs: usize) -> usize {
    (epochs as f64 * OFFICIAL_EPOCH_ITERATIONS).round() as usize
}

/// The study's configuration, trained as `ks_train.py` trains: its epochs
/// ([`MinibatchOrder::OfficialEpochs`]), Adam's ε 1e-8, training frames from step 201. Every
/// modality trains [`official_iterations`]`(16)` iterations, NOG/WIG's 16 epochs on average (a
/// seed's own 16 differ by a few iterations; ONE's official 48 epochs at batch 48 are ≈ 40,800).
pub fn paper(mode: Mode, modality: Modality) -> TrainConfig {
    let iterations = official_iterations(PAPER_EPOCHS);
    TrainConfig {
        order: MinibatchOrder::OfficialEpochs,
        ..TrainConfig::study(System::Ks, mode, modality, train_data(), iterations)
    }
}

/// Iterations of the quick preset.
pub const QUICK_ITERATIONS: usize = 900;
/// Initial learning rate of the quick preset.
pub const QUICK_LEARNING_RATE: f64 = 4e-3;

/// The quick preset: shorter training at a higher learning rate, fewer frames, minibatches in
/// seeded rounds (one clock for every seed, so the page trains a variant's seeds as one
/// ensemble: [`crate::train::ensemble::shares_model`]). Its schedule is the study's compressed: the study decays ×0.9 22 times
/// (after step 0, then every 2000 of 42,475 iterations), the quick preset as often over its own
/// iterations, whatever the iterations knob says.
pub fn quick(mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = paper(mode, modality);
    let study = config.optimizer;
    // The study's decays: every 2000 iterations and once after step 0.
    let decays = config.iterations / study.decay_every + 1;
    config.optimizer =
        OptimizerConfig::decaying(QUICK_LEARNING_RATE, study.decay, decays, QUICK_ITERATIONS);
    config.iterations = QUICK_ITERATIONS;
    config.data.frames = 400;
    config.order = MinibatchOrder::Rounds;
    config
}

/// The study's test set: four test scales × 10 seeded tests, rollouts from frame 200, error
/// horizon H = 12, 750-step rollouts.
pub fn eval_config() -> EvalConfig {
    EvalConfig {
        scales: TEST_SCALES.to_vec(),
        tests_per_size: TESTS_PER_SIZE,
        test_seed: 0,
        start_frame: 200,
        error_horizon: ERROR_HORIZON,
        rollout_steps: STABILITY_HORIZON,
    }
}

/// The budget of the `sizes` and `horizons` surveys, at which the book's size tables were
/// measured: 600 iterations, the quick preset's 400 frames, learning rate 1e-3 ×0.9 every 100
/// iterations (a fixed interval, so `--iterations` changes the number of decays).
pub fn survey(mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = quick(mode, modality);
    config.iterations = 600;
    config.optimizer = OptimizerConfig::every(1e-3, 0.9, 100);
    config
}

/// The training configuration of `mode` and `modality` at this preset's budget (`paper`:
/// the study's settings; `quick`: [`quick`]; the surveys: [`survey`]).
pub fn training(preset: Preset, mode: Mode, modality: Modality) -> TrainConfig {
    match preset {
        Preset::Paper => paper(mode, modality),
        Preset::Quick => quick(mode, modality),
        Preset::Sizes | Preset::Horizons => survey(mode, modality),
    }
}

/// What the training budget changes from the study, one line per field (empty for `paper`).
pub fn preset_deviations(preset: Preset) -> Vec<String> {
    deviations(
        &training(preset, Mode::Correct, Modality::Wig),
        &paper(Mode::Correct, Modality::Wig),
    )
}

/// One paragraph: what the training budget is, and every deviation from the study.
pub fn description(preset: Preset) -> String {
    match preset {
        Preset::Paper => "The study's settings: ResNet1D 16 channels × depth 10, Adam 1e-4 \
                          (ε 1e-8) ×0.9 every 2000 iterations, batch 16, m = 3, 6 train sizes × \
                          6 ICs, 1250 frames each (25 % of 5000, from step 201), 16 epochs in \
                          ks_train.py's order (42,475 iterations)."
            .to_string(),
        _ => format!(
            "A reduced budget so the six variants train in minutes. Deviations from the \
             study: {}.",
            preset_deviations(preset).join("; ")
        ),
    }
}

/// The grid of this preset (KS) with `seeds` seeds (0, 1, …).
pub fn study_config(preset: Preset, seeds: usize) -> StudyConfig {
    preset.grid(
        training(preset, Mode::Correct, Modality::Wig),
        eval_config(),
        seeds,
    )
}

/// A KS study small enough for the unit tests of every crate: P-NOG, one 2 × 0 network, 5 iterations on one
/// 12-frame trajectory, one 12-step test.
pub fn tiny_config() -> StudyConfig {
    let mut config = study_config(Preset::Quick, 1);
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

    #[test]
    fn paper_preset_is_the_study() {
        let config = paper(Mode::Correct, Modality::Nog);
        config.validate().expect("valid");
        assert_eq!(config.net.channels, 16);
        assert_eq!(config.net.depth, 10);
        assert_eq!(config.batch, 16);
        assert_eq!(config.unroll.horizon, 3);
        assert_eq!(config.optimizer.learning_rate, 1e-4);
        assert_eq!(config.optimizer.decay, 0.9);
        assert_eq!(config.optimizer.decay_every, 2000);
        assert_eq!(config.data.frames, 1250);
        // 16 official epochs of 36 trajectories × 1246 windows at batch 16.
        assert_eq!(config.iterations, 42_475);
        assert_eq!(config.order, MinibatchOrder::OfficialEpochs);
        assert_eq!(config.data.warmup_steps, 201);
        let measured = crate::train::epochs::mean_epoch_iterations(6, 6, 1250, 3, 16, 200);
        assert!(
            (measured - OFFICIAL_EPOCH_ITERATIONS).abs() < 0.05,
            "{measured}"
        );
        assert!(deviations(&config, &paper(Mode::Correct, Modality::Nog)).is_empty());
    }

    #[test]
    fn the_quick_budget_lists_every_deviation() {
        assert!(preset_deviations(Preset::Paper).is_empty());
        assert!(description(Preset::Quick).contains("study: 42475"));
        let sizes = training(Preset::Sizes, Mode::Predict, Modality::One);
        let quick = training(Preset::Quick, Mode::Predict, Modality::One);
        assert_eq!(
            (sizes.iterations, sizes.data.frames),
            (600, quick.data.frames)
        );
        assert_eq!(sizes.optimizer.learning_rate, 1e-3);
        assert!(preset_deviations(Preset::Horizons)
            .iter()
            .any(|d| d == "lr decay every 100 iterations (study: 2000 iterations)"));
    }

    #[test]
    fn the_quick_schedule_is_the_studys_compressed_at_any_budget() {
        let decays = |config: &TrainConfig| (config.iterations - 1) / config.optimizer.decay_every;
        let study = paper(Mode::Correct, Modality::Wig);
        // 21 decays every 2000 iterations, and the one after step 0.
        assert_eq!(decays(&study) + 1, 22);
        let mut config = quick(Mode::Correct, Modality::Wig);
        assert_eq!(config.optimizer.decay_every, 40); // ⌊899 / 22⌋
        for iterations in [600, 1000, 1800, 2400, 42_475] {
            config.set_iterations(iterations);
            assert_eq!(decays(&config), 22, "{iterations} iterations");
        }
        let last = config.optimizer.learning_rate_at(config.iterations - 1);
        assert!((last / config.optimizer.learning_rate - 0.9f64.powi(22)).abs() < 1e-12);
        // The study's own schedule stays fixed when its budget changes (the blog's 20 epochs).
        let mut blog = study;
        blog.set_iterations(53_094);
        assert_eq!(blog.optimizer.decay_every, 2000);
    }

    #[test]
    fn quick_preset_lists_every_deviation() {
        let listed = deviations(
            &quick(Mode::Correct, Modality::Wig),
            &paper(Mode::Correct, Modality::Wig),
        );
        assert!(listed.iter().any(|d| d.starts_with("iterations")));
        assert!(listed.iter().any(|d| d.starts_with("learning rate")));
        for modality in Modality::ALL {
            super::quick(Mode::Predict, modality)
                .validate()
                .expect("valid");
        }
    }
}
