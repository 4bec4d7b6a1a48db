//! One learned step of the hybrid Burgers simulator, per viscosity: prediction `f(u, ν)`,
//! correction `ETD1(u) + Δt·f(u, ν)` ([`CORRECTION_FACTOR`] = Δt: the network predicts a
//! rate). The network sees the state and the constant channel `ν / VISCOSITY_SCALE`; the coarse
//! solver is the batched differentiable [`TensorSolver`] (f32), so WIG differentiates through it.

use crate::train::step::{solve_groups_apart, HybridStep};
use crate::train::TrainError;
use burn::tensor::{Device, Tensor};

use super::config::{BurgersConfig, CORRECTION_FACTOR, VISCOSITY_SCALE};
use super::error::BurgersError;
use super::tensor::TensorSolver;
use crate::nets::Forward;
use crate::profile::{span, Phase};
use crate::profile_mark::timed_part;
use crate::train::Mode;
use crate::types::Precision;

/// The step of one viscosity.
#[derive(Debug, Clone)]
struct ViscosityStep {
    viscosity: f64,
    /// `None` in prediction mode.
    solver: Option<TensorSolver>,
}

/// The hybrid step for a list of viscosities, in one mode. Cheap to clone.
#[derive(Debug, Clone)]
pub struct BurgersStepper {
    mode: Mode,
    sizes: Vec<ViscosityStep>,
    device: Device,
}

impl BurgersStepper {
    /// The stepper of `mode` (prediction or correction) for every viscosity of `viscosities`,
    /// its solvers in f32 on `device`.
    pub fn new(mode: Mode, viscosities: &[f64], device: &Device) -> Result<Self, BurgersError> {
        Self::with_precision(mode, viscosities, device, Precision::F32)
    }

