//! Deviations of a training config from a reference (the paper's), field by field, so the list
//! shown to users cannot drift from the settings.

use super::config::{MinibatchOrder, TrainConfig};

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

/// A compared field of a training config: its name and how each side shows it (the paper's
/// side may show less).
struct Field {
    name: &'static str,
    ours: fn(&TrainConfig) -> String,
    theirs: fn(&TrainConfig) -> String,
}

/// A field both sides show the same way.
const fn same(name: &'static str, show: fn(&TrainConfig) -> String) -> Field {
    Field {
        name,
        ours: show,
        theirs: show,
    }
}

/// Every compared field, in the order the deviations are listed.
const FIELDS: [Field; 15] = [
    same("channels", |c| c.net.channels.to_string()),
    same("depth", |c| c.net.depth.to_string()),
    same("architecture", |c| c.net.architecture.name().to_string()),
    same("iterations", |c| c.iterations.to_string()),
    same("batch", |c| c.batch.to_string()),
    same("horizon m", |c| c.unroll.horizon.to_string()),
    same("warm-up", |c| c.unroll.warmup.to_string()),
    same("detach interval", |c| c.unroll.detach_interval.to_string()),
    same("learning rate", |c| {
        format!("{:e}", c.optimizer.learning_rate)
    }),
    same("lr decay", |c| c.optimizer.decay.to_string()),
    Field {
        name: "lr decay every",
        ours: decay_schedule,
        theirs: |c| format!("{} iterations", c.optimizer.decay_every),
    },
    same("frames per trajectory", |c| c.data.frames.to_string()),
    same("first training frame", |c| {
        format!("step {}", c.data.warmup_steps)
    }),
    same("minibatch order", |c| {
        match c.order {
            MinibatchOrder::Rounds => "seeded rounds of the sizes, with replacement",
            MinibatchOrder::OfficialEpochs => "ks_train.py's epochs",
        }
        .to_string()
    }),
    same("domain sizes", |c| format!("{:?}", c.data.scales)),
];

/// The decay interval, with the number of decays where the schedule is compressed.
fn decay_schedule(config: &TrainConfig) -> String {
    let compressed = match config.optimizer.decays {
        Some(decays) => format!(", {decays} decays over the run, whatever its iterations"),
        None => String::new(),
    };
    format!("{} iterations{compressed}", config.optimizer.decay_every)
}

/// Field-by-field differences `name: paper → this`.
pub fn deviations(config: &TrainConfig, paper: &TrainConfig) -> Vec<String> {
    FIELDS
        .iter()
        .filter_map(|field| {
            let (ours, theirs) = ((field.ours)(config), (field.theirs)(paper));
            (ours != theirs).then(|| format!("{} {ours} (study: {theirs})", field.name))
        })
        .collect()
}
