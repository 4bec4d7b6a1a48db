//! Burgers as a [`PhysicalSystem`]: one field on the 48-point grid, the viscosity ν as the
//! parameter, fine-grid ETDRK4 point-sampled as the ground truth, ETD1 as the coarse baseline,
//! prediction and correction with every 1-D network.

use burn::tensor::Device;

use super::config::{
    BurgersConfig, BROWSER_VISCOSITY_RANGE, COARSE_RESOLUTION, TEST_SEED, TRAIN_ICS,
    VISCOSITY_RANGE, VISCOSITY_SCALE,
};
use super::stepper::BurgersStepper;
use super::{data, evaluate, preset};
use crate::nets::Architecture;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::system::physics::{
    budget_description, refuse_unstudied, space_time_facts, test_parameter, training_parameter,
    PhysicalSystem,
};
use crate::train::config::TrainDataConfig;
use crate::train::preset::deviations;
use crate::train::step::Stepper;
use crate::train::{Modality, Mode, TrainConfig, TrainError};
use crate::types::{
    EvalConfig, Parameter, ParameterWords, SolverSetup, StateShape, System, SystemFacts,
    TestMetrics, Trajectory,
};

/// Viscous Burgers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Burgers;

impl Burgers {
    /// Training trajectory `index` (viscosity-major: ν = `scales[index / TRAIN_ICS]`, IC
    /// `index % TRAIN_ICS`).
    pub fn trajectory(data: &TrainDataConfig, index: usize) -> Result<Trajectory, TrainError> {
        let viscosity = training_parameter(data, index, TRAIN_ICS)?;
        Ok(data::training_trajectory(
            viscosity,
            index % TRAIN_ICS,
            data.warmup_steps,
            data.frames,
        )?)
    }

    /// Test `test` of size `size`: seed `TEST_SEED + test_seed + size`, IC `test`.
    pub fn truth(eval: &EvalConfig, size: usize, test: usize) -> Result<Vec<Vec<f64>>, TrainError> {
        let viscosity = test_parameter(eval, size, test)?;
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
}

impl SystemDescription for Burgers {
    fn system(&self) -> System {
        System::Burgers
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

    fn architectures(&self) -> &'static [Architecture] {
        &Architecture::ONE_D
    }

    fn facts(&self) -> SystemFacts {
        space_time_facts(
            ParameterWords {
                name: "viscosity",
                test: "ν",
                training_label: "Training viscosities ν",
                training_unit: "training viscosity",
            },
            None,
        )
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len() * TRAIN_ICS
    }

    fn data_flops(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        eval: Option<&EvalConfig>,
    ) -> f64 {
        super::data_cost::data_flops(data, eval)
    }

    fn validate_training(&self, config: &TrainConfig) -> Result<(), TrainError> {
        refuse_unstudied(
            config,
            &[Mode::Predict, Mode::Correct],
            [
                "Burgers is studied in prediction and correction mode",
                "Burgers has no black-box solver variant",
            ],
        )
    }

    fn solver_flops_per_state(&self, mode: Mode, _alpha: f64) -> f64 {
        match mode {
            Mode::Correct => BurgersConfig::coarse(VISCOSITY_SCALE).flops_per_step(1),
            _ => 0.0,
        }
    }

    /// ETD1 keeps its input, its square and the two products per value.
    fn solver_backward_floats(&self, mode: Mode, _alpha: f64) -> f64 {
        match mode {
            Mode::Correct => 4.0 * COARSE_RESOLUTION as f64,
            _ => 0.0,
        }
    }

    fn preset(&self, preset: Preset, seeds: usize) -> StudyConfig {
        preset::study_config(preset, seeds)
    }

    fn preset_deviations(&self, preset: Preset) -> Vec<String> {
        preset::preset_deviations(preset)
    }

    fn preset_description(&self, preset: Preset) -> String {
        budget_description(
            &self.preset_deviations(preset),
            "full one",
            "Not in the paper: the KS study's training recipe (ResNet1D 16 × 10, Adam 1e-4 ×0.9 \
             every 2000 iterations, batch 16, m = 3, 16 epochs) on viscous Burgers, 4 \
             viscosities × 8 states × 250 frames.",
        )
    }

