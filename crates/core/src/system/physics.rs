//! What a study's runner needs of a physical system: the [`PhysicalSystem`] trait, on top of its
//! [`SystemDescription`]. A system supplies the ground-truth data, the test set, the
//! coarse-solver baseline, the test metrics and its hybrid step for training and evaluation.
//! The runner, the workers and the CLI reach the physics only through it; each system's folder
//! (`ks/`, `kolmogorov/`, …) implements it and the registry ([`crate::system`]) finds
//! the implementation of a [`System`].

use burn::tensor::Device;

use super::bench::{Emit, SolverBenchRequest, StatisticsRequest};
use super::description::SystemDescription;
use super::simulate::{SimulateError, SimulateRequest};
use crate::train::config::TrainDataConfig;
use crate::train::step::Stepper;
use crate::train::{EnsembleTrainer, Mode, TrainConfig, TrainError, Trainer};
use crate::types::{
    BaselineWords, EvalConfig, MapWords, Measures, MetricWords, ParameterWords, SolverSetup,
    System, SystemFacts, TestMetrics, Trajectory,
};

/// Finds the implementation of a [`System`]: the registry's `System::physics`, handed down by
/// the front ends (CLI, page, workers) to the study's entry points, which never name a system.
pub type Systems = fn(System) -> &'static dyn PhysicalSystem;

/// The parameter value of each group of trajectories, in order of first appearance.
pub fn parameters_of(data: &[Trajectory]) -> Vec<f64> {
    let mut parameters: Vec<f64> = Vec::new();
    for trajectory in data {
        if !parameters.contains(&trajectory.scale) {
            parameters.push(trajectory.scale);
        }
    }
    parameters
}

/// The parameter value of training trajectory `index` of `data`, `per_value` trajectories per
/// value (parameter-major).
pub fn training_parameter(
    data: &TrainDataConfig,
    index: usize,
    per_value: usize,
) -> Result<f64, TrainError> {
    data.scales
        .get(index / per_value)
        .copied()
        .ok_or_else(|| TrainError::invalid("scales", format!("no trajectory {index}")))
}

/// The parameter value of test size `size` of `eval`, refusing a test outside
/// `0..tests_per_size`.
pub fn test_parameter(eval: &EvalConfig, size: usize, test: usize) -> Result<f64, TrainError> {
    let parameter = *eval
        .scales
        .get(size)
        .ok_or_else(|| TrainError::invalid("tests", format!("no test size {size}")))?;
    if test >= eval.tests_per_size {
        return Err(TrainError::invalid(
            "tests",
            format!("no test {test} in size {size}"),
        ));
    }
    Ok(parameter)
}

/// Refuses `config` where its mode is not one of `modes` or it asks for a black-box solver,
/// the system's reasons in the errors: the usual [`SystemDescription::validate_training`].
pub fn refuse_unstudied(
    config: &TrainConfig,
    modes: &[Mode],
    [mode_reason, black_box_reason]: [&str; 2],
) -> Result<(), TrainError> {
    if !modes.contains(&config.mode) {
        return Err(TrainError::invalid("mode", mode_reason));
    }
    if config.black_box_solver {
        return Err(TrainError::invalid("black_box_solver", black_box_reason));
    }
    Ok(())
}

/// The facts of a 1-D system scored by the relative error, beside its ETD1 coarse solver as the
/// baseline, drawn as space–time maps: `parameter`'s words, and the paper's C-NOG / P-WIG ratio
/// where the paper has one.
pub fn space_time_facts(
    parameter: ParameterWords,
    paper_c_nog_over_p_wig: Option<&'static str>,
) -> SystemFacts {
    SystemFacts {
        metric: MetricWords::RELATIVE_ERROR,
        baseline: BaselineWords::ETD1_ONLY,
        maps: MapWords::SPACE_TIME,
        parameter,
        solver_first: None,
        paper_c_nog_over_p_wig,
        measures: Measures::ONE_D,
    }
}

/// A preset's paragraph: `full` where it deviates in nothing, else the reduced budget and every
/// deviation from the `reference` budget (`"paper"`, `"full one"`).
pub fn budget_description(deviations: &[String], reference: &str, full: &str) -> String {
    if deviations.is_empty() {
        return full.to_string();
    }
    format!(
        "A reduced budget. Deviations from the {reference}: {}.",
        deviations.join("; ")
    )
}

