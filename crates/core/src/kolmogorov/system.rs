//! Kolmogorov flow as a [`PhysicalSystem`]: the coarse velocity (2 channels on the staggered
//! 32² grid) as the state, the Reynolds number as the parameter, the 128² spectral solver as
//! the ground truth, the coarse solver (the paper's PISO; SSP-RK3 MAC projection as the
//! alternative) as the coarse baseline, and the velocity MSE as the metric.

use burn::tensor::{Device, Tensor};

use super::config::COARSE_RESOLUTION;
use super::data;
use super::run::{Sampling, TEST_SEED};
use super::setup::{Setup, SETUPS};
use super::staggered::vorticity_from_velocity;
use super::stepper::FlowStep;
use super::{metrics, preset, shipped_frames, spun_up, PisoDiagonal, TimeScheme};
use crate::backend;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::system::physics::{
    budget_description, refuse_unstudied, test_parameter, training_parameter, PhysicalSystem,
};
use crate::train::config::TrainDataConfig;
use crate::train::step::Stepper;
use crate::train::{Mode, TrainConfig, TrainError};
use crate::types::{
    BaselineWords, EvalConfig, MapKind, MapWords, Measures, MetricWords, Parameter, ParameterWords,
    Precision, SetupWords, SolverSetup, SpaceTime, StateShape, System, SystemFacts, TestMetrics,
    Trajectory,
};

/// The coarse solver's deviation from the paper, first in every list of deviations.
pub const SOLVER_DEVIATION: &str =
    "coarse solver: the paper's PISO, but its predictor is solved by 16 Jacobi sweeps (BiCGStab \
     in the paper) and the state carries no pressure (no −∇pⁿ in the predictor)";

/// The default PISO's diagonal, listed after [`SOLVER_DEVIATION`].
pub const DIAGONAL_DEVIATION: &str =
    "PISO's predictor keeps the advective flux divergence out of its diagonal (the official \
     matrix has it in): the same step for a divergence-free input, a small difference first \
     order in the divergence of a network's correction (set-up piso-advective: the official \
     form)";

/// Vorticity snapshots kept per sample rollout (251 frames: every 10th step).
pub const SAMPLE_SNAPSHOTS: usize = 26;

/// The baseline's name in tables and charts.
pub const BASELINE_NAME: &str = "PISO only (the coarse solver)";

/// Counted FLOPs of one PISO step (the default, constant diagonal) of `batch` states on 32²
/// ([`super::piso::piso_flops_per_step`]).
pub fn coarse_flops_per_step(batch: usize) -> f64 {
    batch as f64 * super::piso::piso_flops_per_step(COARSE_RESOLUTION, Default::default())
}

/// The down-sampling of the set-up `solver`.
fn sampling_of(solver: &SolverSetup) -> Result<Sampling, TrainError> {
    Ok(Setup::of(solver).map_err(invalid)?.sampling())
}

/// Kolmogorov flow.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kolmogorov;

fn invalid(err: super::KolmogorovError) -> TrainError {
    TrainError::invalid("data", err.to_string())
}

impl SystemDescription for Kolmogorov {
    /// The 128² spectral truth spun up to t = 5 only (250 coarse frames, not the study's
    /// t = 50) with 40 frames per Reynolds number.
    fn bench_data(&self) -> TrainDataConfig {
        let mut data = self.preset(Preset::Paper, 1).base.data;
        data.frames = 40;
        data.warmup_steps = 250;
        data
    }

