//! Evaluation on the study's test set: four test sizes × seeded tests, rollouts from frame 200
//! of each kept series, and the per-test metrics of [`crate::numerics::metrics`].

use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use crate::numerics::ks::config::BASE_DOMAIN_SIZE;
use crate::numerics::ks::data::{self, DataConfig, TESTS_PER_SIZE, TEST_SCALES};
use crate::numerics::ks::initial::TestIc;
use crate::numerics::ks::{KsConfig, ReferenceSolver, Scheme};
use crate::numerics::metrics::{
    correlation_time, divergence_time, l2_error, relative_error, relative_error_per_frame,
    stability, Stability, ERROR_HORIZON, STABILITY_HORIZON,
};
use crate::numerics::nets::Net;
use crate::numerics::readback::read_f32;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::{Mode, TrainError};

/// Longest accepted evaluation rollout (steps).
pub const MAX_ROLLOUT: usize = 5000;
/// Most accepted tests per test size.
pub const MAX_TESTS_PER_SIZE: usize = 100;

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

/// The ground truth of test `test` of test size `size` (`[rollout_steps + 1][N]`, frame 0 = the
/// evaluation start): the ground-truth solver (f64) from [`TestIc::family`]`(test_seed + size,
/// tests_per_size)[test]`, stored f32 like the training data, read back as f64.
pub fn test_truth(
    config: &EvalConfig,
    resolution: usize,
    size: usize,
    test: usize,
) -> Result<Vec<Vec<f64>>, TrainError> {
    let scale = *config
        .scales
        .get(size)
        .ok_or_else(|| TrainError::invalid("tests", format!("no test size {size}")))?;
    let ic = TestIc::family(
        config.test_seed.wrapping_add(size as u64),
        config.tests_per_size,
    )
    .into_iter()
    .nth(test)
    .ok_or_else(|| TrainError::invalid("tests", format!("no test {test} in size {size}")))?;
    let recipe = DataConfig {
        solver: KsConfig {
            resolution,
            ..KsConfig::default()
        },
        kept_frames: config.start_frame + config.rollout_steps + 1,
        ..DataConfig::default()
    };
    let grid = KsConfig {
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..recipe.solver
    }
    .validate()?;
    let trajectory = data::trajectory(&recipe, scale, &ic.state(&grid))?;
    Ok((config.start_frame..trajectory.frames())
        .map(|f| trajectory.frame(f).iter().map(|&v| v as f64).collect())
        .collect())
}

/// The whole test set of `config` ([`test_truth`] for every size and test).
pub fn test_set(config: &EvalConfig, resolution: usize) -> Result<Vec<TestSize>, TrainError> {
    (0..config.scales.len())
        .map(|size| {
            Ok(TestSize {
                scale: config.scales[size],
                truth: (0..config.tests_per_size)
                    .map(|test| test_truth(config, resolution, size, test))
                    .collect::<Result<_, TrainError>>()?,
            })
        })
        .collect()
}

/// The metrics of one test rollout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestMetrics {
    /// Relative error over H steps.
    #[serde(deserialize_with = "super::nullable::f64")]
    pub relative_error: f64,
    /// L2 error over H steps.
    #[serde(deserialize_with = "super::nullable::f64")]
    pub l2: f64,
    /// Correlation time (steps).
    pub correlation_time: usize,
    /// Divergence time (steps; the rollout length when stable).
    pub divergence_time: usize,
    /// The stability class.
    pub stability: Stability,
    /// Relative error of every frame of the rollout (the error over rollout time).
    pub frame_errors: Vec<f64>,
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
        frame_errors: relative_error_per_frame(truth, rollout, error_horizon),
    })
}

/// Frame 0 of each test as a `[tests, N]` tensor on `device` (f32).
pub fn start_state(truth: &[Vec<Vec<f64>>], device: &Device) -> Tensor<2> {
    let tests = truth.len();
    let n = truth.first().and_then(|t| t.first()).map_or(0, Vec::len);
    let start: Vec<f32> = truth
        .iter()
        .flat_map(|t| t[0].iter().map(|&v| v as f32))
        .collect();
    Tensor::<2>::from_data(TensorData::new(start, [tests, n]), device)
}

