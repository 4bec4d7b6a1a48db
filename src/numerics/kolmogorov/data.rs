//! The Kolmogorov data recipe: ground truth on 128² (spectral, dt 0.005) from a seeded random
//! vorticity field spun up to developed flow, down-sampled to the coarse 32² staggered velocity
//! every 4th step (Δt = 0.02), stored f32 for training and read as f64 for tests.

use super::config::{COARSE_RESOLUTION, FINE_DT, FINE_RESOLUTION};
use super::initial::developed_state;
use super::spectral::SpectralSolver;
use super::staggered::coarse_from_fine;
use super::KolmogorovError;
use crate::numerics::types::Trajectory;

/// Fine steps per coarse frame (Δt = 0.02 = 4 × 0.005).
pub const FRAME_EVERY: usize = 4;
/// Seed offset of the training fields (trajectory `i` uses `TRAIN_SEED + i`).
pub const TRAIN_SEED: u64 = 1000;
/// Seed offset of the test fields (test size `s`, test `t`: `TEST_SEED + test_seed + 100·s + t`).
pub const TEST_SEED: u64 = 2000;

/// Coarse velocity values per frame: `2·32²`.
pub fn frame_values() -> usize {
    2 * COARSE_RESOLUTION * COARSE_RESOLUTION
}

/// `frames` coarse frames `[2·32²]` each (f64) at `reynolds`: the ground truth from the seeded
/// field `seed`, spun up for `spinup_frames` coarse frames, then one frame every 4 fine steps
/// (the first frame is the developed state).
pub fn coarse_frames(
    reynolds: f64,
    seed: u64,
    spinup_frames: usize,
    frames: usize,
) -> Result<Vec<Vec<f64>>, KolmogorovError> {
    let solver = SpectralSolver::new(FINE_RESOLUTION, reynolds, FINE_DT)?;
    let start = developed_state(
        &solver,
        seed,
        spinup_frames as f64 * FRAME_EVERY as f64 * FINE_DT,
    )?;
    let mut spectrum = solver.to_spectrum(&start)?;
    let mut out = Vec::with_capacity(frames);
    for frame in 0..frames {
        if frame > 0 {
            for _ in 0..FRAME_EVERY {
                spectrum = solver.step_spectrum(&spectrum);
            }
        }
        let vorticity = solver.to_grid(&spectrum);
        out.push(coarse_from_fine(
            &vorticity,
            FINE_RESOLUTION,
            COARSE_RESOLUTION,
        )?);
    }
    Ok(out)
}

/// Training trajectory `index` at `reynolds` (stored f32; `scale` holds Re).
pub fn training_trajectory(
    reynolds: f64,
    index: usize,
    spinup_frames: usize,
    frames: usize,
) -> Result<Trajectory, KolmogorovError> {
    let states = coarse_frames(reynolds, TRAIN_SEED + index as u64, spinup_frames, frames)?;
    Ok(Trajectory {
        scale: reynolds,
        domain_size: std::f64::consts::TAU,
        resolution: frame_values(),
        values: states.iter().flatten().map(|&v| v as f32).collect(),
    })
}

/// The ground truth of one test: `rollout_steps + 1` coarse frames (f64, rounded to f32 like
/// the training data) from its own seeded field spun up for `spinup_frames`.
pub fn test_truth(
    reynolds: f64,
    seed: u64,
    spinup_frames: usize,
    rollout_steps: usize,
) -> Result<Vec<Vec<f64>>, KolmogorovError> {
    let frames = coarse_frames(reynolds, seed, spinup_frames, rollout_steps + 1)?;
    Ok(frames
        .into_iter()
        .map(|f| f.into_iter().map(|v| v as f32 as f64).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first frame is the down-sampled developed state and the trajectory is seeded.
    #[test]
    fn trajectories_are_seeded_and_shaped() {
        let a = training_trajectory(500.0, 0, 2, 3).expect("data");
        let b = training_trajectory(500.0, 0, 2, 3).expect("data");
        let c = training_trajectory(500.0, 1, 2, 3).expect("data");
        assert_eq!(a.frames(), 3);
        assert_eq!(a.resolution, frame_values());
        assert_eq!(a, b);
        assert_ne!(a.values, c.values);
        assert!(a.values.iter().all(|v| v.is_finite()));
        // Consecutive frames differ (the flow moves) but little (Δt = 0.02).
        let (f0, f1) = (a.frame(0), a.frame(1));
        let change: f32 = f0.iter().zip(f1).map(|(x, y)| (x - y).abs()).sum();
        let size: f32 = f0.iter().map(|x| x.abs()).sum();
        assert!(change > 0.0 && change < 0.2 * size, "{change} vs {size}");
    }
}