    fn published(&self) -> &'static [crate::system::published::Published] {
        &super::published::PUBLISHED
    }

    fn peer_commands(&self, config: &StudyConfig) -> Option<crate::types::PeerCommands> {
        Some(super::peer::peer_commands(self, config))
    }

    fn system(&self) -> System {
        System::Kolmogorov
    }

    fn title(&self) -> &'static str {
        "Kolmogorov flow"
    }

    fn architectures(&self) -> &'static [crate::nets::Architecture] {
        &crate::nets::Architecture::TWO_D
    }

    fn state_shape(&self) -> StateShape {
        StateShape {
            channels: 2,
            points: vec![COARSE_RESOLUTION, COARSE_RESOLUTION],
        }
    }

    fn parameter(&self) -> Parameter {
        Parameter {
            name: "Reynolds number",
            symbol: "Re",
            meaning: "viscosity ν = 1/Re",
            native: (100.0, 2000.0),
            browser: (300.0, 1000.0),
        }
    }

    fn facts(&self) -> SystemFacts {
        SystemFacts {
            metric: MetricWords {
                short: "velocity MSE",
                axis: "velocity MSE",
                title: "Velocity MSE",
            },
            baseline: BaselineWords {
                name: BASELINE_NAME,
                short: "coarse-solver",
            },
            maps: MapWords {
                kind: MapKind::FieldSnapshots,
                title: "Vorticity maps",
                caption: "Vorticity of one snapshot, x to the right, y upwards; one symmetric \
                          colour scale (the truth's max |ω| over all snapshots); the slider \
                          picks the time.",
                snapshot_label: "Vorticity snapshot",
                quantity: "ω",
            },
            parameter: ParameterWords {
                name: "Reynolds number",
                test: "Re",
                training_label: "Training Reynolds numbers Re (ν = 1/Re)",
                training_unit: "training Reynolds number",
            },
            solver_first: Some(
                "Kolmogorov flow: the coarse solver S (the paper's PISO: implicit \
                 advection–diffusion predictor, two pressure corrections) runs first and the network corrects its output, \
                 u′ = S(u) + f(S(u), p, Re/1000): the graph below is that solver-then-network \
                 step (drawn as the transition mode, whose network also sees the solver's \
                 output); WIG differentiates through S as the paper's code does (advecting \
                 velocity frozen, linear solves through their right-hand side).",
            ),
            paper_c_nog_over_p_wig: None,
            measures: Measures::FLOW,
        }
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len()
    }

    fn data_flops(
        &self,
        data: &TrainDataConfig,
        solver: &SolverSetup,
        eval: Option<&EvalConfig>,
    ) -> f64 {
        sampling_of(solver)
            .ok()
            .and_then(|sampling| super::data_cost::data_flops(data, eval, sampling).ok())
            .unwrap_or(f64::NAN)
    }

    fn solver_setups(&self) -> &'static [SetupWords] {
        &SETUPS
    }

    fn validate_training(&self, config: &TrainConfig) -> Result<(), TrainError> {
        refuse_unstudied(
            config,
            &[Mode::Correct],
            [
                "Kolmogorov flow is studied in correction mode only (as in the paper)",
                "Kolmogorov NOG runs the tensor solver detached; there is no black-box variant",
            ],
        )
    }

    fn solver_flops_per_state(&self, _mode: Mode, _alpha: f64) -> f64 {
        coarse_flops_per_step(1)
    }

    /// As KS's correction solver: 16 floats per value (an estimate; not counted from the
    /// PISO sweeps).
    fn solver_backward_floats(&self, _mode: Mode, _alpha: f64) -> f64 {
        16.0 * self.state_shape().values() as f64
    }

    fn preset(&self, preset: Preset, seeds: usize) -> StudyConfig {
        preset::config(preset, seeds)
    }

    fn preset_deviations(&self, preset: Preset) -> Vec<String> {
        preset::preset_deviations(preset)
    }

    fn preset_description(&self, preset: Preset) -> String {
        budget_description(
            &self.preset_deviations(preset),
            "paper",
            "The paper's kolm_train.py set-up: the four 2-D ResNets, the curriculum 1 → 2 → 4 \
             (ONE: 1 → 1 → 1), batch 1, Adam from 1e-4, 1e-5, 1e-6 per stage, 5 epochs per \
             stage over 6 Re × 6000 frames spun up to t = 50.",
        )
    }

    fn config_deviations(&self, config: &StudyConfig) -> Vec<String> {
        let solver = &config.base.solver;
        let piso = Setup::of(solver)
            .ok()
            .is_none_or(|setup| setup.scheme == TimeScheme::Piso);
        let mut out = if piso {
            vec![SOLVER_DEVIATION.to_string()]
        } else {
            vec![]
        };
        if Setup::of(solver)
            .is_ok_and(|s| s.scheme == TimeScheme::Piso && s.diagonal == PisoDiagonal::Constant)
        {
            out.push(DIAGONAL_DEVIATION.to_string());
        }
        let words = crate::types::solver_setup::find(&SETUPS, solver);
        out.extend(words.and_then(|w| w.deviation).map(str::to_string));
        out.extend(preset::config_deviations(config));
        out
    }

    fn preset_fixes_sizes(&self, preset: Preset) -> bool {
        matches!(preset, Preset::Sizes | Preset::Paper)
    }

    fn lighten_for_browser(&self, config: &mut StudyConfig) {
        preset::lighten_for_browser(config);
    }

    fn data_assets(&self, config: &StudyConfig) -> Vec<String> {
        let (data, eval) = (&config.base.data, &config.eval);
        sampling_of(&config.base.solver)
            .ok()
            .and_then(|sampling| shipped_frames::needed_by(data, eval, sampling).ok())
            .unwrap_or_default()
    }

    fn error_over_whole_rollout(&self) -> bool {
        true
    }

    fn sample(&self, rollout: &[Vec<f64>]) -> SpaceTime {
        let vorticity: Vec<Vec<f64>> = rollout
            .iter()
            .map(|state| {
                vorticity_from_velocity(COARSE_RESOLUTION, state)
                    .unwrap_or_else(|_| vec![f64::NAN; COARSE_RESOLUTION * COARSE_RESOLUTION])
            })
            .collect();
        SpaceTime::from_rollout(&vorticity, SAMPLE_SNAPSHOTS)
    }

    fn diverged_error(&self) -> Option<f64> {
        Some(metrics::DIVERGED_MSE)
    }
}

