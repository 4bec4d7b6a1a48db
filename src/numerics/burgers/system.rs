//! Burgers as a [`PhysicalSystem`]: one field on the 48-point grid, the viscosity ν as the
//! parameter, fine-grid ETDRK4 point-sampled as the ground truth, ETD1 as the coarse baseline.
//!
//! The study's recipe lives in inherent methods of [`Burgers`] (tested here); the trait impl
//! only forwards. Two gaps are left for the registry (marked `GAP`): `System` has no `Burgers`
//! variant yet, and `train::mode::Stepper` cannot hold a [`BurgersStepper`], so
//! `evaluation_stepper` and `trainer` answer an error until the stepping trait exists.

use burn::tensor::Device;

use super::config::{
    BROWSER_VISCOSITY_RANGE, COARSE_RESOLUTION, KEPT_FRAMES, ROLLOUT_STEPS, TESTS_PER_VISCOSITY,
    TEST_SEED, TEST_VISCOSITIES, TRAIN_ICS, TRAIN_VISCOSITIES, VISCOSITY_RANGE, WARMUP_STEPS,
};
use super::stepper::BurgersStepper;
use super::{data, evaluate};
use crate::numerics::ks::data::Trajectory;
use crate::numerics::metrics::ERROR_HORIZON;
use crate::numerics::study::evaluate::{EvalConfig, TestMetrics};
use crate::numerics::system::{Parameter, PhysicalSystem, StateShape, System};
use crate::numerics::train::config::TrainDataConfig;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::{Mode, TrainConfig, TrainError, Trainer};

/// The baseline's name in tables and charts.
pub const BASELINE_NAME: &str = "ETD1 only";

/// Viscous Burgers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Burgers;

impl Burgers {
    /// The study's training data recipe: [`TRAIN_VISCOSITIES`], [`WARMUP_STEPS`],
    /// [`KEPT_FRAMES`].
    pub fn train_data() -> TrainDataConfig {
        TrainDataConfig {
            scales: TRAIN_VISCOSITIES.to_vec(),
            warmup_steps: WARMUP_STEPS,
            frames: KEPT_FRAMES,
        }
    }

    /// The study's test set: [`TEST_VISCOSITIES`], [`TESTS_PER_VISCOSITY`] tests each, rollouts
    /// of [`ROLLOUT_STEPS`] from the first frame after the warm-up, error horizon 12.
    pub fn eval() -> EvalConfig {
        EvalConfig {
            scales: TEST_VISCOSITIES.to_vec(),
            tests_per_size: TESTS_PER_VISCOSITY,
            test_seed: 0,
            start_frame: 0,
            error_horizon: ERROR_HORIZON,
            rollout_steps: ROLLOUT_STEPS,
        }
    }

    /// Training trajectory `index` (viscosity-major: ν = `scales[index / TRAIN_ICS]`, IC
    /// `index % TRAIN_ICS`).
    pub fn trajectory(data: &TrainDataConfig, index: usize) -> Result<Trajectory, TrainError> {
        let viscosity = *data
            .scales
            .get(index / TRAIN_ICS)
            .ok_or_else(|| TrainError::invalid("scales", format!("no trajectory {index}")))?;
        Ok(data::training_trajectory(
            viscosity,
            index % TRAIN_ICS,
            data.warmup_steps,
            data.frames,
        )?)
    }

    /// Test `test` of size `size`: seed `TEST_SEED + test_seed + size`, IC `test`.
    pub fn truth(eval: &EvalConfig, size: usize, test: usize) -> Result<Vec<Vec<f64>>, TrainError> {
        let viscosity = *eval
            .scales
            .get(size)
            .ok_or_else(|| TrainError::invalid("tests", format!("no test size {size}")))?;
        if test >= eval.tests_per_size {
            return Err(TrainError::invalid(
                "tests",
                format!("no test {test} in size {size}"),
            ));
        }
        let seed = TEST_SEED
            .wrapping_add(eval.test_seed)
            .wrapping_add(size as u64);
        Ok(data::test_truth(
            viscosity,
            seed,
            test,
            eval.start_frame,
            eval.rollout_steps,
        )?)
    }

    /// The evaluation stepper of `mode` for the test viscosities of `eval` (f32).
    pub fn stepper(
        mode: Mode,
        eval: &EvalConfig,
        device: &Device,
    ) -> Result<BurgersStepper, TrainError> {
        Ok(BurgersStepper::new(mode, &eval.scales, device)?)
    }
}

/// GAP (registry): what `evaluation_stepper` and `trainer` answer until the stepping trait exists.
fn not_wired() -> TrainError {
    TrainError::invalid(
        "system",
        "Burgers is not wired into the trainer yet (BurgersStepper exists; the stepping trait does not)",
    )
}

impl PhysicalSystem for Burgers {
    fn system(&self) -> System {
        // GAP (registry): `System::Burgers` and its arm in `System::physics`.
        unimplemented!("System has no Burgers variant yet")
    }