    /// The same in `precision` (f64: tests).
    pub fn with_precision(
        mode: Mode,
        viscosities: &[f64],
        device: &Device,
        precision: Precision,
    ) -> Result<Self, BurgersError> {
        if mode == Mode::Transition {
            return Err(BurgersError::UnsupportedMode(mode.name()));
        }
        let sizes = viscosities
            .iter()
            .map(|&viscosity| {
                let config = BurgersConfig::coarse(super::config::check_viscosity(viscosity)?);
                let solver = match mode {
                    Mode::Correct => Some(TensorSolver::new(config, device, precision)?),
                    _ => None,
                };
                Ok(ViscosityStep { viscosity, solver })
            })
            .collect::<Result<_, BurgersError>>()?;
        Ok(Self {
            mode,
            sizes,
            device: device.clone(),
        })
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The device the solvers live on.
    pub fn device(&self) -> Device {
        self.device.clone()
    }

    /// Number of viscosities.
    pub fn sizes(&self) -> usize {
        self.sizes.len()
    }

    /// The viscosity ν of size `size`.
    pub fn viscosity(&self, size: usize) -> f64 {
        self.sizes[size].viscosity
    }

    /// The network's constant input channel `ν / VISCOSITY_SCALE` for `batch` rows: `[batch, 1]`
    /// (f32).
    pub fn parameter_channel(&self, size: usize, batch: usize) -> Tensor<2> {
        let channel = self.sizes[size].viscosity / VISCOSITY_SCALE;
        Tensor::<2>::full([batch, 1], channel as f32, &self.device)
    }

    /// The coarse solver's step alone at size `size` (`[batch, N] → [batch, N]`; the identity
    /// in prediction mode): differentiable.
    pub fn solve(&self, size: usize, u: Tensor<2>) -> Tensor<2> {
        match &self.sizes[size].solver {
            Some(solver) => span(Phase::Solver, || solver.step(u)),
            None => u,
        }
    }

    /// One learned step at size `size`: `u [batch, N] → [batch, N]`; `channel` from
    /// [`BurgersStepper::parameter_channel`].
    pub fn step(
        &self,
        net: &dyn Forward,
        size: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Tensor<2> {
        self.hybrid(net, u, channel, |u| self.solve(size, u))
    }

    /// The hybrid step of this mode around `solve` (the batch's coarse step).
    fn hybrid(
        &self,
        net: &dyn Forward,
        u: Tensor<2>,
        channel: Tensor<2>,
        solve: impl FnOnce(Tensor<2>) -> Tensor<2>,
    ) -> Tensor<2> {
        match self.mode {
            Mode::Correct => {
                let coarse = solve(u.clone());
                let correction = timed_part(Phase::Network, Phase::NetworkBackward, u, |u| {
                    net.forward(u, channel)
                });
                span(Phase::Loss, || coarse + correction * CORRECTION_FACTOR)
            }
            _ => timed_part(Phase::Network, Phase::NetworkBackward, u, |u| {
                net.forward(u, channel)
            }),
        }
    }

    /// Floating-point operations of the solver part of one step for `batch` rows (0 in
    /// prediction mode).
    pub fn solver_flops_per_step(&self, batch: usize) -> f64 {
        match self.mode {
            Mode::Correct => BurgersConfig::coarse(VISCOSITY_SCALE).flops_per_step(batch),
            _ => 0.0,
        }
    }
}

impl HybridStep for BurgersStepper {
    fn device(&self) -> Device {
        self.device.clone()
    }

    fn parameter(&self, size: usize) -> f64 {
        self.viscosity(size)
    }

    fn channel(&self, size: usize) -> f64 {
        self.viscosity(size) / VISCOSITY_SCALE
    }

    /// Each group's coarse step apart, the network once.
    fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        if !matches!(self.mode, Mode::Correct) {
            return Ok(self.hybrid(net, u, channel, |u| u));
        }
        let coarse = solve_groups_apart(sizes, u.clone(), |size, u| Ok(self.solve(size, u)))?;
        Ok(self.hybrid(net, u, channel, |_| coarse))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::burgers::config::TEST_VISCOSITIES;
    use crate::burgers::data::test_truth;
    use crate::burgers::tensor::read_states;
    use crate::nets::NetConfig;

    fn max_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
        a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }

    /// Prediction is the network alone; correction is ETD1 plus Δt times the same network
    /// output; the parameter channel is ν/0.02; transition is refused.
    #[test]
    fn correction_is_etd1_plus_the_scaled_network() {
        let device = backend::cpu();
        let net = NetConfig::tiny(&device, 5);
        let rows: Vec<Vec<f64>> = (0..2)
            .map(|test| test_truth(TEST_VISCOSITIES[1], 9, test, 0, 0).expect("truth")[0].clone())
            .collect();
        let predict = BurgersStepper::new(Mode::Predict, &TEST_VISCOSITIES, &device).expect("p");
        let correct = BurgersStepper::new(Mode::Correct, &TEST_VISCOSITIES, &device).expect("c");
        let channel = correct.parameter_channel(1, 2);
        let channel_values = read_states(channel.clone()).expect("read");
        assert!((channel_values[1][0] - TEST_VISCOSITIES[1] / VISCOSITY_SCALE).abs() < 1e-6);
        let solver = TensorSolver::new(
            BurgersConfig::coarse(TEST_VISCOSITIES[1]),
            &device,
            Precision::F32,
        )
        .expect("solver");
        let u = solver.states(&rows);
        let network = read_states(net.forward(u.clone(), channel.clone())).expect("read");
        let etd1 = read_states(solver.step(u.clone())).expect("read");
        let predicted =
            read_states(predict.step(&net, 1, u.clone(), channel.clone())).expect("read");
        assert_eq!(predicted, network);
        let corrected = read_states(correct.step(&net, 1, u, channel)).expect("read");
        let want: Vec<Vec<f64>> = etd1
            .iter()
            .zip(&network)
            .map(|(e, f)| {
                e.iter()
                    .zip(f)
                    .map(|(e, f)| e + CORRECTION_FACTOR * f)
                    .collect()
            })
            .collect();
        assert!(max_difference(&corrected, &want) < 1e-6);
        assert_eq!(correct.sizes(), 3);
        assert_eq!(predict.solver_flops_per_step(8), 0.0);
        assert!(correct.solver_flops_per_step(8) > 0.0);
        assert!(BurgersStepper::new(Mode::Transition, &[0.02], &device).is_err());
        assert!(BurgersStepper::new(Mode::Correct, &[5.0], &device).is_err());
    }

    /// Two unrolled correction steps on the autodiff device: the gradient of the loss reaches
    /// the initial state through the solver and the network (what WIG needs).
    #[test]
    fn gradients_flow_through_two_unrolled_correction_steps() {
        let device = backend::cpu_autodiff();
        let net = NetConfig::tiny(&device, 2);
        let stepper = BurgersStepper::new(Mode::Correct, &[0.015], &device).expect("stepper");
        let truth = test_truth(0.015, 4, 0, 0, 0).expect("truth");
        let solver = TensorSolver::new(BurgersConfig::coarse(0.015), &device, Precision::F32)
            .expect("solver");
        let u0 = solver.states(&truth).require_grad();
        let channel = stepper.parameter_channel(0, 1);
        let u1 = stepper.step(&net, 0, u0.clone(), channel.clone());
        let u2 = stepper.step(&net, 0, u1, channel);
        let grads = (u2.clone() * u2).sum().backward();
        let gradient = read_states(u0.grad(&grads).expect("gradient")).expect("read");
        assert!(gradient[0].iter().all(|g| g.is_finite()));
        assert!(gradient[0].iter().any(|g| g.abs() > 1e-3));
    }
}
