//! Evaluation on the study's test set: four test sizes × seeded tests, rollouts from frame 200
//! of each kept series, and the per-test metrics of [`crate::numerics::metrics`].

use burn::tensor::{Tensor, TensorData};
use serde::{Deserialize, Serialize};

use crate::numerics::ks::config::BASE_DOMAIN_SIZE;
use crate::numerics::ks::data::{self, DataConfig, TESTS_PER_SIZE, TEST_SCALES};
use crate::numerics::ks::{KsConfig, ReferenceSolver, Scheme};
use crate::numerics::metrics::{
    correlation_time, divergence_time, l2_error, relative_error, stability, Stability,
    ERROR_HORIZON, STABILITY_HORIZON,
};
use crate::numerics::nets::Net;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::{Mode, TrainError};

/// Which tests and how long the rollouts are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalConfig {
    /// Test domain scales (the study: 0.85, 0.93, 1.15, 1.40).
    pub scales: Vec<f64>,
    /// Tests per size (the study: 10).
    pub tests_per_size: usize,
    /// Seed of the test-IC family.
    pub test_seed: u64,
    /// First evaluated frame of each kept series (the study: 200).
    pub start_frame: usize,
    /// Horizon H of the relative error (the study: 12).
    pub error_horizon: usize,
    /// Rollout length for correlation time and stability (the study: 750).
    pub rollout_steps: usize,
}

impl Default for EvalConfig {
    fn default() -> Self {
        Self {
            scales: TEST_SCALES.to_vec(),
            tests_per_size: TESTS_PER_SIZE,
            test_seed: 0,
            start_frame: 200,
            error_horizon: ERROR_HORIZON,
            rollout_steps: STABILITY_HORIZON,
        }
    }
}

/// The ground truth of one test size: `truth[test][t]` for `t = 0..=rollout_steps` (f64).
#[derive(Debug, Clone)]
pub struct TestSize {
    /// Scale `s`.
    pub scale: f64,
    /// `[tests][rollout_steps + 1][N]`, frame 0 = the evaluation start.
    pub truth: Vec<Vec<Vec<f64>>>,
}

/// Generates the test set of `config` with the ground-truth solver (f64, stored f32 like the
/// training data, read back as f64).
pub fn test_set(config: &EvalConfig, resolution: usize) -> Result<Vec<TestSize>, TrainError> {
    let recipe = DataConfig {
        solver: KsConfig {
            resolution,
            ..KsConfig::default()
        },
        kept_frames: config.start_frame + config.rollout_steps + 1,
        ..DataConfig::default()
    };
    let mut sizes = Vec::with_capacity(config.scales.len());
    for (i, &scale) in config.scales.iter().enumerate() {
        let trajectories = data::test_trajectories(
            &recipe,
            scale,
            config.test_seed.wrapping_add(i as u64),
            config.tests_per_size,
        )?;
        let truth = trajectories
            .iter()
            .map(|t| {
                (config.start_frame..t.frames())
                    .map(|f| t.frame(f).iter().map(|&v| v as f64).collect())
                    .collect()
            })
            .collect();
        sizes.push(TestSize { scale, truth });
    }
    Ok(sizes)
}

/// The metrics of one test rollout.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TestMetrics {
    /// Relative error over H steps.
    pub relative_error: f64,
    /// L2 error over H steps.
    pub l2: f64,
    /// Correlation time (steps).
    pub correlation_time: usize,
    /// Divergence time (steps; the rollout length when stable).
    pub divergence_time: usize,
    /// The stability class.
    pub stability: Stability,
}

/// The ETRK2 physics residuals `e_t = Σ_x (ũ_{t+1} − S(ũ_t))²` of a rollout at `scale`.
pub fn physics_residuals(rollout: &[Vec<f64>], scale: f64) -> Result<Vec<f64>, TrainError> {
    let resolution = rollout.first().map_or(0, Vec::len);
    let solver = ReferenceSolver::new(KsConfig {
        resolution,
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..KsConfig::default()
    })?;
    Ok(rollout
        .windows(2)
        .map(|w| {
            if w[0].iter().any(|v| !v.is_finite()) {
                return f64::INFINITY;
            }
            let next = solver.step(&w[0]);
            next.iter().zip(&w[1]).map(|(a, b)| (a - b) * (a - b)).sum()
        })
        .collect())
}

/// Metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth`.
pub fn test_metrics(
    truth: &[Vec<f64>],
    rollout: &[Vec<f64>],
    scale: f64,
    error_horizon: usize,
) -> Result<TestMetrics, TrainError> {
    let residuals = physics_residuals(rollout, scale)?;
    Ok(TestMetrics {
        relative_error: relative_error(truth, rollout, error_horizon),
        l2: l2_error(truth, rollout, error_horizon),
        correlation_time: correlation_time(truth, rollout),
        divergence_time: divergence_time(&residuals).unwrap_or(residuals.len()),
        stability: stability(rollout, &residuals),
    })
}

/// Rolls the hybrid model out from each test's frame 0 for `steps` steps on the stepper's
/// device: `[tests][steps + 1][N]`. One readback at the end (async).
pub async fn rollout(
    net: &Net,
    stepper: &Stepper,
    size: usize,
    truth: &[Vec<Vec<f64>>],
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
    let tests = truth.len();
    let n = truth.first().and_then(|t| t.first()).map_or(0, Vec::len);
    let start: Vec<f32> = truth
        .iter()
        .flat_map(|t| t[0].iter().map(|&v| v as f32))
        .collect();
    let device = stepper.device();
    let mut u = Tensor::<2>::from_data(TensorData::new(start, [tests, n]), &device);
    let scale = stepper.scale_channel(size, tests);
    let mut states = Vec::with_capacity(steps + 1);
    states.push(u.clone());
    for _ in 0..steps {
        u = stepper.step(net, size, u, scale.clone())?;
        states.push(u.clone());
    }
    // [steps + 1, tests, N] → per test.
    let values = Tensor::stack::<3>(states, 0)
        .into_data_async()
        .await
        .map_err(|err| TrainError::Readback(format!("{err:?}")))?
        .convert::<f32>()
        .try_into_vec::<f32>()
        .map_err(|err| TrainError::Readback(format!("{err:?}")))?;
    Ok((0..tests)
        .map(|test| {
            (0..=steps)
                .map(|t| {
                    let offset = (t * tests + test) * n;
                    values[offset..offset + n]
                        .iter()
                        .map(|&v| v as f64)
                        .collect()
                })
                .collect()
        })
        .collect())
}

/// The coarse-solver-only baseline: ETD1 (two sub-steps, no network), in f64.
pub fn baseline_rollout(
    truth: &[Vec<Vec<f64>>],
    scale: f64,
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
    let resolution = truth.first().and_then(|t| t.first()).map_or(0, Vec::len);
    let solver = ReferenceSolver::new(KsConfig {
        scheme: Scheme::Etd1,
        resolution,
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..KsConfig::default()
    })?;
    Ok(truth
        .iter()
        .map(|t| {
            let (mut frames, diverged) = solver.trajectory(&t[0], steps);
            if diverged.is_some() {
                // Keep the length: the blown-up tail counts as non-finite frames.
                frames.resize(steps + 1, vec![f64::NAN; resolution]);
            }
            frames
        })
        .collect())
}

/// The mode a stepper for evaluation needs (transition α included).
pub fn evaluation_stepper(
    mode: Mode,
    alpha: f64,
    config: &EvalConfig,
    resolution: usize,
    device: &burn::tensor::Device,
) -> Result<Stepper, TrainError> {
    Stepper::new(mode, alpha, &config.scales, resolution, device, false)
}
