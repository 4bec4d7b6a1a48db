//! The Kolmogorov study's presets: `paper` (the set-up of the paper's `kolm_train.py` with its
//! defaults) and the reduced budgets, every deviation listed field by field.
//!
//! `paper`: correction, ONE / NOG / WIG, the four 2-D ResNet sizes, batch 1, the curriculum
//! 1 → 2 → 4 (ONE: the one-step curriculum 1 → 1 → 1, as many iterations), 5 epochs per stage
//! over 6 Re × 6000 frames (the script's default `--epochs 5`), Adam from 1e-4, 1e-5, 1e-6 at
//! the three stages (`--start_learning_rate 1e-4 1e-5 1e-6`, where the evaluated checkpoints
//! end), decayed ×0.9⁴ per epoch, ramped up over the first 64·m iterations of the stages with
//! m > 1, Adam and the gradient guard restarted at each stage (a new graph per stage). Every
//! preset spins its fields up to t = 50; tests: Re 600 and 1000, 6 windows of one long run per
//! Re (t = 50, 75, …, 175), 250 steps.

use super::config::{TEST_REYNOLDS, TRAIN_REYNOLDS};
use super::resnet_sizes;
use crate::nets::{Architecture, NetConfig};
use crate::system::config::{NetSize, Preset, StudyConfig};
use crate::train::config::TrainDataConfig;
use crate::train::curriculum::Curriculum;
use crate::train::preset::deviations;
use crate::train::{Modality, Mode, OptimizerConfig, TrainConfig, UnrollConfig};
use crate::types::{EvalConfig, SolverSetup, System};

/// Coarse frames per training Reynolds number (the paper: 6000).
pub const PAPER_FRAMES: usize = 6000;
/// Epochs per curriculum stage (`kolm_train.py --epochs`, default 5).
pub const PAPER_EPOCHS: usize = 5;
/// The curriculum's horizons.
pub const CURRICULUM: [usize; 3] = [1, 2, 4];
/// Coarse frames (Δt = 0.02) each field is spun up before it is used, in every preset: t = 50
/// (the paper's test starts lie at t ≈ 54–201 of its runs; its training data's spin-up is not
/// given: this is our choice).
pub const PAPER_SPINUP_FRAMES: usize = 2500;
/// Initial learning rate of each curriculum stage (`--start_learning_rate 1e-4 1e-5 1e-6`).
pub const PAPER_LEARNING_RATES: [f64; 3] = [1e-4, 1e-5, 1e-6];
/// The reduced presets' stage rates: the paper's ×0.1 steps from 1e-3, as their 1000 iterations
/// per stage (0.6 % of the paper's) decay by the same ×0.9²⁰ per stage (0.9 every 50).
pub const REDUCED_LEARNING_RATES: [f64; 3] = [1e-3, 1e-4, 1e-5];
/// Test rollout steps (251 frames).
pub const TEST_STEPS: usize = 250;
/// Tests per Reynolds number.
pub const TESTS_PER_RE: usize = 6;

/// Iterations of one epoch at batch 1: every window of every trajectory (the script's
/// `frame_count − step_count − 1` starts per Re, at its largest step count).
fn epoch_iterations(frames: usize, trajectories: usize) -> usize {
    trajectories * frames.saturating_sub(CURRICULUM[2] + 1)
}

/// The paper's training settings of `modality` at the smallest size.
pub fn paper_training(modality: Modality) -> TrainConfig {
    let epoch = epoch_iterations(PAPER_FRAMES, TRAIN_REYNOLDS.len());
    let stage_iterations = PAPER_EPOCHS * epoch;
    let mut config = TrainConfig {
        net: NetConfig {
            architecture: Architecture::Resnet2d,
            channels: 8,
            depth: 5,
        },
        mode: Mode::Correct,
        alpha: 0.0,
        modality,
        unroll: UnrollConfig {
            horizon: CURRICULUM[2],
            warmup: 0,
            detach_interval: 0,
        },
        batch: 1,
        iterations: 0,
        optimizer: OptimizerConfig::every(PAPER_LEARNING_RATES[0], 0.9f64.powi(4), epoch),
        seed: 0,
        data: TrainDataConfig {
            scales: TRAIN_REYNOLDS.to_vec(),
            warmup_steps: PAPER_SPINUP_FRAMES,
            frames: PAPER_FRAMES,
        },
        black_box_solver: false,
        system: System::Kolmogorov,
        curriculum: Some(Curriculum {
            horizons: CURRICULUM.to_vec(),
            stage_iterations,
            learning_rates: PAPER_LEARNING_RATES.to_vec(),
            ramp: true,
            restart: true,
        }),
        gradient_guard: true,
        solver: SolverSetup::default(),
        order: crate::train::config::MinibatchOrder::Rounds,
    };
    config.iterations = config.total_iterations();
    config
}

