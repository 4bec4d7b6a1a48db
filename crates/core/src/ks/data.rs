//! The study's data: training set (6 sizes × 6 ICs), test sets (4 sizes × seeded ICs), windows.
//!
//! Trajectories are computed with the f64 [`ReferenceSolver`] (ETRK2, h = 0.5, double step) and
//! stored as f32, warm-up frames dropped.

use super::config::{KsConfig, BASE_DOMAIN_SIZE};
use super::error::KsError;
use super::initial::{train_ic, TestIc, TRAIN_IC_PARAMETERS};
use super::reference::ReferenceSolver;
use crate::train::config::TrainDataConfig;
pub use crate::types::Trajectory;

/// Training scales `s` (L = 8·s).
pub const TRAIN_SCALES: [f64; 6] = [0.9, 0.95, 1.0, 1.1, 1.2, 1.3];
/// Test scales: extrapolation {0.85, 1.40}, interpolation {0.93, 1.15}.
pub const TEST_SCALES: [f64; 4] = [0.85, 0.93, 1.15, 1.40];
/// Warm-up learned steps dropped from every trajectory.
pub const WARMUP_STEPS: usize = 200;
/// Steps dropped before the first kept training frame: the official data drop the initial
/// state and 200 warm-up steps (`u_traj[:, WARMUP+1:]`), so training starts at step 201 (the
/// test series keep step 200, [`WARMUP_STEPS`]).
pub const TRAIN_WARMUP_STEPS: usize = 201;
/// Frames kept per trajectory in the study.
pub const KEPT_FRAMES: usize = 5000;
/// Test trajectories per test size in the study.
pub const TESTS_PER_SIZE: usize = 10;

/// How to generate a set of trajectories.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataConfig {
    /// Ground-truth solver settings; `domain_size` is replaced by 8·s per trajectory.
    pub solver: KsConfig,
    /// Learned steps simulated and dropped before the first kept frame.
    pub warmup_steps: usize,
    /// Frames kept per trajectory (the first kept frame is the state after the warm-up).
    pub kept_frames: usize,
}

impl Default for DataConfig {
    /// The study: ETRK2, N = 48, h = 0.5 × 2, 200 warm-up steps, 5000 frames kept.
    fn default() -> Self {
        Self {
            solver: KsConfig::default(),
            warmup_steps: WARMUP_STEPS,
            kept_frames: KEPT_FRAMES,
        }
    }
}

/// Simulates `u0` at scale `scale`, drops the warm-up, stores f32. A divergent trajectory keeps
/// its finite frames only (never happens for ETRK2 on the study's settings).
pub fn trajectory(config: &DataConfig, scale: f64, u0: &[f64]) -> Result<Trajectory, KsError> {
    let solver_config = KsConfig {
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..config.solver
    };
    let solver = ReferenceSolver::new(solver_config)?;
    let n = solver_config.resolution;
    let mut state = u0.to_vec();
    for _ in 0..config.warmup_steps {
        state = solver.step(&state);
    }
    let mut values = Vec::with_capacity(config.kept_frames * n);
    for frame in 0..config.kept_frames {
        if frame > 0 {
            state = solver.step(&state);
        }
        if state.iter().any(|v| !v.is_finite()) {
            break;
        }
        values.extend(state.iter().map(|&v| v as f32));
    }
    Ok(Trajectory {
        scale,
        domain_size: solver_config.domain_size,
        resolution: n,
        values,
    })
}

/// The training set: for each of [`TRAIN_SCALES`] the six training ICs, in that order (36).
pub fn training_set(config: &DataConfig) -> Result<Vec<Trajectory>, KsError> {
    let mut set = Vec::with_capacity(TRAIN_SCALES.len() * TRAIN_IC_PARAMETERS.len());
    for &scale in &TRAIN_SCALES {
        let grid = KsConfig {
            domain_size: BASE_DOMAIN_SIZE * scale,
            ..config.solver
        }
        .validate()?;
        for index in 0..TRAIN_IC_PARAMETERS.len() {
            set.push(trajectory(config, scale, &train_ic(&grid, index)?)?);
        }
    }
    Ok(set)
}

/// `count` test trajectories at scale `scale` from [`TestIc::family`]`(seed, count)`.
pub fn test_trajectories(
    config: &DataConfig,
    scale: f64,
    seed: u64,
    count: usize,
) -> Result<Vec<Trajectory>, KsError> {
    let grid = KsConfig {
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..config.solver
    }
    .validate()?;
    TestIc::family(seed, count)
        .into_iter()
        .map(|ic| trajectory(config, scale, &ic.state(&grid)))
        .collect()
}

