//! One learned step of the hybrid simulator of a reader's equation, per value of its varied
//! parameter: prediction `f(u, p)`, correction `ETD1(u) + Δt·f(u, p)` (the network predicts a
//! rate). The network sees the state and the constant channel [`Equation::channel`]; the coarse
//! solver is the batched differentiable [`TensorSolver`] (f32), so WIG differentiates through
//! it.

use burn::tensor::{Device, Tensor};

use super::error::CustomError;
use super::tensor::TensorSolver;
use crate::nets::Forward;
use crate::profile::{span, Phase};
use crate::profile_mark::timed_part;
use crate::train::step::{solve_groups_apart, HybridStep};
use crate::train::{Mode, TrainError};
use crate::types::{Equation, Precision};

/// The step of one parameter value.
#[derive(Debug, Clone)]
struct ValueStep {
    value: f64,
    /// `None` in prediction mode.
    solver: Option<TensorSolver>,
}

/// The hybrid step of an equation for a list of parameter values, in one mode. Cheap to
/// clone.
#[derive(Debug, Clone)]
pub struct EquationStepper {
    mode: Mode,
    equation: Equation,
    values: Vec<ValueStep>,
    device: Device,
}

impl EquationStepper {
    /// The stepper of `mode` (prediction or correction) at every value of `values`, its
    /// solvers in `precision` on `device`.
    pub fn new(
        mode: Mode,
        equation: &Equation,
        values: &[f64],
        device: &Device,
        precision: Precision,
    ) -> Result<Self, CustomError> {
        if mode == Mode::Transition {
            return Err(CustomError::UnsupportedMode(mode.name()));
        }
        let values = values
            .iter()
            .map(|&value| ValueStep {
                value,
                solver: (mode == Mode::Correct)
                    .then(|| TensorSolver::new(&equation.at(value), device, precision)),
            })
            .collect();
        Ok(Self {
            mode,
            equation: equation.clone(),
            values,
            device: device.clone(),
        })
    }

    /// The coarse step alone at value `size` (`[batch, N] → [batch, N]`; the identity in
    /// prediction mode): differentiable.
    pub fn solve(&self, size: usize, u: Tensor<2>) -> Tensor<2> {
        match self.values.get(size).and_then(|v| v.solver.as_ref()) {
            Some(solver) => span(Phase::Solver, || solver.step(u)),
            None => u,
        }
    }

    /// The hybrid step of this mode around `coarse` (the batch's coarse step, correction).
    fn hybrid(
        &self,
        net: &dyn Forward,
        u: Tensor<2>,
        channel: Tensor<2>,
        coarse: Option<Tensor<2>>,
    ) -> Tensor<2> {
        let output = timed_part(Phase::Network, Phase::NetworkBackward, u, |u| {
            net.forward(u, channel)
        });
        match coarse {
            Some(coarse) => span(Phase::Loss, || coarse + output * self.equation.dt),
            None => output,
        }
    }
}

impl HybridStep for EquationStepper {
    fn device(&self) -> Device {
        self.device.clone()
    }

    fn parameter(&self, size: usize) -> f64 {
        self.values.get(size).map_or(f64::NAN, |v| v.value)
    }

    fn channel(&self, size: usize) -> f64 {
        self.equation.channel(self.parameter(size))
    }

    /// Each group's coarse step apart, the network once.
    fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        if self.mode != Mode::Correct {
            return Ok(self.hybrid(net, u, channel, None));
        }
        let coarse = solve_groups_apart(sizes, u.clone(), |size, u| Ok(self.solve(size, u)))?;
        Ok(self.hybrid(net, u, channel, Some(coarse)))
    }
}