/// The reduced training settings of `preset` (every preset but `paper`): 400 frames per Re
/// spun up to t = 50 like the paper's, 1000 iterations per stage from the learning rates
/// [`REDUCED_LEARNING_RATES`], decayed ×0.9 every 50 iterations.
pub fn reduced_training(modality: Modality) -> TrainConfig {
    let mut config = paper_training(modality);
    config.data.frames = 400;
    config.optimizer = OptimizerConfig::every(REDUCED_LEARNING_RATES[0], 0.9, 50);
    if let Some(curriculum) = &mut config.curriculum {
        curriculum.stage_iterations = 1000;
        curriculum.learning_rates = REDUCED_LEARNING_RATES.to_vec();
    }
    config.iterations = config.total_iterations();
    config
}

/// The training settings of `preset` for `modality`.
pub fn training(preset: Preset, modality: Modality) -> TrainConfig {
    match preset {
        Preset::Paper => paper_training(modality),
        _ => reduced_training(modality),
    }
}

/// The paper's test set: Re 600 and 1000, 6 tests each (windows of one run per Re from t = 50,
/// every t = 25), 250 steps.
pub fn paper_eval() -> EvalConfig {
    EvalConfig {
        scales: TEST_REYNOLDS.to_vec(),
        tests_per_size: TESTS_PER_RE,
        test_seed: 0,
        start_frame: PAPER_SPINUP_FRAMES,
        error_horizon: TEST_STEPS,
        rollout_steps: TEST_STEPS,
    }
}

/// The test set of `preset`: the paper's, 2 tests per Re (t = 50 and 75) below `paper`.
pub fn eval(preset: Preset) -> EvalConfig {
    match preset {
        Preset::Paper => paper_eval(),
        _ => EvalConfig {
            tests_per_size: 2,
            ..paper_eval()
        },
    }
}

/// The Kolmogorov grid of `preset` with `seeds` seeds: correction, ONE / NOG / WIG, the four
/// sizes (`quick` and `horizons`: the smallest), horizon 4.
pub fn config(preset: Preset, seeds: usize) -> StudyConfig {
    let base = training(preset, Modality::Wig);
    let all = resnet_sizes();
    let sizes: Vec<NetSize> = match preset {
        Preset::Paper | Preset::Sizes => all,
        Preset::Quick | Preset::Horizons => all[..1].to_vec(),
    };
    StudyConfig {
        preset,
        system: System::Kolmogorov,
        modes: vec![Mode::Correct],
        modalities: Modality::ALL.to_vec(),
        sizes,
        horizons: vec![base.unroll.horizon],
        seeds: (0..seeds as u64).collect(),
        eval: eval(preset),
        base,
    }
}

/// What `preset` changes from the paper's set-up, one line per field (empty for `paper`).
pub fn preset_deviations(preset: Preset) -> Vec<String> {
    config_deviations(&config(preset, 1))
}

/// What the curriculum `c` changes from the paper's `p`, one line per field.
fn curriculum_deviations(c: &Curriculum, p: &Curriculum) -> Vec<String> {
    let mut out = Vec::new();
    if c.stage_iterations != p.stage_iterations {
        out.push(format!(
            "iterations per curriculum stage {} (paper: {})",
            c.stage_iterations, p.stage_iterations
        ));
    }
    if c.learning_rates != p.learning_rates {
        let why = if c.learning_rates == REDUCED_LEARNING_RATES {
            ": 10× for the reduced budget, the same ×0.1 from stage to stage"
        } else {
            ""
        };
        out.push(format!(
            "stage learning rates {} (paper: {}{why})",
            rates(&c.learning_rates),
            rates(&p.learning_rates)
        ));
    }
    if c.restart != p.restart {
        out.push(format!(
            "Adam and the gradient guard {} between stages (paper: restarted)",
            if c.restart {
                "restarted"
            } else {
                "carried over"
            }
        ));
    }
    out
}

/// What the study `ours` changes from the paper's Kolmogorov set-up, one line per field.
pub fn config_deviations(ours: &StudyConfig) -> Vec<String> {
    let paper = config(Preset::Paper, 1);
    let mut out = deviations(&ours.base, &paper.base);
    if let (Some(c), Some(p)) = (&ours.base.curriculum, &paper.base.curriculum) {
        out.extend(curriculum_deviations(c, p));
    }
    if ours.base.data.warmup_steps != paper.base.data.warmup_steps {
        out.push(format!(
            "spin-up {} frames (ours for paper: {})",
            ours.base.data.warmup_steps, paper.base.data.warmup_steps
        ));
    }
    if ours.eval.start_frame != paper.eval.start_frame {
        out.push(format!(
            "tests from frame {} of one run per Re (ours for paper: {})",
            ours.eval.start_frame, paper.eval.start_frame
        ));
    }
    if ours.eval.rollout_steps != paper.eval.rollout_steps {
        out.push(format!(
            "test rollout {} steps (paper: {})",
            ours.eval.rollout_steps, paper.eval.rollout_steps
        ));
    }
    if ours.eval.tests_per_size != paper.eval.tests_per_size {
        out.push(format!(
            "{} tests per Re (paper: {})",
            ours.eval.tests_per_size, paper.eval.tests_per_size
        ));
    }
    if ours.sizes.len() != paper.sizes.len() {
        out.push(format!("{} of the 4 network sizes", ours.sizes.len()));
    }
    out
}

