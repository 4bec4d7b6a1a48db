//! The Kolmogorov data recipe: ground truth on 128² (spectral, dt 0.005) from a seeded random
//! vorticity field spun up to developed flow, down-sampled to the coarse 32² staggered velocity
//! every 4th step (Δt = 0.02), stored f32 for training and read as f64 for tests.
//!
//! Each training trajectory is its own run (seed per Re). The tests of one Re are windows of one
//! long run, as in the paper (its test starts lie at t ≈ 54–201 of one run per Re): test `t`
//! starts at coarse frame `start + t·`[`TEST_SPACING_FRAMES`](super::run::TEST_SPACING_FRAMES). The latest states of the runs are
//! kept ([`LONG_RUNS`] checkpoints), so the tests of one Re, made in order, cost one run.

use std::sync::Mutex;

use num_complex::Complex64;

use super::config::{FINE_DT, FINE_RESOLUTION};
use super::initial::{random_vorticity, DEFAULT_MAX_WAVENUMBER, DEFAULT_RMS};
use super::run::{frame_values, test_start, training_seed, Run, Sampling, FRAME_EVERY};
use super::shipped_frames::{self, Window};
use super::spectral::SpectralSolver;
use super::spun_up;
use super::KolmogorovError;
use crate::types::Trajectory;

/// Checkpoints of long runs kept (each a 128² spectrum, 256 KiB).
pub const LONG_RUNS: usize = 16;

/// A run's state: the spectrum of the seeded field after `frame` coarse frames.
struct Checkpoint {
    run: Run,
    frame: usize,
    spectrum: Vec<Complex64>,
}

/// The latest checkpoints, newest last.
static CHECKPOINTS: Mutex<Vec<Checkpoint>> = Mutex::new(Vec::new());

/// The latest kept checkpoint of `run` at or before `frame`.
fn kept_at_most(run: &Run, frame: usize) -> Option<(usize, Vec<Complex64>)> {
    let checkpoints = CHECKPOINTS.lock().unwrap_or_else(|e| e.into_inner());
    checkpoints
        .iter()
        .filter(|c| c.run == *run && c.frame <= frame)
        .max_by_key(|c| c.frame)
        .map(|c| (c.frame, c.spectrum.clone()))
}

/// The spectrum of run `seed` on `solver` at coarse frame `frame`: stepped from the latest kept
/// checkpoint or shipped state ([`super::spun_up`]) at or before it, else from the seeded
/// random field ([`DEFAULT_MAX_WAVENUMBER`], [`DEFAULT_RMS`]). Spectra are stepped without a
/// round trip through the grid, so the result is the same whichever state it starts from.
fn spectrum_at(
    solver: &SpectralSolver,
    seed: u64,
    frame: usize,
) -> Result<Vec<Complex64>, KolmogorovError> {
    let run = Run::of(solver, seed);
    let kept = kept_at_most(&run, frame);
    let shipped = spun_up::shipped_at_most(&run, frame);
    let latest = match (kept, shipped) {
        (Some(k), Some(s)) => Some(if s.0 > k.0 { s } else { k }),
        (k, s) => k.or(s),
    };
    let (at, spectrum) = match latest {
        Some(latest) => latest,
        None => (0, initial_spectrum(solver, seed)?),
    };
    Ok(step_frames(solver, spectrum, frame - at))
}

/// The spectrum of the seeded random field of run `seed` on `solver` (frame 0).
fn initial_spectrum(solver: &SpectralSolver, seed: u64) -> Result<Vec<Complex64>, KolmogorovError> {
    let field = random_vorticity(
        solver.resolution(),
        seed,
        DEFAULT_MAX_WAVENUMBER,
        DEFAULT_RMS,
    )?;
    solver.to_spectrum(&field)
}

/// `spectrum` stepped `frames` coarse frames ([`FRAME_EVERY`] fine steps each).
fn step_frames(
    solver: &SpectralSolver,
    mut spectrum: Vec<Complex64>,
    frames: usize,
) -> Vec<Complex64> {
    for _ in 0..frames * FRAME_EVERY {
        spectrum = solver.step_spectrum(&spectrum);
    }
    spectrum
}

