//! A reader's equation as a [`PhysicalSystem`]: one field on its `N` points, the varied
//! parameter of its text (`vary=`, `L` by default), the truth of its settings, ETD1 as the
//! coarse baseline, prediction and correction with every 1-D network.
//!
//! `System::Custom(id)` is `Copy` and the registry returns `&'static dyn PhysicalSystem`, while
//! an equation is run-time data: [`of`] makes one [`CustomSystem`] per interned equation, once,
//! and keeps it for the process (a few hundred bytes each, its words leaked as `&'static str`).

use std::collections::HashMap;
use std::sync::Mutex;

use burn::tensor::Device;

use super::stepper::EquationStepper;
use super::{data, preset, validate};
use crate::nets::Architecture;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::system::physics::{
    budget_description, refuse_unstudied, space_time_facts, test_parameter, training_parameter,
    PhysicalSystem,
};
use crate::system::playground::Playground;
use crate::system::simulate::{SimulateError, SimulateRequest};
use crate::train::config::TrainDataConfig;
use crate::train::preset::deviations;
use crate::train::step::Stepper;
use crate::train::{Modality, Mode, TrainConfig, TrainError};
use crate::types::equation::bounds;
use crate::types::{
    Equation, EquationId, EvalConfig, Parameter, ParameterWords, Precision, SolverSetup,
    StateShape, System, SystemFacts, Term, TestMetrics, Trajectory,
};

/// One interned equation as a system.
#[derive(Debug)]
pub struct CustomSystem {
    id: EquationId,
    equation: &'static Equation,
    /// `u_t = …` of the equation, the parameter's meaning.
    written: &'static str,
}

static SYSTEMS: Mutex<Option<HashMap<EquationId, &'static CustomSystem>>> = Mutex::new(None);

/// The system of interned equation `id`, made on first use and kept.
pub fn of(id: EquationId) -> &'static CustomSystem {
    let mut table = SYSTEMS.lock().unwrap_or_else(|p| p.into_inner());
    let table = table.get_or_insert_with(HashMap::new);
    table.entry(id).or_insert_with(|| {
        let equation = id.equation();
        let written: &'static str = Box::leak(written(equation).into_boxed_str());
        Box::leak(Box::new(CustomSystem {
            id,
            equation,
            written,
        }))
    })
}

/// `u_t = −1·∂ₓ²u − 1·∂ₓ⁴u − 1·½∂ₓ(u²)`: the equation's non-zero terms, in words.
pub fn written(equation: &Equation) -> String {
    let terms: Vec<String> = Term::COEFFICIENTS
        .iter()
        .filter(|&&t| equation.get(t) != 0.0)
        .map(|&t| format!("{}·{}", equation.get(t), t.written()))
        .collect();
    format!(
        "u_t = {} on a period 2π·L, L = {}",
        terms.join(" + "),
        equation.length
    )
}

/// The varied parameter's words (`static`: one per term).
fn words(term: Term) -> (&'static str, &'static str) {
    match term {
        Term::L => ("domain length", "Training domain lengths L"),
        Term::A0 => ("coefficient a0", "Training values of a0"),
        Term::A1 => ("coefficient a1", "Training values of a1"),
        Term::A2 => ("coefficient a2", "Training values of a2"),
        Term::A3 => ("coefficient a3", "Training values of a3"),
        Term::A4 => ("coefficient a4", "Training values of a4"),
        Term::B => ("coefficient b", "Training values of b"),
        Term::C => ("coefficient c", "Training values of c"),
        Term::D => ("coefficient d", "Training values of d"),
        Term::E => ("coefficient e", "Training values of e"),
    }
}

impl CustomSystem {
    /// The equation.
    pub fn equation(&self) -> &'static Equation {
        self.equation
    }

    /// Training trajectory `index` (value-major: value `scales[index / states]`, state
    /// `index % states`).
    fn trajectory(&self, data: &TrainDataConfig, index: usize) -> Result<Trajectory, TrainError> {
        let states = self.equation.states;
        let value = training_parameter(data, index, states)?;
        let eq = self.equation;
        Ok(data::training_trajectory(
            eq,
            value,
            index % states,
            data.warmup_steps,
            data.frames,
        )?)
    }
}

impl SystemDescription for CustomSystem {
    fn system(&self) -> System {
        System::Custom(self.id)
    }

