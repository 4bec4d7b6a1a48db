//! KS's evaluation: the test truths (ETRK2 from the seeded test ICs, from frame 200 of each kept
//! series), the ETD1-only baseline, the ETRK2 physics residuals and the per-test metrics of
//! [`crate::metrics`].

use super::config::BASE_DOMAIN_SIZE;
use super::data::{self, DataConfig};
use super::initial::TestIc;
use super::{KsConfig, ReferenceSolver, Scheme};
use crate::train::TrainError;
use crate::types::test_metrics::physics_residuals as residuals;
use crate::types::{EvalConfig, TestMetrics, TestSize};

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

/// The ETRK2 physics residuals `e_t = Σ_x (ũ_{t+1} − S(ũ_t))²` of a rollout at `scale`.
pub fn physics_residuals(rollout: &[Vec<f64>], scale: f64) -> Result<Vec<f64>, TrainError> {
    let resolution = rollout.first().map_or(0, Vec::len);
    let solver = ReferenceSolver::new(KsConfig {
        resolution,
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..KsConfig::default()
    })?;
    Ok(residuals(rollout, |u| solver.step(u)))
}

/// Metrics of `rollout` (`[frames][N]`, frame 0 = truth frame 0) against `truth`.
pub fn test_metrics(
    truth: &[Vec<f64>],
    rollout: &[Vec<f64>],
    scale: f64,
    error_horizon: usize,
) -> Result<TestMetrics, TrainError> {
    let residuals = physics_residuals(rollout, scale)?;
    Ok(TestMetrics::of_rollout(
        truth,
        rollout,
        &residuals,
        error_horizon,
    ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::stepper::KsStep;
    use crate::nets::NetConfig;
    use crate::study::rollout::evaluate::{
        rollout, rollout_chunk, rollout_chunk_groups, start_state,
    };
    use crate::train::Mode;

    fn small_eval() -> EvalConfig {
        EvalConfig {
            scales: vec![0.93, 1.15],
            tests_per_size: 3,
            start_frame: 20,
            rollout_steps: 30,
            ..super::super::preset::eval_config()
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
        let net = NetConfig::tiny(&device, 3);
        for mode in [Mode::Predict, Mode::Correct] {
            let stepper = KsStep::new(mode, 0.0, &config.scales, 48, &device, false)
                .expect("stepper")
                .stepper();
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

    /// Every test of every size stepped as one batch (stacked operators, one network forward)
    /// equals each size rolled out on its own, to f32 rounding: |Δ| ≤ 1e-4 over 12 steps
    /// (values of order 1; a NaN matches a NaN).
    #[test]
    fn all_sizes_as_one_batch_equal_each_size_apart() {
        let config = small_eval();
        let device = backend::cpu();
        let sizes = config.scales.len();
        let truth: Vec<Vec<Vec<Vec<f64>>>> = (0..sizes)
            .map(|size| {
                (0..config.tests_per_size)
                    .map(|t| test_truth(&config, 48, size, t).expect("truth"))
                    .collect()
            })
            .collect();
        let net = NetConfig::tiny(&device, 5);
        let cases = [
            (Mode::Predict, 0.0),
            (Mode::Correct, 0.0),
            (Mode::Transition, 0.5),
            (Mode::Transition, 0.0),
        ];
        for (mode, alpha) in cases {
            let stepper = KsStep::new(mode, alpha, &config.scales, 48, &device, false)
                .expect("stepper")
                .stepper();
            let channel = stepper.groups_channel(sizes, config.tests_per_size);
            let (_, together) = pollster::block_on(rollout_chunk_groups(
                &net,
                &stepper,
                sizes,
                start_state(truth.iter().flatten(), &device),
                &channel,
                12,
            ))
            .expect("batched");
            let apart: Vec<Vec<Vec<f64>>> = (0..sizes)
                .flat_map(|size| {
                    let scale = stepper.scale_channel(size, config.tests_per_size);
                    let start = start_state(&truth[size], &device);
                    pollster::block_on(rollout_chunk(&net, &stepper, size, start, &scale, 12))
                        .expect("apart")
                        .1
                })
                .collect();
            assert_eq!(together.len(), apart.len());
            for (a, b) in together
                .iter()
                .flatten()
                .flatten()
                .zip(apart.iter().flatten().flatten())
            {
                let same = (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-4;
                assert!(same, "{mode:?} α={alpha}: {a} vs {b}");
            }
        }
    }
}