impl PhysicalSystem for Kolmogorov {
    fn simulate(
        &self,
        request: &crate::system::simulate::SimulateRequest,
    ) -> Result<String, crate::system::simulate::SimulateError> {
        super::simulate::simulate(request)
    }

    fn bench_statistics(
        &self,
        request: &crate::system::bench::StatisticsRequest,
        emit: crate::system::bench::Emit<'_>,
    ) -> Result<(), crate::system::simulate::SimulateError> {
        super::statistics_bench::bench_statistics(self, request, emit)
    }

    fn install_data_asset(&self, bytes: &[u8]) -> Result<(), TrainError> {
        if bytes.starts_with(shipped_frames::MAGIC) {
            shipped_frames::install(bytes).map_err(invalid)
        } else {
            spun_up::install(bytes).map_err(invalid)
        }
    }

    fn make_data_assets(&self) -> Result<Vec<(String, Vec<u8>)>, TrainError> {
        let mut files = super::assets::spun_up_files().map_err(invalid)?;
        files.extend(super::assets::frame_files().map_err(invalid)?);
        Ok(files)
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        solver: &SolverSetup,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        let reynolds = training_parameter(data, index, 1)?;
        let sampling = sampling_of(solver)?;
        data::training_trajectory(reynolds, index, data.warmup_steps, data.frames, sampling)
            .map_err(invalid)
    }

    fn test_truth(
        &self,
        eval: &EvalConfig,
        solver: &SolverSetup,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        let reynolds = test_parameter(eval, size, test)?;
        let seed = TEST_SEED + eval.test_seed + 100 * size as u64;
        let (start, steps) = (eval.start_frame, eval.rollout_steps);
        data::test_truth(reynolds, seed, start, test, steps, sampling_of(solver)?).map_err(invalid)
    }