/// The spectrum of `run` at coarse frame `frame`, stepped from its seeded field alone (no kept
/// or shipped state): how the shipped states are made and checked.
pub fn spectrum_from_scratch(run: &Run, frame: usize) -> Result<Vec<Complex64>, KolmogorovError> {
    let solver = run.solver()?;
    let start = initial_spectrum(&solver, run.seed)?;
    Ok(step_frames(&solver, start, frame))
}

/// `spectrum`, a state of `run`, stepped `frames` coarse frames further.
pub fn spectrum_stepped(
    run: &Run,
    spectrum: Vec<Complex64>,
    frames: usize,
) -> Result<Vec<Complex64>, KolmogorovError> {
    Ok(step_frames(&run.solver()?, spectrum, frames))
}

/// Forgets the kept checkpoints of `run` (tests: the next data start from a shipped state or
/// the seeded field).
#[cfg(test)]
pub(super) fn forget_kept(run: &Run) {
    let mut checkpoints = CHECKPOINTS.lock().unwrap_or_else(|e| e.into_inner());
    checkpoints.retain(|c| c.run != *run);
}

/// Keeps `spectrum` as the state of `run` at `frame` (the oldest checkpoint goes beyond
/// [`LONG_RUNS`]).
fn keep(run: Run, frame: usize, spectrum: &[Complex64]) {
    let mut checkpoints = CHECKPOINTS.lock().unwrap_or_else(|e| e.into_inner());
    checkpoints.retain(|c| !(c.run == run && c.frame == frame));
    checkpoints.push(Checkpoint {
        run,
        frame,
        spectrum: spectrum.to_vec(),
    });
    let excess = checkpoints.len().saturating_sub(LONG_RUNS);
    checkpoints.drain(..excess);
}

/// `frames` coarse frames `[2·32²]` each (f64, down-sampled by `sampling`) of the run at
/// `reynolds` from the seeded field `seed`, from coarse frame `start` on (one frame every 4 fine
/// steps; `start` spins it up). The run's states at `start` and at its last frame are kept as
/// checkpoints.
pub fn coarse_frames(
    reynolds: f64,
    seed: u64,
    start: usize,
    frames: usize,
    sampling: Sampling,
) -> Result<Vec<Vec<f64>>, KolmogorovError> {
    let solver = SpectralSolver::new(FINE_RESOLUTION, reynolds, FINE_DT)?;
    let mut spectrum = spectrum_at(&solver, seed, start)?;
    let run = Run::of(&solver, seed);
    keep(run, start, &spectrum);
    let mut out = Vec::with_capacity(frames);
    for frame in 0..frames {
        if frame > 0 {
            for _ in 0..FRAME_EVERY {
                spectrum = solver.step_spectrum(&spectrum);
            }
        }
        let vorticity = solver.to_grid(&spectrum);
        out.push(sampling.coarse(&vorticity)?);
    }
    if frames > 1 {
        keep(run, start + frames - 1, &spectrum);
    }
    Ok(out)
}

/// The f32 values `[frames · 2·32²]` of `window`, computed ([`coarse_frames`], rounded to
/// f32 as the data store them) without reading shipped frames: how those are made and checked.
pub fn computed_frames(window: &Window) -> Result<Vec<f32>, KolmogorovError> {
    let Window {
        run,
        sampling,
        start,
        frames,
    } = *window;
    let states = coarse_frames(run.reynolds, run.seed, start, frames, sampling)?;
    Ok(states.iter().flatten().map(|&v| v as f32).collect())
}

/// The f32 values `[frames · 2·32²]` of `window`: the shipped frames where they cover it
/// ([`shipped_frames`]), else computed.
fn frames_of(window: &Window) -> Result<Vec<f32>, KolmogorovError> {
    match shipped_frames::installed(window) {
        Some(values) => Ok(values),
        None => computed_frames(window),
    }
}

/// Training trajectory `index` at `reynolds` (stored f32; `scale` holds Re): its own run, from
/// coarse frame `spinup_frames` on.
pub fn training_trajectory(
    reynolds: f64,
    index: usize,
    spinup_frames: usize,
    frames: usize,
    sampling: Sampling,
) -> Result<Trajectory, KolmogorovError> {
    let window = Window {
        run: Run::study(reynolds, training_seed(reynolds, index))?,
        sampling,
        start: spinup_frames,
        frames,
    };
    Ok(Trajectory {
        scale: reynolds,
        domain_size: std::f64::consts::TAU,
        resolution: frame_values(),
        values: frames_of(&window)?,
    })
}

