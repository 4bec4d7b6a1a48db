//! Kuramoto–Sivashinsky as a [`PhysicalSystem`]: one field on the study's 48-point grid, the
//! domain scale `s` (L = 8·s) as the parameter, ETRK2 (f64) as the ground truth, the six training
//! ICs per scale, the seeded test family, ETD1 as the coarse baseline.

use burn::tensor::Device;

use super::config::{BASE_DOMAIN_SIZE, SCALE_RANGE};
use super::data::{self, DataConfig, Trajectory};
use super::initial::{train_ic, TRAIN_IC_PARAMETERS};
use super::KsConfig;
use crate::numerics::study::evaluate::{self, EvalConfig, TestMetrics};
use crate::numerics::system::{Parameter, PhysicalSystem, StateShape, System};
use crate::numerics::train::config::TrainDataConfig;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::trainer::data_solver;
use crate::numerics::train::{Mode, TrainError};

/// Grid points of every study (the study's N).
pub const RESOLUTION: usize = 48;

/// The Kuramoto–Sivashinsky system of the study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ks;

impl PhysicalSystem for Ks {
    fn system(&self) -> System {
        System::Ks
    }

    fn title(&self) -> &'static str {
        "Kuramoto–Sivashinsky"
    }

    fn architectures(&self) -> &'static [crate::numerics::nets::Architecture] {
        &crate::numerics::nets::Architecture::ONE_D
    }

    fn state_shape(&self) -> StateShape {
        StateShape {
            channels: 1,
            points: vec![RESOLUTION],
        }
    }

    fn parameter(&self) -> Parameter {
        Parameter {
            name: "domain scale",
            symbol: "s",
            meaning: "domain length L = 8·s",
            native: (*SCALE_RANGE.start(), *SCALE_RANGE.end()),
            browser: (0.5, 2.0),
        }
    }

    fn baseline_name(&self) -> &'static str {
        "ETD1 only"
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len() * TRAIN_IC_PARAMETERS.len()
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        let scale = *data
            .scales
            .get(index / TRAIN_IC_PARAMETERS.len())
            .ok_or_else(|| TrainError::invalid("scales", format!("no trajectory {index}")))?;
        let solver = data_solver(RESOLUTION);
        let recipe = DataConfig {
            solver,
            warmup_steps: data.warmup_steps,
            kept_frames: data.frames,
        };
        let grid = KsConfig {
            domain_size: BASE_DOMAIN_SIZE * scale,
            ..solver
        }
        .validate()?;
        let ic = train_ic(&grid, index % TRAIN_IC_PARAMETERS.len())?;
        Ok(data::trajectory(&recipe, scale, &ic)?)
    }

    fn test_truth(
        &self,
        eval: &EvalConfig,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        evaluate::test_truth(eval, RESOLUTION, size, test)
    }

    fn baseline_rollout(
        &self,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
        evaluate::baseline_rollout(truth, parameter, steps)
    }

    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError> {
        evaluate::test_metrics(truth, rollout, parameter, error_horizon)
    }

    fn evaluation_stepper(
        &self,
        mode: Mode,
        alpha: f64,
        eval: &EvalConfig,
        device: &Device,
    ) -> Result<Stepper, TrainError> {
        evaluate::evaluation_stepper(mode, alpha, eval, RESOLUTION, device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::train::data::generate;

    #[test]
    fn trajectories_one_by_one_equal_the_whole_set() {
        let data = TrainDataConfig {
            scales: vec![1.0, 1.2],
            warmup_steps: 5,
            frames: 8,
        };
        let whole = generate(&data, data_solver(RESOLUTION)).expect("set");
        assert_eq!(Ks.training_trajectories(&data), whole.len());
        assert_eq!(Ks.training_data(&data).expect("one by one"), whole);
    }
}