    fn baseline_rollout(
        &self,
        solver: &SolverSetup,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
        let solver = Setup::of(solver)
            .and_then(|setup| setup.coarse_solver(&backend::cpu(), Precision::F64))
            .map_err(invalid)?;
        let starts: Vec<Vec<f64>> = truth.iter().map(|t| t[0].clone()).collect();
        let mut state = solver.velocity_tensor(&starts).map_err(invalid)?;
        let mut states = Vec::with_capacity(steps);
        for _ in 0..steps {
            state = solver.step(state, 1.0 / parameter).0;
            states.push(state.clone());
        }
        let mut frames: Vec<Vec<Vec<f64>>> = starts.iter().map(|s| vec![s.clone()]).collect();
        if states.is_empty() {
            return Ok(frames);
        }
        // One readback: `[steps, tests, 2, N, N]`, step-major.
        let all = super::coarse::read_values(Tensor::stack::<5>(states, 0)).map_err(invalid)?;
        for (index, chunk) in all.chunks(super::run::frame_values()).enumerate() {
            frames[index % starts.len()].push(chunk.to_vec());
        }
        Ok(frames)
    }

    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        _parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError> {
        Ok(metrics::test_metrics(truth, rollout, error_horizon))
    }

    fn stepper(
        &self,
        mode: Mode,
        _alpha: f64,
        _black_box: bool,
        solver: &SolverSetup,
        parameters: &[f64],
        device: &Device,
    ) -> Result<Stepper, TrainError> {
        if mode != Mode::Correct {
            return Err(TrainError::invalid(
                "mode",
                "Kolmogorov flow is studied in correction mode only",
            ));
        }
        let setup = Setup::of(solver).map_err(invalid)?;
        Ok(FlowStep::new(setup, parameters, device)?.stepper())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::run::runner::Study;
    use crate::system::config::Preset;
    use crate::train::Modality;

    /// A tiny Kolmogorov study end to end: ONE and WIG of the smallest ResNet with the
    /// curriculum 1 → 2, one Re, one 6-step test; every variant is evaluated, ONE trains as
    /// many one-step stages, and the samples are vorticity snapshots of the 32² grid.
    #[test]
    fn tiny_study_trains_the_curriculum_and_scores_the_velocity() {
        let mut config = Kolmogorov.preset(Preset::Quick, 1);
        config.modalities = vec![Modality::One, Modality::Wig];
        config.horizons = vec![2];
        config.base.unroll.horizon = 2;
        let curriculum = config.base.curriculum.as_mut().expect("curriculum");
        curriculum.horizons = vec![1, 2];
        curriculum.learning_rates = vec![1e-3, 1e-3];
        curriculum.stage_iterations = 3;
        config.base.iterations = 6;
        config.base.data.scales = vec![500.0];
        config.base.data.frames = 8;
        config.base.data.warmup_steps = 0;
        config.eval.scales = vec![600.0];
        config.eval.tests_per_size = 1;
        config.eval.start_frame = 0;
        config.eval.rollout_steps = 6;
        config.eval.error_horizon = 6;
        config.validate(&Kolmogorov).expect("valid");
        let iterations: Vec<usize> = config.variants().iter().map(|v| v.iterations).collect();
        assert_eq!(iterations, vec![6, 6]);
        let clock = std::cell::Cell::new(0.0);
        let mut study = Study::new(
            config,
            crate::system::System::physics,
            &backend::cpu(),
            Box::new(move || {
                clock.set(clock.get() + 0.25);
                clock.get()
            }),
        )
        .expect("study");
        let mut steps = 0;
        while !study.finished() {
            pollster::block_on(study.advance(4)).expect("advance");
            steps += 1;
            assert!(steps < 200, "study does not finish");
        }
        let results = study.results(1.0);
        assert_eq!(results.variants.len(), 2);
        for v in &results.variants {
            let mse = v.metrics.relative_error.mean;
            assert!(mse.is_finite() && mse >= 0.0, "{mse}");
            assert_eq!(v.metrics.diverged_models, 0);
            assert_eq!(v.params, 32_376);
        }
        let done: Vec<usize> = results
            .variants
            .iter()
            .map(|v| v.training[0].iterations_done)
            .collect();
        assert_eq!(done, vec![6, 6]);
        assert!(results.variants[1].relative_to_one.is_some());
        let sample = &results.samples[0];
        assert_eq!(sample.truth.frames.len(), 7);
        assert_eq!(
            sample.truth.frames[0].len(),
            COARSE_RESOLUTION * COARSE_RESOLUTION
        );
        // The baseline starts from the truth: its first snapshot is the truth's.
        assert_eq!(sample.baseline.frames[0], sample.truth.frames[0]);
    }
}
