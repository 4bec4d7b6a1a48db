//! Kuramoto–Sivashinsky as a [`PhysicalSystem`]: one field on the study's 48-point grid, the
//! domain scale `s` (L = 8·s) as the parameter, ETRK2 (f64) as the ground truth, the six training
//! ICs per scale, the seeded test family, ETD1 as the coarse baseline.

use burn::tensor::Device;

use super::config::{BASE_DOMAIN_SIZE, DEFAULT_RESOLUTION, SCALE_RANGE};
use super::data::{self, data_solver, DataConfig};
use super::initial::{train_ic, TRAIN_IC_PARAMETERS};
use super::stepper::{mode_solver, KsStep};
use super::{evaluate, preset, KsConfig};
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::system::physics::{space_time_facts, training_parameter, PhysicalSystem};
use crate::system::playground::Playground;
use crate::train::config::TrainDataConfig;
use crate::train::preset::deviations;
use crate::train::step::Stepper;
use crate::train::{Modality, Mode, TrainError};
use crate::types::{
    EvalConfig, Parameter, ParameterWords, SolverSetup, StateShape, System, SystemFacts,
    TestMetrics, Trajectory,
};

/// The Kuramoto–Sivashinsky system of the study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ks;

impl SystemDescription for Ks {
    fn published(&self) -> &'static [crate::system::published::Published] {
        &super::published::PUBLISHED
    }

    fn paper_iterations(&self, epochs: usize) -> usize {
        super::published::paper_iterations(epochs)
    }

    fn peer_commands(&self, config: &StudyConfig) -> Option<crate::types::PeerCommands> {
        Some(super::peer::peer_commands(self, config))
    }

    fn system(&self) -> System {
        System::Ks
    }

    fn title(&self) -> &'static str {
        "Kuramoto–Sivashinsky"
    }

    fn architectures(&self) -> &'static [crate::nets::Architecture] {
        &crate::nets::Architecture::ONE_D
    }

    fn state_shape(&self) -> StateShape {
        StateShape {
            channels: 1,
            points: vec![DEFAULT_RESOLUTION],
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

    fn facts(&self) -> SystemFacts {
        space_time_facts(
            ParameterWords {
                name: "domain scale",
                test: "size s",
                training_label: "Training domain sizes s (L = 8·s)",
                training_unit: "training domain size",
            },
            Some("4.5"),
        )
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len() * TRAIN_IC_PARAMETERS.len()
    }

    fn data_flops(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        eval: Option<&EvalConfig>,
    ) -> f64 {
        super::data_cost::data_flops(data, eval)
    }

    fn playground(&self) -> Option<&dyn Playground> {
        Some(self)
    }

    fn solver_flops_per_state(&self, mode: Mode, alpha: f64) -> f64 {
        mode_solver(mode, alpha, 1.0, DEFAULT_RESOLUTION).map_or(0.0, |ks| ks.flops_per_step(1))
    }

    fn solver_backward_floats(&self, mode: Mode, alpha: f64) -> f64 {
        mode_solver(mode, alpha, 1.0, DEFAULT_RESOLUTION).map_or(0.0, |ks| {
            8.0 * ks.substeps as f64 * DEFAULT_RESOLUTION as f64
        })
    }

    fn preset(&self, preset: Preset, seeds: usize) -> StudyConfig {
        preset::study_config(preset, seeds)
    }

    fn preset_deviations(&self, preset: Preset) -> Vec<String> {
        preset::preset_deviations(preset)
    }

    fn preset_description(&self, preset: Preset) -> String {
        preset::description(preset)
    }

    fn config_deviations(&self, config: &StudyConfig) -> Vec<String> {
        let study = preset::paper(Mode::Correct, Modality::Wig);
        let mut out = vec![format!(
            "iterations {} per variant (study: {})",
            config.base.iterations, study.iterations
        )];
        let rollout = config.eval.rollout_steps;
        let study_rollout = preset::eval_config().rollout_steps;
        if rollout != study_rollout {
            out.push(format!(
                "evaluation rollout {rollout} steps (study: {study_rollout})"
            ));
        }
        out.extend(
            deviations(&config.base, &study)
                .into_iter()
                .filter(|d| !d.starts_with("iterations")),
        );
        out
    }
}

impl PhysicalSystem for Ks {
    fn simulate(
        &self,
        request: &crate::system::simulate::SimulateRequest,
    ) -> Result<String, crate::system::simulate::SimulateError> {
        super::simulate::simulate(request)
    }

    fn bench_solver(
        &self,
        request: &crate::system::bench::SolverBenchRequest,
        emit: crate::system::bench::Emit<'_>,
    ) -> Result<(), crate::system::simulate::SimulateError> {
        super::solver_bench::bench_solver(request, emit)
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        let scale = training_parameter(data, index, TRAIN_IC_PARAMETERS.len())?;
        let solver = data_solver(DEFAULT_RESOLUTION);
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
        _solver: &SolverSetup,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        evaluate::test_truth(eval, DEFAULT_RESOLUTION, size, test)
    }

    fn baseline_rollout(
        &self,
        _solver: &SolverSetup,
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

    fn stepper(
        &self,
        mode: Mode,
        alpha: f64,
        black_box: bool,
        _solver: &SolverSetup,
        parameters: &[f64],
        device: &Device,
    ) -> Result<Stepper, TrainError> {
        let step = KsStep::new(
            mode,
            alpha,
            parameters,
            DEFAULT_RESOLUTION,
            device,
            black_box,
        )?;
        Ok(step.stepper())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::data::generate;

    #[test]
    fn trajectories_one_by_one_equal_the_whole_set() {
        let data = TrainDataConfig {
            scales: vec![1.0, 1.2],
            warmup_steps: 5,
            frames: 8,
        };
        let whole = generate(&data, data_solver(DEFAULT_RESOLUTION)).expect("set");
        assert_eq!(Ks.training_trajectories(&data), whole.len());
        assert_eq!(
            Ks.training_data(&data, &SolverSetup::default())
                .expect("one by one"),
            whole
        );
    }
}
