//! Kolmogorov flow's hybrid step (correction only): `(v, p) = S(u)` by the coarse (PISO)
//! solver, then `u' = v + f(v, p, Re/1000)` (the network sees the solver's output and its
//! pressure, as in the paper's code). States travel flattened: `[batch, 2·N²]`, u then v.

use burn::tensor::{Device, Tensor};

use super::setup::Setup;
use super::CoarseSolver;
use crate::nets::Forward;
use crate::profile::{span, Phase};
use crate::profile_mark::{backward_from, backward_to, timed_part};
use crate::train::step::{solve_groups_apart, HybridStep, Stepper};
use crate::train::TrainError;
use crate::types::Precision;

/// The network's input channel per unit of Re (`Re/1000`).
pub const CHANNEL_PER_REYNOLDS: f64 = 1.0 / 1000.0;

/// The correction step for each Reynolds number (32², Δt 0.02).
#[derive(Debug, Clone)]
pub struct FlowStep {
    solver: CoarseSolver,
    reynolds: Vec<f64>,
    device: Device,
}

impl FlowStep {
    /// The correction stepper of the solver set-up `setup` for each Reynolds number of
    /// `reynolds` on `device` (f32).
    pub fn new(setup: Setup, reynolds: &[f64], device: &Device) -> Result<Self, TrainError> {
        let solver = setup
            .coarse_solver(device, Precision::F32)
            .map_err(|err| TrainError::invalid("solver", err.to_string()))?;
        Ok(Self {
            solver,
            reynolds: reynolds.to_vec(),
            device: device.clone(),
        })
    }

    /// As a [`Stepper`].
    pub fn stepper(self) -> Stepper {
        Stepper::new(self)
    }
}

/// One solver step on flattened states: velocity `[batch, 2·N²]` → (velocity `[batch, 2·N²]`,
/// pressure `[batch, N²]`).
/// Timed as [`Phase::Solver`], its reverse pass as [`Phase::SolverBackward`].
fn flow_step(solver: &CoarseSolver, viscosity: f64, u: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let [batch, values] = u.dims();
    let n = solver.resolution();
    let u = backward_to(Phase::SolverBackward, u);
    let (velocity, pressure) = span(Phase::Solver, || {
        solver.step(u.reshape([batch, 2, n, n]), viscosity)
    });
    (
        backward_from(Phase::SolverBackward, velocity.reshape([batch, values])),
        backward_from(Phase::SolverBackward, pressure.reshape([batch, n * n])),
    )
}

/// The network's correction of `input`, timed as [`Phase::Network`], its reverse pass as
/// [`Phase::NetworkBackward`].
fn correction(net: &dyn Forward, input: Tensor<2>, channel: Tensor<2>) -> Tensor<2> {
    timed_part(Phase::Network, Phase::NetworkBackward, input, |input| {
        net.forward(input, channel)
    })
}

impl HybridStep for FlowStep {
    fn device(&self) -> Device {
        self.device.clone()
    }

    fn parameter(&self, size: usize) -> f64 {
        self.reynolds[size]
    }

    fn channel(&self, size: usize) -> f64 {
        self.reynolds[size] * CHANNEL_PER_REYNOLDS
    }

    /// Each group's PISO step apart (its own viscosity), the network once (one group: the step
    /// at its Reynolds number).
    fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        if let [size] = sizes {
            let (velocity, pressure) = flow_step(&self.solver, 1.0 / self.reynolds[*size], u);
            let input = Tensor::cat(vec![velocity.clone(), pressure], 1);
            let correction = correction(net, input, channel);
            return Ok(span(Phase::Loss, || velocity + correction));
        }
        let solved = solve_groups_apart(sizes, u, |size, u| {
            let (velocity, pressure) = flow_step(&self.solver, 1.0 / self.reynolds[size], u);
            Ok(Tensor::cat(vec![velocity, pressure], 1))
        })?;
        let [batch, _] = solved.dims();
        let velocity_values = 2 * self.solver.resolution().pow(2);
        let velocity = solved.clone().narrow(1, 0, velocity_values);
        let correction = correction(net, solved, channel);
        debug_assert_eq!(correction.dims(), [batch, velocity_values]);
        Ok(span(Phase::Loss, || velocity + correction))
    }
}
