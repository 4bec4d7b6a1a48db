//! KS's hybrid step in each [`Mode`], per domain size: prediction `f(u, s)`, correction
//! `ETD1²(u) + 0.5·f(u, s)`, transition `v = ETRK2_α(u)`, `u' = v + (1 − α)·f(v, s)`. The
//! solvers are the batched tensor solvers (differentiable, used by WIG), or for NOG correction
//! optionally the f64 rustfft reference as a black box.

use burn::tensor::{Device, Tensor};

use super::config::BASE_DOMAIN_SIZE;
use super::stacked::StackedSolver;
use super::tensor::{read_rows, Precision};
use super::{KsConfig, ReferenceSolver, Scheme, TensorSolver};
use crate::nets::Forward;
use crate::profile::{span, Phase};
use crate::profile_mark::timed_part;
use crate::train::step::{solve_groups_apart, HybridStep, Stepper};
use crate::train::{Mode, TrainError};

/// The network term's factor in correction mode: Δt = 0.5 (the study's KS setting).
pub const CORRECTION_FACTOR: f64 = 0.5;

/// How the solver part of a step is computed.
#[derive(Debug, Clone)]
enum Solver {
    /// No solver (prediction, or transition with α = 0).
    None,
    /// Batched burn solver (differentiable).
    Tensor(Box<TensorSolver>),
    /// The f64 reference called outside autodiff: input read back, output uploaded.
    BlackBox(std::sync::Arc<ReferenceSolver>),
}

impl Solver {
    fn apply(&self, u: Tensor<2>) -> Result<Tensor<2>, TrainError> {
        match self {
            Solver::None => Ok(u),
            Solver::Tensor(solver) => Ok(solver.step(u)),
            Solver::BlackBox(reference) => {
                let device = u.device();
                let rows = read_rows(u.detach())?;
                let stepped: Vec<f64> = rows.iter().flat_map(|row| reference.step(row)).collect();
                let n = reference.config().resolution;
                let values: Vec<f32> = stepped.into_iter().map(|v| v as f32).collect();
                Ok(Tensor::<2>::from_data(
                    burn::tensor::TensorData::new(values, [rows.len(), n]),
                    &device,
                ))
            }
        }
    }
}

/// The solver of one domain size `s` (also the network's constant input channel).
#[derive(Debug, Clone)]
struct SizeStep {
    scale: f64,
    solver: Solver,
}

/// KS's hybrid step for a list of domain sizes, in one mode.
#[derive(Debug, Clone)]
pub struct KsStep {
    mode: Mode,
    alpha: f64,
    sizes: Vec<SizeStep>,
    /// Every size's tensor solver stacked (`None` without a tensor solver).
    stacked: Option<StackedSolver>,
    device: Device,
}

/// The solver configuration a mode runs at scale `scale`: ETD1 (correction), ETRK2 over α of the
/// step (transition, `None` for α = 0), none (prediction).
pub fn mode_solver(mode: Mode, alpha: f64, scale: f64, resolution: usize) -> Option<KsConfig> {
    let base = KsConfig {
        resolution,
        domain_size: BASE_DOMAIN_SIZE * scale,
        ..KsConfig::default()
    };
    match mode {
        Mode::Predict => None,
        Mode::Correct => Some(KsConfig {
            scheme: Scheme::Etd1,
            ..base
        }),
        Mode::Transition if alpha > 0.0 => Some(KsConfig {
            scheme: Scheme::Etrk2,
            substep: base.substep * alpha,
            ..base
        }),
        Mode::Transition => None,
    }
}

impl KsStep {
    /// Builds the solvers of `mode` for every scale. `black_box` selects the reference solver
    /// (correction only).
    pub fn new(
        mode: Mode,
        alpha: f64,
        scales: &[f64],
        resolution: usize,
        device: &Device,
        black_box: bool,
    ) -> Result<Self, TrainError> {
        let sizes = scales
            .iter()
            .map(|&scale| {
                let solver = match mode_solver(mode, alpha, scale, resolution) {
                    None => Solver::None,
                    Some(config) if black_box => {
                        Solver::BlackBox(std::sync::Arc::new(ReferenceSolver::new(config)?))
                    }
                    Some(config) => {
                        Solver::Tensor(Box::new(TensorSolver::new(config, device, Precision::F32)?))
                    }
                };
                Ok(SizeStep { scale, solver })
            })
            .collect::<Result<Vec<_>, TrainError>>()?;
        let configs: Option<Vec<KsConfig>> = scales
            .iter()
            .map(|&scale| mode_solver(mode, alpha, scale, resolution))
            .collect();
        let stacked = match configs {
            Some(configs) if !black_box => StackedSolver::new(&configs, device, Precision::F32)?,
            _ => None,
        };
        Ok(Self {
            mode,
            alpha,
            sizes,
            stacked,
            device: device.clone(),
        })
    }

    /// As a [`Stepper`].
    pub fn stepper(self) -> Stepper {
        Stepper::new(self)
    }
}

impl HybridStep for KsStep {
    fn device(&self) -> Device {
        self.device.clone()
    }

    fn parameter(&self, size: usize) -> f64 {
        self.sizes[size].scale
    }

    fn channel(&self, size: usize) -> f64 {
        self.sizes[size].scale
    }

    fn step(
        &self,
        net: &dyn Forward,
        size: usize,
        u: Tensor<2>,
        scale: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        let solver = &self.sizes[size].solver;
        self.hybrid(net, u, scale, |u| solver.apply(u))
    }

    /// No solver, the stacked tensor solver where there is one (one batched matmul per
    /// operator), else each group's own solver.
    fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        let solverless = self.sizes.iter().all(|s| matches!(s.solver, Solver::None));
        match &self.stacked {
            _ if solverless => self.hybrid(net, u, channel, Ok),
            Some(stacked) => self.hybrid(net, u, channel, |u| Ok(stacked.step_sizes(u, sizes))),
            None => self.hybrid(net, u, channel, |u| {
                solve_groups_apart(sizes, u, |size, u| self.sizes[size].solver.apply(u))
            }),
        }
    }
}

impl KsStep {
    /// The hybrid step of this mode around `solver` (the batch's solver step).
    fn hybrid(
        &self,
        net: &dyn Forward,
        u: Tensor<2>,
        scale: Tensor<2>,
        solver: impl Fn(Tensor<2>) -> Result<Tensor<2>, TrainError>,
    ) -> Result<Tensor<2>, TrainError> {
        let solve = |u: Tensor<2>| span(Phase::Solver, || solver(u));
        let network = |u: Tensor<2>| {
            timed_part(Phase::Network, Phase::NetworkBackward, u, |u| {
                net.forward(u, scale)
            })
        };
        Ok(match self.mode {
            Mode::Predict => network(u),
            Mode::Correct => {
                let coarse = solve(u.clone())?;
                let correction = network(u);
                span(Phase::Loss, || coarse + correction * CORRECTION_FACTOR)
            }
            Mode::Transition => {
                let v = solve(u)?;
                let correction = network(v.clone());
                span(Phase::Loss, || v + correction * (1.0 - self.alpha))
            }
        })
    }
}