/// The browser's lighter data for `config` (a Kolmogorov study at the browser target): 200
/// frames per Re, still spun up to t = 50 (the spin-up is most of the 128² ground truth's cost).
/// Listed by [`config_deviations`] like every other change.
pub fn lighten_for_browser(config: &mut StudyConfig) {
    config.base.data.frames = config.base.data.frames.min(200);
}

/// Learning rates as `1e-4, 1e-5, 1e-6`.
fn rates(rates: &[f64]) -> String {
    rates
        .iter()
        .map(|lr| format!("{lr:e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_preset_is_the_scripts_set_up() {
        let config = config(Preset::Paper, 1);
        config
            .validate(&super::super::system::Kolmogorov)
            .expect("valid");
        let labels: Vec<String> = config
            .variants()
            .iter()
            .map(|v| v.variant_id().label())
            .collect();
        assert_eq!(labels.len(), 12);
        let one = &config.variants()[0];
        let wig = &config.variants()[2];
        // One epoch: 6 Re × (6000 − 5) windows; 5 epochs per stage.
        // ONE: the one-step curriculum, as many iterations as WIG.
        assert_eq!(one.iterations, 3 * 5 * 6 * 5995);
        assert_eq!(wig.iterations, 3 * 5 * 6 * 5995);
        assert_eq!(one.stage_horizons(), vec![1, 1, 1]);
        assert_eq!(wig.stage_horizons(), vec![1, 2, 4]);
        assert_eq!(wig.unroll_at(wig.iterations - 1).horizon, 4);
        assert_eq!(wig.unroll_at(5 * 6 * 5995).horizon, 2);
        // The ramp at the start of stage 2, the per-epoch decay within a stage.
        assert_eq!(wig.learning_rate_at(5 * 6 * 5995), 0.0);
        assert!((wig.learning_rate_at(6 * 5995) - 1e-4 * 0.6561).abs() < 1e-12);
        // Stage rates 1e-4, 1e-5, 1e-6; ONE's stages are not ramped; Adam restarts per stage.
        assert_eq!(one.learning_rate_at(5 * 6 * 5995), 1e-5);
        assert_eq!(one.learning_rate_at(10 * 6 * 5995), 1e-6);
        assert!(one.restarts_at(5 * 6 * 5995) && wig.restarts_at(10 * 6 * 5995));
        assert!(config.base.data.warmup_steps * 4 * 5 >= 50 * 1000);
        assert!(preset_deviations(Preset::Paper).is_empty());
        let params: Vec<usize> = config
            .sizes
            .iter()
            .map(|s| {
                NetConfig {
                    architecture: Architecture::Resnet2d,
                    channels: s.channels,
                    depth: s.depth,
                }
                .parameter_count()
            })
            .collect();
        assert_eq!(params, vec![32_376, 115_810, 461_250, 1_084_610]);
    }

    #[test]
    fn reduced_presets_list_their_deviations() {
        let quick = config(Preset::Quick, 2);
        quick
            .validate(&super::super::system::Kolmogorov)
            .expect("valid");
        let listed = preset_deviations(Preset::Quick);
        for needle in [
            "iterations per curriculum stage",
            "frames per trajectory",
            "tests per Re",
            "1 of the 4",
            "stage learning rates 1e-3, 1e-4, 1e-5 (paper: 1e-4, 1e-5, 1e-6: 10× for",
        ] {
            assert!(
                listed.iter().any(|d| d.contains(needle)),
                "{needle}: {listed:?}"
            );
        }
        // Developed states everywhere: t = 50 in every preset, in the browser too.
        for preset in Preset::ALL {
            let config = config(preset, 1);
            assert_eq!(
                config.base.data.warmup_steps, PAPER_SPINUP_FRAMES,
                "{preset}"
            );
            assert_eq!(config.eval.start_frame, PAPER_SPINUP_FRAMES, "{preset}");
        }
        let mut browser = config(Preset::Quick, 1);
        lighten_for_browser(&mut browser);
        assert_eq!(browser.base.data.warmup_steps, PAPER_SPINUP_FRAMES);
        assert!(!listed.iter().any(|d| d.contains("spin-up")), "{listed:?}");
    }
}
