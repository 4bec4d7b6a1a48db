//! Deviations of a training config from a reference (the paper's), field by field, so the list
//! shown to users cannot drift from the settings.

use super::config::TrainConfig;

/// Iterations of `epochs` passes over every window of `trajectories` trajectories of `frames`
/// frames (`frames − horizon` windows each) at `batch` windows per iteration.
pub fn iterations_for_epochs(
    trajectories: usize,
    frames: usize,
    horizon: usize,
    batch: usize,
    epochs: usize,
) -> usize {
    let windows = trajectories * frames.saturating_sub(horizon);
    (epochs * windows).div_ceil(batch.max(1))
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
    let compressed = match config.optimizer.decays {
        Some(decays) => format!(", {decays} decays over the run, whatever its iterations"),
        None => String::new(),
    };
    differs(
        "lr decay every",
        format!("{} iterations{compressed}", config.optimizer.decay_every),
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
