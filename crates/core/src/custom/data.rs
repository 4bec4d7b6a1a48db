//! A reader's equation's data: training trajectories (per value of its varied parameter,
//! `states` seeded band-limited states), test truths and the coarse-solver-only baseline, and
//! the metrics of a test rollout.
//!
//! The truth is [`Solver::truth`] on `N·fine` points, **point-sampled** onto the `N` of the
//! state (every `fine`-th point), stored f32; the metrics' physics residuals use
//! [`Solver::physics`] (the truth's integrator on `N` points).

use super::error::CustomError;
use super::initial::{RandomModes, TEST_SEED, TRAIN_SEED};
use super::solver::Solver;
use crate::types::test_metrics::physics_residuals;
use crate::types::{Equation, StateError, TestMetrics, Trajectory};

/// The truth of `equation` (at one parameter value) from `state`: `warmup` steps dropped, then
/// `frames` frames `[frames][N]` (frame 0 = the state after the warm-up), f64; stops before the
/// first state that blows up.
pub fn truth_frames(
    equation: &Equation,
    state: &RandomModes,
    warmup: usize,
    frames: usize,
) -> Vec<Vec<f64>> {
    let solver = Solver::truth(equation);
    let stride = equation.fine.max(1);
    let u0 = state.state(equation.fine_points());
    let (states, _) = solver.trajectory(&u0, warmup + frames.saturating_sub(1));
    states
        .iter()
        .skip(warmup)
        .map(|fine| fine.iter().step_by(stride).copied().collect())
        .collect()
}

/// Training trajectory of state `index` at `value` of the varied parameter, f32.
pub fn training_trajectory(
    equation: &Equation,
    value: f64,
    index: usize,
    warmup: usize,
    frames: usize,
) -> Result<Trajectory, CustomError> {
    if index >= equation.states {
        return Err(StateError::NoSuch {
            what: "training initial state",
            count: equation.states,
            got: index,
        }
        .into());
    }
    let at = equation.at(value);
    let states = truth_frames(&at, &RandomModes::nth(TRAIN_SEED, index), warmup, frames);
    complete(&at, &states, warmup, frames, index)?;
    Ok(Trajectory {
        scale: value,
        domain_size: at.length,
        resolution: at.points,
        values: states.iter().flatten().map(|&v| v as f32).collect(),
    })
}

/// The truth of one test: state `test` of the family of `TEST_SEED + seed`, spun up for the
/// warm-up + `start_frame` steps, then `rollout_steps + 1` frames `[·][N]`, rounded to f32 like
/// the training data.
pub fn test_truth(
    equation: &Equation,
    value: f64,
    seed: u64,
    test: usize,
    start_frame: usize,
    rollout_steps: usize,
) -> Result<Vec<Vec<f64>>, CustomError> {
    let at = equation.at(value);
    let state = RandomModes::nth(TEST_SEED.wrapping_add(seed), test);
    let warmup = at.warmup + start_frame;
    let frames = truth_frames(&at, &state, warmup, rollout_steps + 1);
    complete(&at, &frames, warmup, rollout_steps + 1, test)?;
    Ok(frames
        .into_iter()
        .map(|f| f.into_iter().map(|v| v as f32 as f64).collect())
        .collect())
}

/// Refuses a truth that blew up before its `frames` frames (the checks try one state; another
/// may still blow up): the error says which state and where.
fn complete(
    equation: &Equation,
    states: &[Vec<f64>],
    warmup: usize,
    frames: usize,
    state: usize,
) -> Result<(), CustomError> {
    if states.len() >= frames {
        return Ok(());
    }
    Err(CustomError::BlowsUp {
        solver: format!(
            "truth ({}, {} points)",
            equation.scheme,
            equation.fine_points()
        ),
        step: warmup + states.len() + 1,
        steps: warmup + frames,
        state,
        at: format!(" at {} = {}", equation.vary, equation.get(equation.vary)),
        advice: "this state leaves the bounded ones the checks tried: take smaller values of \
                 the varied parameter, or more sub-steps",
    })
}

/// The coarse solver alone (f64 ETD1) from each truth's frame 0, `steps` steps:
/// `[tests][steps + 1][N]`; a blown-up tail is kept as NaN frames.
pub fn baseline_rollout(
    equation: &Equation,
    truth: &[Vec<Vec<f64>>],
    value: f64,
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, CustomError> {
    let solver = Solver::coarse(&equation.at(value));
    let n = equation.points;
    truth
        .iter()
        .map(|t| {
            let start = t.first().map_or(&[][..], Vec::as_slice);
            if start.len() != n {
                return Err(StateError::WrongLength {
                    expected: n,
                    got: start.len(),
                }
                .into());
            }
            let (mut frames, stopped) = solver.trajectory(start, steps);
            if stopped.is_some() {
                frames.resize(steps + 1, vec![f64::NAN; n]);
            }
            Ok(frames)
        })
        .collect()
}

/// The metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth` at
/// `value`, with the residuals `e_t = Σ_x (ũ_{t+1} − S(ũ_t))²` of [`Solver::physics`].
pub fn test_metrics(
    equation: &Equation,
    truth: &[Vec<f64>],
    rollout: &[Vec<f64>],
    value: f64,
    error_horizon: usize,
) -> TestMetrics {
    let solver = Solver::physics(&equation.at(value));
    let residuals = physics_residuals(rollout, |u| solver.step(u));
    TestMetrics::of_rollout(truth, rollout, &residuals, error_horizon)
}

/// Counted FLOPs of the truth's learned step (ETDRK4: ≈ 9 FFTs per sub-step and each extra
/// nonlinear term 2 more; ETRK2 ≈ 5, ETD1 ≈ 3; ≈ 60·n pointwise operations).
pub fn step_flops(equation: &Equation) -> f64 {
    let n = equation.fine_points();
    let ffts = match equation.scheme {
        crate::types::Integrator::Etd1 => 3.0,
        crate::types::Integrator::Etrk2 => 5.0,
        crate::types::Integrator::Etdrk4 => 9.0,
    };
    let substep = ffts * crate::fft_count::complex_fft_flops(n) + 60.0 * n as f64;
    equation.substeps as f64 * substep
}
