//! Training budgets: `paper` (the study's settings) and `quick` (small enough that all six
//! variants train natively on 2 cores in a few minutes), chosen by
//! [`crate::numerics::study::Preset`]. Deviations from `paper` are computed field by field, so
//! the list shown to users cannot drift from the settings.

use super::config::{Modality, Mode, OptimizerConfig, TrainConfig, TrainDataConfig, UnrollConfig};
use crate::numerics::nets::NetConfig;

/// Epochs of the study at its default dataset fraction (4 / 25 %).
pub const PAPER_EPOCHS: usize = 16;

/// Iterations of `epochs` passes over the windows of `data` at `batch` windows per iteration.
pub fn iterations_for_epochs(
    data: &TrainDataConfig,
    horizon: usize,
    batch: usize,
    epochs: usize,
) -> usize {
    let trajectories = data.scales.len() * 6;
    let windows = trajectories * data.frames.saturating_sub(horizon);
    (epochs * windows).div_ceil(batch.max(1))
}

/// The study's configuration.
pub fn paper(mode: Mode, modality: Modality) -> TrainConfig {
    let data = TrainDataConfig::default();
    let unroll = UnrollConfig::default();
    let batch = 16;
    TrainConfig {
        net: NetConfig::default(),
        mode,
        alpha: 0.5,
        modality,
        unroll,
        batch,
        iterations: iterations_for_epochs(&data, unroll.horizon, batch, PAPER_EPOCHS),
        optimizer: OptimizerConfig::default(),
        seed: 0,
        data,
        black_box_solver: false,
        system: crate::numerics::system::System::Ks,
        curriculum: None,
        gradient_guard: false,
    }
}

/// The quick preset: shorter training, higher learning rate with faster decay, fewer frames.
pub fn quick(mode: Mode, modality: Modality) -> TrainConfig {
    let mut config = paper(mode, modality);
    config.iterations = 600;
    config.optimizer = OptimizerConfig {
        learning_rate: 1e-3,
        decay: 0.9,
        decay_every: 100,
    };
    config.data.frames = 400;
    config
}

/// Field-by-field differences `name: paper → this`.
pub fn deviations(config: &TrainConfig, paper: &TrainConfig) -> Vec<String> {
    let mut out = Vec::new();
    let mut differs = |name: &str, ours: String, theirs: String| {
        if ours != theirs {
            out.push(format!("{name} {ours} (study: {theirs})"));
        }
    };
    differs(
        "channels",
        config.net.channels.to_string(),
        paper.net.channels.to_string(),
    );
    differs(
        "depth",
        config.net.depth.to_string(),
        paper.net.depth.to_string(),
    );
    differs(
        "architecture",
        config.net.architecture.name().to_string(),
        paper.net.architecture.name().to_string(),
    );
    differs(
        "iterations",
        config.iterations.to_string(),
        paper.iterations.to_string(),
    );
    differs("batch", config.batch.to_string(), paper.batch.to_string());
    differs(
        "horizon m",
        config.unroll.horizon.to_string(),
        paper.unroll.horizon.to_string(),
    );
    differs(
        "warm-up",
        config.unroll.warmup.to_string(),
        paper.unroll.warmup.to_string(),
    );
    differs(
        "detach interval",
        config.unroll.detach_interval.to_string(),
        paper.unroll.detach_interval.to_string(),
    );
    differs(
        "learning rate",
        format!("{:e}", config.optimizer.learning_rate),
        format!("{:e}", paper.optimizer.learning_rate),
    );
    differs(
        "lr decay",
        config.optimizer.decay.to_string(),
        paper.optimizer.decay.to_string(),
    );
    differs(
        "lr decay every",
        format!("{} iterations", config.optimizer.decay_every),
        format!("{} iterations", paper.optimizer.decay_every),
    );
    differs(
        "frames per trajectory",
        config.data.frames.to_string(),
        paper.data.frames.to_string(),
    );
    differs(
        "domain sizes",
        format!("{:?}", config.data.scales),
        format!("{:?}", paper.data.scales),
    );
    out
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
        // 16 epochs over 36 trajectories × 1247 windows at batch 16.
        assert_eq!(config.iterations, 44_892);
        assert!(deviations(&config, &paper(Mode::Correct, Modality::Nog)).is_empty());
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