/// The test set: for each of [`TEST_SCALES`] (index `i`), `tests_per_size` ICs drawn from
/// [`TestIc::family`]`(seed + i, tests_per_size)`; size-major order.
pub fn test_set(
    config: &DataConfig,
    seed: u64,
    tests_per_size: usize,
) -> Result<Vec<Trajectory>, KsError> {
    let mut set = Vec::with_capacity(TEST_SCALES.len() * tests_per_size);
    for (i, &scale) in TEST_SCALES.iter().enumerate() {
        set.extend(test_trajectories(
            config,
            scale,
            seed.wrapping_add(i as u64),
            tests_per_size,
        )?);
    }
    Ok(set)
}

/// The ground-truth solver configuration training data is generated with (ETRK2, the study's
/// grid), at resolution `resolution`.
pub fn data_solver(resolution: usize) -> KsConfig {
    KsConfig {
        resolution,
        ..KsConfig::default()
    }
}

/// Generates the training trajectories of `config` (f64 reference, stored f32), size-major:
/// for each scale the six training ICs.
pub fn generate(config: &TrainDataConfig, solver: KsConfig) -> Result<Vec<Trajectory>, KsError> {
    let recipe = DataConfig {
        solver,
        warmup_steps: config.warmup_steps,
        kept_frames: config.frames,
    };
    let mut set = Vec::with_capacity(config.scales.len() * TRAIN_IC_PARAMETERS.len());
    for &scale in &config.scales {
        let grid = KsConfig {
            domain_size: super::config::BASE_DOMAIN_SIZE * scale,
            ..solver
        }
        .validate()?;
        for index in 0..TRAIN_IC_PARAMETERS.len() {
            set.push(trajectory(&recipe, scale, &train_ic(&grid, index)?)?);
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::config::Scheme;

    fn small() -> DataConfig {
        DataConfig {
            warmup_steps: 5,
            kept_frames: 12,
            ..DataConfig::default()
        }
    }

    #[test]
    fn training_set_has_36_trajectories_after_warmup() {
        let config = small();
        let set = training_set(&config).expect("set");
        assert_eq!(set.len(), 36);
        assert_eq!(set[0].scale, 0.9);
        assert_eq!(set[35].scale, 1.3);
        assert!((set[6].domain_size - 8.0 * 0.95).abs() < 1e-12);
        for t in &set {
            assert_eq!(t.frames(), 12);
            assert!(t.values.iter().all(|v| v.is_finite()));
        }
        // Frame 0 is the state after the warm-up, computed in f64.
        let solver = ReferenceSolver::new(KsConfig::paper(Scheme::Etrk2, 0.9)).expect("solver");
        let grid = KsConfig::paper(Scheme::Etrk2, 0.9).grid();
        let (states, _) = solver.trajectory(&train_ic(&grid, 0).expect("ic"), 6);
        for (got, want) in set[0].frame(0).iter().zip(&states[5]) {
            assert_eq!(*got, *want as f32);
        }
        for (got, want) in set[0].frame(1).iter().zip(&states[6]) {
            assert_eq!(*got, *want as f32);
        }
    }

    #[test]
    fn test_set_is_seeded_and_size_major() {
        let config = small();
        let set = test_set(&config, 42, 2).expect("set");
        assert_eq!(set.len(), 8);
        let scales: Vec<f64> = set.iter().map(|t| t.scale).collect();
        assert_eq!(scales, vec![0.85, 0.85, 0.93, 0.93, 1.15, 1.15, 1.40, 1.40]);
        assert_eq!(set, test_set(&config, 42, 2).expect("set"));
        assert_ne!(set, test_set(&config, 43, 2).expect("set"));
    }

    #[test]
    fn windows_pair_frame_i_with_the_next_m() {
        let t = Trajectory {
            scale: 1.0,
            domain_size: 8.0,
            resolution: 2,
            values: (0..10).map(|v| v as f32).collect(),
        };
        assert_eq!(t.frames(), 5);
        assert_eq!(t.window_count(3), 2);
        let (input, targets) = t.window(1, 3).expect("window");
        assert_eq!(input, &[2.0, 3.0]);
        assert_eq!(targets, &[4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        assert!(t.window(2, 3).is_none());
    }
}