/// Advances the hybrid model `steps` steps from `state` (`[tests, N]`, test size `size`,
/// `scale` = its `[tests, 1]` scale channel): the new state and the `steps` new frames per test,
/// `[tests][steps][N]`. One readback (async).
pub async fn rollout_chunk(
    net: &Net,
    stepper: &Stepper,
    size: usize,
    state: Tensor<2>,
    scale: &Tensor<2>,
    steps: usize,
) -> Result<(Tensor<2>, Vec<Vec<Vec<f64>>>), TrainError> {
    let [tests, n] = state.dims();
    let mut u = state;
    let mut states = Vec::with_capacity(steps);
    for _ in 0..steps {
        u = stepper.step(net, size, u, scale.clone())?;
        states.push(u.clone());
    }
    if states.is_empty() {
        return Ok((u, vec![Vec::new(); tests]));
    }
    // [steps, tests, N] → per test.
    let values = read_f32(Tensor::stack::<3>(states, 0)).await?;
    let frames = (0..tests)
        .map(|test| {
            (0..steps)
                .map(|t| {
                    let offset = (t * tests + test) * n;
                    values[offset..offset + n]
                        .iter()
                        .map(|&v| v as f64)
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok((u, frames))
}

/// Rolls the hybrid model out from each test's frame 0 for `steps` steps on the stepper's
/// device: `[tests][steps + 1][N]` (frame 0 = the truth's). One readback (async).
pub async fn rollout(
    net: &Net,
    stepper: &Stepper,
    size: usize,
    truth: &[Vec<Vec<f64>>],
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
    let device = stepper.device();
    let scale = stepper.scale_channel(size, truth.len());
    let (_, frames) = rollout_chunk(
        net,
        stepper,
        size,
        start_state(truth, &device),
        &scale,
        steps,
    )
    .await?;
    Ok(truth
        .iter()
        .zip(frames)
        .map(|(t, rest)| {
            let mut all = Vec::with_capacity(steps + 1);
            all.push(t[0].iter().map(|&v| v as f32 as f64).collect());
            all.extend(rest);
            all
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend;
    use crate::numerics::nets::NetConfig;

    fn small_eval() -> EvalConfig {
        EvalConfig {
            scales: vec![0.93, 1.15],
            tests_per_size: 3,
            start_frame: 20,
            rollout_steps: 30,
            ..EvalConfig::default()
        }
    }

    /// One test generated on its own is the same as in the whole family.
    #[test]
    fn one_test_truth_equals_the_family_member() {
        let config = small_eval();
        let recipe = DataConfig {
            solver: KsConfig {
                resolution: 48,
                ..KsConfig::default()
            },
            kept_frames: config.start_frame + config.rollout_steps + 1,
            ..DataConfig::default()
        };
        let family = data::test_trajectories(&recipe, 1.15, config.test_seed + 1, 3).expect("set");
        let truth = test_truth(&config, 48, 1, 2).expect("truth");
        assert_eq!(truth.len(), config.rollout_steps + 1);
        let expected: Vec<f64> = family[2]
            .frame(config.start_frame)
            .iter()
            .map(|&v| v as f64)
            .collect();
        assert_eq!(truth[0], expected);
        assert!(test_truth(&config, 48, 2, 0).is_err(), "no third size");
        assert!(test_truth(&config, 48, 0, 3).is_err(), "no fourth test");
    }

    /// A rollout in chunks of 7 + 5 steps is the 12-step rollout.
    #[test]
    fn chunked_rollout_equals_one_rollout() {
        let config = small_eval();
        let device = backend::cpu();
        let truth: Vec<Vec<Vec<f64>>> = (0..2)
            .map(|t| test_truth(&config, 48, 0, t).expect("truth"))
            .collect();
        let net = NetConfig {
            channels: 4,
            depth: 1,
            ..NetConfig::default()
        }
        .init(&device, 3)
        .expect("net");
        for mode in [Mode::Predict, Mode::Correct] {
            let stepper = evaluation_stepper(mode, 0.0, &config, 48, &device).expect("stepper");
            let whole =
                pollster::block_on(rollout(&net, &stepper, 0, &truth, 12)).expect("rollout");
            let scale = stepper.scale_channel(0, 2);
            let (state, first) = pollster::block_on(rollout_chunk(
                &net,
                &stepper,
                0,
                start_state(&truth, &device),
                &scale,
                7,
            ))
            .expect("chunk");
            let (_, second) =
                pollster::block_on(rollout_chunk(&net, &stepper, 0, state, &scale, 5))
                    .expect("chunk");
            // Bit patterns, so that a blown-up (NaN) tail of the untrained net compares equal.
            let bits = |frames: Vec<&Vec<f64>>| -> Vec<Vec<u64>> {
                frames
                    .iter()
                    .map(|f| f.iter().map(|v| v.to_bits()).collect())
                    .collect()
            };
            for test in 0..2 {
                let chunked = bits(first[test].iter().chain(&second[test]).collect());
                let expected = bits(whole[test][1..].iter().collect());
                assert_eq!(chunked, expected, "{mode:?} test {test}");
            }
        }
    }
}