    fn title(&self) -> &'static str {
        "Viscous Burgers"
    }

    fn state_shape(&self) -> StateShape {
        StateShape {
            channels: 1,
            points: vec![COARSE_RESOLUTION],
        }
    }

    fn parameter(&self) -> Parameter {
        Parameter {
            name: "viscosity",
            symbol: "ν",
            meaning: "u_t + u u_x = ν u_xx on [0, 2π)",
            native: (*VISCOSITY_RANGE.start(), *VISCOSITY_RANGE.end()),
            browser: (
                *BROWSER_VISCOSITY_RANGE.start(),
                *BROWSER_VISCOSITY_RANGE.end(),
            ),
        }
    }

    fn baseline_name(&self) -> &'static str {
        BASELINE_NAME
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len() * TRAIN_ICS
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        Self::trajectory(data, index)
    }

    fn test_truth(
        &self,
        eval: &EvalConfig,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        Self::truth(eval, size, test)
    }

    fn baseline_rollout(
        &self,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
        Ok(data::baseline_rollout(truth, parameter, steps)?)
    }

    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError> {
        Ok(evaluate::test_metrics(
            truth,
            rollout,
            parameter,
            error_horizon,
        )?)
    }

    fn trainer(
        &self,
        _config: TrainConfig,
        _data: &[Trajectory],
        _device: &Device,
    ) -> Result<Trainer, TrainError> {
        // GAP (stepping trait): a trainer whose stepper is `Burgers::stepper`.
        Err(not_wired())
    }

    fn evaluation_stepper(
        &self,
        _mode: Mode,
        _alpha: f64,
        _eval: &EvalConfig,
        _device: &Device,
    ) -> Result<Stepper, TrainError> {
        // GAP (stepping trait): return `Burgers::stepper(mode, eval, device)`.
        Err(not_wired())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::burgers::config::TEST_SEED;

    fn small() -> TrainDataConfig {
        TrainDataConfig {
            scales: vec![0.01, 0.03],
            warmup_steps: 3,
            frames: 6,
        }
    }

    /// Trajectories are viscosity-major, keep `frames` coarse frames after the warm-up (f32 of
    /// the point-sampled fine truth) and use the same ICs for every ν.
    #[test]
    fn training_trajectories_are_viscosity_major() {
        let data = small();
        assert_eq!(Burgers.training_trajectories(&data), 2 * TRAIN_ICS);
        let all = Burgers.training_data(&data).expect("data");
        assert_eq!(all.len(), 2 * TRAIN_ICS);
        let t = &all[TRAIN_ICS + 2];
        assert_eq!(
            (t.scale, t.resolution, t.frames()),
            (0.03, COARSE_RESOLUTION, 6)
        );
        let truth = data::truth_frames(0.03, &data::train_ic(2).expect("ic"), 3, 6).expect("t");
        for (frame, want) in truth.iter().enumerate() {
            let want: Vec<f32> = want.iter().map(|&v| v as f32).collect();
            assert_eq!(t.frame(frame), &want[..]);
        }
        assert_ne!(all[2].values, all[TRAIN_ICS + 2].values, "ν matters");
        assert!(Burgers.training_trajectory(&data, 2 * TRAIN_ICS).is_err());
    }

    /// The test truth is seeded per size, the baseline starts from it, and the truth scores
    /// zero error against itself.
    #[test]
    fn test_truth_baseline_and_metrics() {
        let eval = EvalConfig {
            tests_per_size: 2,
            rollout_steps: 20,
            ..Burgers::eval()
        };
        let truth = Burgers.test_truth(&eval, 1, 1).expect("truth");
        assert_eq!(truth.len(), 21);
        assert_eq!(
            truth,
            data::test_truth(eval.scales[1], TEST_SEED + 1, 1, 0, 20).expect("truth")
        );
        assert_ne!(truth, Burgers.test_truth(&eval, 0, 1).expect("truth"));
        assert!(Burgers.test_truth(&eval, 1, 2).is_err());
        assert!(Burgers.test_truth(&eval, 3, 0).is_err());
        let baseline = Burgers
            .baseline_rollout(std::slice::from_ref(&truth), eval.scales[1], 20)
            .expect("baseline");
        assert_eq!(baseline[0].len(), 21);
        assert_eq!(baseline[0][0], truth[0]);
        let perfect = Burgers
            .test_metrics(&truth, &truth, eval.scales[1], 12)
            .expect("metrics");
        assert_eq!(perfect.relative_error, 0.0);
        assert_eq!(perfect.correlation_time, 20);
        let coarse = Burgers
            .test_metrics(&truth, &baseline[0], eval.scales[1], 12)
            .expect("metrics");
        assert!(coarse.relative_error > 0.0 && coarse.relative_error < 0.05);
        assert_eq!(coarse.divergence_time, 20);
        assert_eq!(Burgers.state_shape().values(), COARSE_RESOLUTION);
        assert_eq!(Burgers.parameter().symbol, "ν");
    }
}
