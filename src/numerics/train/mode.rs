//! One learned step of the hybrid simulator in each [`Mode`], per training domain size:
//! prediction `f(u, s)`, correction `ETD1²(u) + 0.5·f(u, s)`, transition `v = ETRK2_α(u)`,
//! `u' = v + (1 − α)·f(v, s)`. The solvers are the batched tensor solvers (differentiable,
//! used by WIG), or for NOG correction optionally the f64 rustfft reference as a black box.
//! Kolmogorov flow (correction only): `(v, p) = S(u)` by the MAC projection solver, then
//! `u' = v + f(v, p, Re/1000)` (the network sees the solver's output, as in the paper's code).

use burn::tensor::{Device, Tensor};

use super::config::Mode;
use super::error::TrainError;
use crate::numerics::kolmogorov::config::{COARSE_DT, COARSE_RESOLUTION};
use crate::numerics::kolmogorov::CoarseSolver;
use crate::numerics::ks::config::BASE_DOMAIN_SIZE;
use crate::numerics::ks::tensor::{read_rows, Precision};
use crate::numerics::ks::{KsConfig, ReferenceSolver, Scheme, TensorSolver};
use crate::numerics::nets::Net;
use crate::numerics::profile::{span, Phase};

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
    /// The Kolmogorov MAC projection solver at viscosity `1/Re` (differentiable).
    Flow {
        /// The solver on the 32² grid.
        solver: Box<CoarseSolver>,
        /// ν = 1/Re.
        viscosity: f64,
    },
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
            Solver::Flow { solver, viscosity } => Ok(flow_step(solver, *viscosity, u).0),
        }
    }
}

/// One Kolmogorov solver step on flattened states: velocity `[batch, 2·N²]` → (velocity
/// `[batch, 2·N²]`, pressure `[batch, N²]`).
fn flow_step(solver: &CoarseSolver, viscosity: f64, u: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
    let [batch, values] = u.dims();
    let n = solver.resolution();
    let (velocity, pressure) = solver.step(u.reshape([batch, 2, n, n]), viscosity);
    (
        velocity.reshape([batch, values]),
        pressure.reshape([batch, n * n]),
    )
}

/// The step of one domain size (KS) or Reynolds number (Kolmogorov).
#[derive(Debug, Clone)]
struct SizeStep {
    /// The system's parameter (`s`, `Re`).
    scale: f64,
    /// The network's constant input channel (`s`; `Re/1000`).
    channel: f64,
    solver: Solver,
}

/// The hybrid step for a list of domain sizes, in one mode.
#[derive(Debug, Clone)]
pub struct Stepper {
    mode: Mode,
    alpha: f64,
    sizes: Vec<SizeStep>,
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

impl Stepper {
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
                Ok(SizeStep {
                    scale,
                    channel: scale,
                    solver,
                })
            })
            .collect::<Result<Vec<_>, TrainError>>()?;
        Ok(Self {
            mode,
            alpha,
            sizes,
            device: device.clone(),
        })
    }

    /// The Kolmogorov correction stepper for each Reynolds number of `reynolds` (32², Δt 0.02).
    pub fn kolmogorov(reynolds: &[f64], device: &Device) -> Result<Self, TrainError> {
        let solver = CoarseSolver::new(COARSE_RESOLUTION, COARSE_DT, device)
            .map_err(|err| TrainError::invalid("solver", err.to_string()))?;
        let sizes = reynolds
            .iter()
            .map(|&re| SizeStep {
                scale: re,
                channel: re / 1000.0,
                solver: Solver::Flow {
                    solver: Box::new(solver.clone()),
                    viscosity: 1.0 / re,
                },
            })
            .collect();
        Ok(Self {
            mode: Mode::Correct,
            alpha: 0.0,
            sizes,
            device: device.clone(),
        })
    }

    /// The device the solvers live on.
    pub fn device(&self) -> Device {
        self.device.clone()
    }

    /// The scale of size `size`.
    pub fn scale(&self, size: usize) -> f64 {
        self.sizes[size].scale
    }

    /// The constant input channel `s` for a batch of `batch` rows: `[batch, 1]`.
    pub fn scale_channel(&self, size: usize, batch: usize) -> Tensor<2> {
        Tensor::<2>::full([batch, 1], self.sizes[size].channel as f32, &self.device)
    }

    /// One learned step at size `size`: `u [batch, N] → [batch, N]`; `scale` from
    /// [`Stepper::scale_channel`].
    pub fn step(
        &self,
        net: &Net,
        size: usize,
        u: Tensor<2>,
        scale: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        let solver = &self.sizes[size].solver;
        if let Solver::Flow { solver, viscosity } = solver {
            let (velocity, pressure) = span(Phase::Solver, || flow_step(solver, *viscosity, u));
            let input = Tensor::cat(vec![velocity.clone(), pressure], 1);
            let correction = span(Phase::Network, || net.forward(input, scale));
            return Ok(span(Phase::Loss, || velocity + correction));
        }
        let solve = |u: Tensor<2>| span(Phase::Solver, || solver.apply(u));
        let network = |u: Tensor<2>| span(Phase::Network, || net.forward(u, scale));
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