/// The ground truth of test `test` of the long run `seed` at `reynolds`: `rollout_steps + 1`
/// coarse frames (f64, rounded to f32 like the training data) from [`test_start`].
pub fn test_truth(
    reynolds: f64,
    seed: u64,
    start: usize,
    test: usize,
    rollout_steps: usize,
    sampling: Sampling,
) -> Result<Vec<Vec<f64>>, KolmogorovError> {
    let window = Window {
        run: Run::study(reynolds, seed)?,
        sampling,
        start: test_start(start, test),
        frames: rollout_steps + 1,
    };
    Ok(frames_of(&window)?
        .chunks_exact(frame_values())
        .map(|frame| frame.iter().map(|&v| f64::from(v)).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::run::{TEST_SPACING_FRAMES, TRAIN_SEED};

    /// The first frame is the down-sampled developed state and the trajectory is seeded.
    #[test]
    fn trajectories_are_seeded_and_shaped() {
        let a = training_trajectory(500.0, 0, 2, 3, Sampling::FaceAverage).expect("data");
        let b = training_trajectory(500.0, 0, 2, 3, Sampling::FaceAverage).expect("data");
        // Re 500 is the study's third training run wherever a study puts it; Re 550 is not one
        // of the study's, so its place in its study seeds it.
        let c = training_trajectory(550.0, 0, 2, 3, Sampling::FaceAverage).expect("data");
        let d = training_trajectory(550.0, 1, 2, 3, Sampling::FaceAverage).expect("data");
        assert_eq!(training_seed(500.0, 0), training_seed(500.0, 4));
        assert_eq!(training_seed(500.0, 0), TRAIN_SEED + 2);
        assert_eq!(training_seed(550.0, 1), TRAIN_SEED + 1);
        assert_eq!(a.frames(), 3);
        assert_eq!(a.resolution, frame_values());
        assert_eq!(a, b);
        assert_ne!(c.values, d.values);
        assert!(a.values.iter().all(|v| v.is_finite()));
        // Consecutive frames differ (the flow moves) but little (Δt = 0.02).
        let (f0, f1) = (a.frame(0), a.frame(1));
        let change: f32 = f0.iter().zip(f1).map(|(x, y)| (x - y).abs()).sum();
        let size: f32 = f0.iter().map(|x| x.abs()).sum();
        assert!(change > 0.0 && change < 0.2 * size, "{change} vs {size}");
    }

    /// The tests of one Re are windows of one run: a test made from a checkpoint equals the
    /// same window made from the start, and later tests start later in the same run.
    #[test]
    fn tests_are_windows_of_one_long_run() {
        let (reynolds, seed) = (600.0, 77_777);
        let from_scratch = coarse_frames(reynolds, seed, 0, 7, Sampling::FaceAverage).expect("run");
        // Checkpoints now exist at frames 0 and 6: frame 3 starts from frame 0's.
        let window = coarse_frames(reynolds, seed, 3, 4, Sampling::FaceAverage).expect("window");
        assert_eq!(window[..], from_scratch[3..]);
        let late = coarse_frames(reynolds, seed, 6, 2, Sampling::FaceAverage).expect("late");
        assert_eq!(late[0], from_scratch[6]);
        assert_eq!(test_start(3, 2), 3 + 2 * TEST_SPACING_FRAMES);
    }

    /// The official point sampling gives the same run, slightly different values.
    #[test]
    fn point_sampling_is_the_same_run_resampled() {
        let averaged = training_trajectory(700.0, 2, 2, 2, Sampling::FaceAverage).expect("data");
        let sampled = training_trajectory(700.0, 2, 2, 2, Sampling::PointSampled).expect("data");
        let (a, b) = (averaged.frame(1), sampled.frame(1));
        let difference: f32 = a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum();
        let size: f32 = a.iter().map(|x| x * x).sum();
        let relative = (difference / size).sqrt();
        assert!(
            relative > 1e-6 && relative < 0.1,
            "relative difference {relative}"
        );
    }
}