    fn config_deviations(&self, config: &StudyConfig) -> Vec<String> {
        let full = preset::full(Mode::Correct, Modality::Wig);
        let mut out = vec!["Burgers is not in the paper: its set-up is this app's".to_string()];
        out.extend(deviations(&config.base, &full));
        let rollout = preset::eval_config().rollout_steps;
        if config.eval.rollout_steps != rollout {
            out.push(format!(
                "evaluation rollout {} steps (full: {rollout})",
                config.eval.rollout_steps
            ));
        }
        out
    }
}

impl PhysicalSystem for Burgers {
    fn simulate(
        &self,
        request: &crate::system::simulate::SimulateRequest,
    ) -> Result<String, crate::system::simulate::SimulateError> {
        super::simulate::simulate(request)
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        Self::trajectory(data, index)
    }

    fn test_truth(
        &self,
        eval: &EvalConfig,
        _solver: &SolverSetup,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        Self::truth(eval, size, test)
    }

    fn baseline_rollout(
        &self,
        _solver: &SolverSetup,
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

    fn stepper(
        &self,
        mode: Mode,
        _alpha: f64,
        _black_box: bool,
        _solver: &SolverSetup,
        parameters: &[f64],
        device: &Device,
    ) -> Result<Stepper, TrainError> {
        Ok(Stepper::new(BurgersStepper::new(mode, parameters, device)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::burgers::config::TEST_SEED;

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
        let all = Burgers
            .training_data(&data, &SolverSetup::default())
            .expect("data");
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
        assert!(Burgers
            .training_trajectory(&data, &SolverSetup::default(), 2 * TRAIN_ICS)
            .is_err());
    }

    /// The test truth is seeded per size, the baseline starts from it, and the truth scores
    /// zero error against itself.
    #[test]
    fn test_truth_baseline_and_metrics() {
        let eval = EvalConfig {
            tests_per_size: 2,
            rollout_steps: 20,
            ..preset::eval_config()
        };
        let truth = Burgers
            .test_truth(&eval, &SolverSetup::default(), 1, 1)
            .expect("truth");
        assert_eq!(truth.len(), 21);
        assert_eq!(
            truth,
            data::test_truth(eval.scales[1], TEST_SEED + 1, 1, 0, 20).expect("truth")
        );
        assert_ne!(
            truth,
            Burgers
                .test_truth(&eval, &SolverSetup::default(), 0, 1)
                .expect("truth")
        );
        assert!(Burgers
            .test_truth(&eval, &SolverSetup::default(), 1, 2)
            .is_err());
        assert!(Burgers
            .test_truth(&eval, &SolverSetup::default(), 3, 0)
            .is_err());
        let baseline = Burgers
            .baseline_rollout(
                &SolverSetup::default(),
                std::slice::from_ref(&truth),
                eval.scales[1],
                20,
            )
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

    /// A tiny Burgers study with every 1-D architecture in prediction and correction × ONE /
    /// NOG / WIG: every variant trains and is scored, the samples are space–time maps.
    #[test]
    fn every_one_d_architecture_trains_in_every_mode_and_modality() {
        use crate::study::run::runner::finished_study;
        use crate::system::config::NetSize;
        for &architecture in Burgers.architectures() {
            let mut config = Burgers.preset(Preset::Quick, 1);
            let size = architecture.facts().size_grid[0];
            config.sizes = vec![NetSize::of(architecture, size.0, size.1)];
            config.base.iterations = 3;
            config.base.batch = 2;
            config.base.data = small();
            config.base.data.frames = 8;
            config.eval.scales = vec![0.025];
            config.eval.tests_per_size = 1;
            config.eval.rollout_steps = 12;
            let results = finished_study(config).results(1.0);
            assert_eq!(results.variants.len(), 6, "{architecture}");
            for v in &results.variants {
                assert!(v.metrics.relative_error.mean.is_finite(), "{architecture}");
                assert_eq!(v.training[0].iterations_done, 3);
            }
            assert_eq!(results.samples[0].truth.frames[0].len(), COARSE_RESOLUTION);
        }
    }
}