/// The data and training side of one physical system: everything [`SystemDescription`] says,
/// plus the solvers, the metrics and the hybrid step, which run on a burn device. Only the
/// study's runner, the workers and the CLI hold one; the page holds descriptions.
pub trait PhysicalSystem: SystemDescription {
    /// Training trajectory `index` (parameter-major) of `data`: the ground-truth solver from the
    /// system's initial condition, warm-up dropped, stored f32 (`solver`: the data path of the
    /// set-up).
    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        solver: &SolverSetup,
        index: usize,
    ) -> Result<Trajectory, TrainError>;

    /// Every training trajectory of `data`, in order.
    fn training_data(
        &self,
        data: &TrainDataConfig,
        solver: &SolverSetup,
    ) -> Result<Vec<Trajectory>, TrainError> {
        (0..self.training_trajectories(data))
            .map(|index| self.training_trajectory(data, solver, index))
            .collect()
    }

    /// The ground truth of test `test` of test size `size` (`[rollout_steps + 1][values]`,
    /// frame 0 = the evaluation start, f64).
    fn test_truth(
        &self,
        eval: &EvalConfig,
        solver: &SolverSetup,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError>;

    /// The coarse solver of `solver` alone from each truth's frame 0, `steps` steps
    /// (`[tests][steps + 1]`).
    fn baseline_rollout(
        &self,
        solver: &SolverSetup,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError>;

    /// The metrics of `rollout` against `truth` (relative error over `error_horizon` steps,
    /// correlation, divergence, stability, the error of every frame).
    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError>;

    /// The hybrid step of `mode` (α for the transition mode) on the coarse solver of every
    /// value of `parameters`, on `device` (an autodiff device for training). `black_box` runs
    /// the solver outside autodiff where the system has such a variant (NOG correction);
    /// `solver` is the coarse solver's set-up.
    fn stepper(
        &self,
        mode: Mode,
        alpha: f64,
        black_box: bool,
        solver: &SolverSetup,
        parameters: &[f64],
        device: &Device,
    ) -> Result<Stepper, TrainError>;

    /// Installs one of the files [`SystemDescription::data_assets`] names (its bytes): data made
    /// from then on use it. An error says why the bytes are not such a file.
    fn install_data_asset(&self, _bytes: &[u8]) -> Result<(), TrainError> {
        Err(TrainError::invalid(
            "data asset",
            format!("{} ships no data files", self.title()),
        ))
    }

    /// Makes every file this system ships (`unroll-lab assets`): (path from the site root,
    /// bytes). None by default.
    fn make_data_assets(&self) -> Result<Vec<(String, Vec<u8>)>, TrainError> {
        Ok(Vec::new())
    }

    /// A trainer of `config` on `data` (validated; the network sees the state plus the
    /// parameter channel, the mode's coarse solver is the system's).
    fn trainer(
        &self,
        config: TrainConfig,
        data: &[Trajectory],
        device: &Device,
    ) -> Result<Trainer, TrainError> {
        self.validate(&config)?;
        let device = device.clone().autodiff();
        let stepper = self.stepper(
            config.mode,
            config.alpha,
            config.black_box_solver,
            &config.solver,
            &parameters_of(data),
            &device,
        )?;
        Trainer::new(config, data, stepper, &device)
    }

    /// An ensemble trainer of `configs` (one configuration, seeds apart: see
    /// [`EnsembleTrainer`]) on `data`, each config validated as for [`PhysicalSystem::trainer`].
    fn ensemble_trainer(
        &self,
        configs: Vec<TrainConfig>,
        data: &[Trajectory],
        device: &Device,
    ) -> Result<EnsembleTrainer, TrainError> {
        let first = configs
            .first()
            .ok_or_else(|| TrainError::invalid("ensemble", "no members"))?;
        for config in &configs {
            self.validate(config)?;
        }
        let device = device.clone().autodiff();
        let stepper = self.stepper(
            first.mode,
            first.alpha,
            first.black_box_solver,
            &first.solver,
            &parameters_of(data),
            &device,
        )?;
        EnsembleTrainer::new(configs, data, stepper, &device)
    }

    /// One trajectory of the system's own solvers as `unroll-lab simulate` asks for it, as one
    /// line of JSON (each system documents its flags and its output; by default none).
    fn simulate(&self, _request: &SimulateRequest) -> Result<String, SimulateError> {
        Err(SimulateError::Usage(format!(
            "{} cannot be simulated from the CLI",
            self.title()
        )))
    }

    /// The statistics of the system's developed flow and its solvers' speed as `unroll-lab
    /// bench statistics` asks for them, printed through `emit` (each system documents its flags
    /// and its figures; by default none: a usage error).
    fn bench_statistics(
        &self,
        _request: &StatisticsRequest,
        _emit: Emit<'_>,
    ) -> Result<(), SimulateError> {
        Err(SimulateError::Usage(format!(
            "{} has no statistics bench",
            self.title()
        )))
    }

    /// Its solvers' throughput and the time its training set takes to make, as `unroll-lab
    /// bench solver` asks for them, printed through `emit` (each system documents its flags and
    /// its figures; by default none: a usage error).
    fn bench_solver(
        &self,
        _request: &SolverBenchRequest,
        _emit: Emit<'_>,
    ) -> Result<(), SimulateError> {
        Err(SimulateError::Usage(format!(
            "{} has no solver bench",
            self.title()
        )))
    }
}
