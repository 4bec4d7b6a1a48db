//! The frames of a rollout kept for the maps of the results (any system).

use serde::{Deserialize, Serialize};

/// Frames of one test kept for the space–time maps: `frames[k]` is rollout step `k * every`
/// (`[frames][N]`, values rounded to 1e-3, non-finite values stored as `null`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpaceTime {
    /// Rollout steps between kept frames.
    pub every: usize,
    /// `[frames][N]`; `None` where the rollout was not finite.
    pub frames: Vec<Vec<Option<f32>>>,
}

impl SpaceTime {
    /// Keeps at most `max_frames` frames of `rollout` (`[frames][N]`), evenly strided from
    /// frame 0, values rounded to 1e-3 (non-finite → `None`).
    pub fn from_rollout(rollout: &[Vec<f64>], max_frames: usize) -> Self {
        let last = rollout.len().saturating_sub(1);
        let every = last.div_ceil(max_frames.saturating_sub(1).max(1)).max(1);
        let frames = rollout
            .iter()
            .step_by(every)
            .map(|frame| {
                frame
                    .iter()
                    .map(|&v| {
                        Some(((v * 1000.0).round() / 1000.0) as f32).filter(|r| r.is_finite())
                    })
                    .collect()
            })
            .collect();
        Self { every, frames }
    }
}