    fn title(&self) -> &'static str {
        "Your equation"
    }

    fn state_shape(&self) -> StateShape {
        StateShape {
            channels: 1,
            points: vec![self.equation.points],
        }
    }

    fn parameter(&self) -> Parameter {
        let term = self.equation.vary;
        let range = if term == Term::L {
            (1e-3, 1e4)
        } else {
            (-1e6, 1e6)
        };
        Parameter {
            name: words(term).0,
            symbol: term.name(),
            meaning: self.written,
            native: range,
            browser: range,
        }
    }

    fn architectures(&self) -> &'static [Architecture] {
        &Architecture::ONE_D
    }

    fn facts(&self) -> SystemFacts {
        let (name, training_label) = words(self.equation.vary);
        space_time_facts(
            ParameterWords {
                name,
                test: self.equation.vary.name(),
                training_label,
                training_unit: "training value",
            },
            None,
        )
    }

    fn playground(&self) -> Option<&dyn Playground> {
        Some(self)
    }

    fn training_trajectories(&self, data: &TrainDataConfig) -> usize {
        data.scales.len() * self.equation.states
    }

    fn data_flops(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        eval: Option<&EvalConfig>,
    ) -> f64 {
        let eq = self.equation;
        let training = data.scales.len() * eq.states * (data.warmup_steps + data.frames);
        let tests = eval.map_or(0, |e| {
            e.scales.len() * e.tests_per_size * (eq.warmup + e.start_frame + e.rollout_steps + 1)
        });
        (training + tests) as f64 * data::step_flops(eq)
    }

    /// Prediction and correction only; the equation's physics checks at the config's training
    /// values and the equation's test values ([`validate::check`]).
    fn validate_training(&self, config: &TrainConfig) -> Result<(), TrainError> {
        refuse_unstudied(
            config,
            &[Mode::Predict, Mode::Correct],
            [
                "a reader's equation is studied in prediction and correction mode",
                "a reader's equation has no black-box solver variant",
            ],
        )?;
        // The checks run over the config's data (its values, warm-up and frames, within the
        // equation's bounds so a short test config is checked, not refused for its length).
        let mut equation = self.equation.clone();
        equation.train = config.data.scales.clone();
        equation.warmup = config.data.warmup_steps.min(bounds::WARMUP);
        equation.frames = config.data.frames.clamp(bounds::FRAMES.0, bounds::FRAMES.1);
        Ok(validate::check(&equation)?)
    }

    fn solver_flops_per_state(&self, mode: Mode, _alpha: f64) -> f64 {
        match mode {
            Mode::Correct => super::tensor::flops_per_step(self.equation, 1),
            _ => 0.0,
        }
    }

    /// Each ETD1 sub-step keeps its input, its powers and the products per value.
    fn solver_backward_floats(&self, mode: Mode, _alpha: f64) -> f64 {
        match mode {
            Mode::Correct => 6.0 * (self.equation.points * self.equation.coarse) as f64,
            _ => 0.0,
        }
    }

    fn preset(&self, preset: Preset, seeds: usize) -> StudyConfig {
        preset::study_config(self.system(), self.equation, preset, seeds)
    }

    fn preset_deviations(&self, preset: Preset) -> Vec<String> {
        preset::preset_deviations(self.system(), self.equation, preset)
    }

    fn preset_description(&self, preset: Preset) -> String {
        budget_description(
            &self.preset_deviations(preset),
            "full one",
            "Not in the paper: the KS study's training recipe (ResNet1D 16 × 10, Adam 1e-4 ×0.9 \
             every 2000 iterations, batch 16, m = 3, 16 epochs) on the reader's equation.",
        )
    }

    fn config_deviations(&self, config: &StudyConfig) -> Vec<String> {
        let full = preset::full(self.system(), self.equation, Mode::Correct, Modality::Wig);
        let mut out = vec![format!(
            "a reader's equation is not in the paper ({}): its set-up is this app's",
            self.written
        )];
        out.extend(deviations(&config.base, &full));
        let rollout = self.equation.rollout;
        if config.eval.rollout_steps != rollout {
            out.push(format!(
                "evaluation rollout {} steps (full: {rollout})",
                config.eval.rollout_steps
            ));
        }
        out
    }
}

impl PhysicalSystem for CustomSystem {
    fn simulate(&self, request: &SimulateRequest) -> Result<String, SimulateError> {
        super::simulate::simulate(self.equation, request)
    }

    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        _solver: &SolverSetup,
        index: usize,
    ) -> Result<Trajectory, TrainError> {
        self.trajectory(data, index)
    }

    /// Test `test` of size `size`: the test family of seed `test_seed + size`.
    fn test_truth(
        &self,
        eval: &EvalConfig,
        _solver: &SolverSetup,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError> {
        let value = test_parameter(eval, size, test)?;
        let seed = eval.test_seed.wrapping_add(size as u64);
        Ok(data::test_truth(
            self.equation,
            value,
            seed,
            test,
            eval.start_frame,
            eval.rollout_steps,
        )?)
    }

    fn baseline_rollout(
        &self,
        _solver: &SolverSetup,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
        Ok(data::baseline_rollout(
            self.equation,
            truth,
            parameter,
            steps,
        )?)
    }

    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError> {
        Ok(data::test_metrics(
            self.equation,
            truth,
            rollout,
            parameter,
            error_horizon,
        ))
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
        let step = EquationStepper::new(mode, self.equation, parameters, device, Precision::F32)?;
        Ok(Stepper::new(step))
    }
}
