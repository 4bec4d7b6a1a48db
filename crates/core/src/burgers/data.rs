//! The study's data: training trajectories (per ν, [`TRAIN_ICS`] seeded ICs), test truths and
//! the coarse-solver-only baseline.
//!
//! The truth is the f64 ETDRK4 solver on the fine grid, **point-sampled** onto the coarse grid
//! (every `FINE/COARSE`-th point: the true solution's values at the coarse points, without the
//! Gibbs ringing a spectral truncation puts next to the fronts), stored f32.

use super::config::{
    check_viscosity, BurgersConfig, COARSE_RESOLUTION, FINE_RESOLUTION, TRAIN_ICS, TRAIN_SEED,
    WARMUP_STEPS,
};
use super::error::BurgersError;
use super::grid::Grid;
use super::reference::ReferenceSolver;
use crate::random_modes::RandomModes;
use crate::types::{StateError, Trajectory};

/// The fine state's values at the coarse points: `[FINE] → [COARSE]`.
pub fn downsample(fine: &[f64]) -> Result<Vec<f64>, BurgersError> {
    if !fine.len().is_multiple_of(COARSE_RESOLUTION) || fine.is_empty() {
        return Err(BurgersError::NotAMultiple {
            fine: fine.len(),
            coarse: COARSE_RESOLUTION,
        });
    }
    let stride = fine.len() / COARSE_RESOLUTION;
    Ok(fine.iter().step_by(stride).copied().collect())
}

/// The truth from `ic` at viscosity `ν`: `warmup` steps dropped, then `frames` coarse frames
/// `[frames][COARSE]` (frame 0 = the state after the warm-up), f64. Stops after the last finite
/// frame (never on the study's settings).
pub fn truth_frames(
    viscosity: f64,
    ic: &RandomModes,
    warmup: usize,
    frames: usize,
) -> Result<Vec<Vec<f64>>, BurgersError> {
    let solver = ReferenceSolver::new(BurgersConfig::truth(check_viscosity(viscosity)?))?;
    let mut state = ic.at(&Grid::new(FINE_RESOLUTION)?.points());
    for _ in 0..warmup {
        state = solver.step(&state);
    }
    let mut kept = Vec::with_capacity(frames);
    for frame in 0..frames {
        if frame > 0 {
            state = solver.step(&state);
        }
        if state.iter().any(|v| !v.is_finite()) {
            break;
        }
        kept.push(downsample(&state)?);
    }
    Ok(kept)
}

/// Training IC `index` (`0..TRAIN_ICS`): draw `index` of `RandomModes::family(TRAIN_SEED, ·)`, the
/// same for every ν.
pub fn train_ic(index: usize) -> Result<RandomModes, BurgersError> {
    RandomModes::family(TRAIN_SEED, TRAIN_ICS)
        .get(index)
        .copied()
        .ok_or(StateError::NoSuch {
            what: "training initial condition",
            count: TRAIN_ICS,
            got: index,
        })
        .map_err(BurgersError::from)
}

/// Training trajectory of IC `index` at `ν`: `warmup` steps dropped, `frames` kept, f32.
pub fn training_trajectory(
    viscosity: f64,
    index: usize,
    warmup: usize,
    frames: usize,
) -> Result<Trajectory, BurgersError> {
    let states = truth_frames(viscosity, &train_ic(index)?, warmup, frames)?;
    Ok(Trajectory {
        scale: viscosity,
        domain_size: std::f64::consts::TAU,
        resolution: COARSE_RESOLUTION,
        values: states.iter().flatten().map(|&v| v as f32).collect(),
    })
}

/// The ground truth of one test: IC `test` of `RandomModes::family(seed, test + 1)`, spun up for
/// [`WARMUP_STEPS`] + `start_frame` steps, then `rollout_steps + 1` frames `[·][COARSE]`,
/// rounded to f32 like the training data.
pub fn test_truth(
    viscosity: f64,
    seed: u64,
    test: usize,
    start_frame: usize,
    rollout_steps: usize,
) -> Result<Vec<Vec<f64>>, BurgersError> {
    let ic = RandomModes::family(seed, test + 1)[test];
    let frames = truth_frames(
        viscosity,
        &ic,
        WARMUP_STEPS + start_frame,
        rollout_steps + 1,
    )?;
    Ok(frames
        .into_iter()
        .map(|f| f.into_iter().map(|v| v as f32 as f64).collect())
        .collect())
}

/// The coarse solver alone (f64 ETD1, one step of Δt) from each truth's frame 0, `steps` steps:
/// `[tests][steps + 1][COARSE]`; a blown-up tail is kept as NaN frames.
pub fn baseline_rollout(
    truth: &[Vec<Vec<f64>>],
    viscosity: f64,
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, BurgersError> {
    let solver = ReferenceSolver::new(BurgersConfig::coarse(check_viscosity(viscosity)?))?;
    truth
        .iter()
        .map(|t| {
            let start = t.first().map_or(&[][..], Vec::as_slice);
            if start.len() != COARSE_RESOLUTION {
                return Err(StateError::WrongLength {
                    expected: COARSE_RESOLUTION,
                    got: start.len(),
                }
                .into());
            }
            let (mut frames, diverged) = solver.trajectory(start, steps);
            if diverged.is_some() {
                frames.resize(steps + 1, vec![f64::NAN; COARSE_RESOLUTION]);
            }
            Ok(frames)
        })
        .collect()
}
