//! `unroll-lab simulate --system burgers`: one viscous-Burgers trajectory as JSON, on the f64
//! reference solver.
//!
//! `--scheme etdrk4` (the truth's integrator, default) or `etd1` (the coarse solver's),
//! `--viscosity ν` (default 0.02), `--resolution N` (default 48), `--substeps` per step of Δt =
//! 0.1 (default 10 for ETDRK4, 1 for ETD1), `--init train:K` (a training initial condition,
//! default `train:0`) or `FILE.json` (a JSON array of N numbers). Prints
//! `{"system":"burgers","scheme":"etdrk4","viscosity":0.02,"substep":0.01,"substeps":10,
//! "resolution":48,"states":[[…N…], …]}` plus `"diverged_at": k` when state `k` was not finite.

use serde::{Deserialize, Serialize};

use super::config::{check_viscosity, COARSE_RESOLUTION, FINE_SUBSTEPS, TIME_STEP};
use super::data::train_ic;
use super::{BurgersConfig, BurgersError, ReferenceSolver, Scheme};
use crate::system::simulate::{
    init_index, json_line, non_negative, SimulateError, SimulateRequest, Simulated,
};

/// The flags a Burgers simulation takes (besides `--steps`).
const FLAGS: [&str; 5] = ["scheme", "viscosity", "substeps", "resolution", "init"];

/// The viscosity simulated when none is given.
const DEFAULT_VISCOSITY: f64 = 0.02;

/// A simulated trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationOutput {
    /// The PDE, `"burgers"`.
    pub system: String,
    /// `"etd1"` or `"etdrk4"`.
    pub scheme: String,
    /// Viscosity ν.
    pub viscosity: f64,
    /// Sub-step `h` (time units).
    pub substep: f64,
    /// Sub-steps per step of Δt.
    pub substeps: usize,
    /// Grid points `N`.
    pub resolution: usize,
    /// The states and where they diverged.
    #[serde(flatten)]
    pub run: Simulated<Vec<f64>>,
}

impl From<BurgersError> for SimulateError {
    fn from(err: BurgersError) -> Self {
        SimulateError::Solver(err.to_string())
    }
}

/// The solver configuration `request` asks for, checked.
fn simulate_config(request: &SimulateRequest) -> Result<BurgersConfig, SimulateError> {
    request.refuse_others(&FLAGS, "burgers")?;
    let scheme = match request.scheme.as_deref().unwrap_or("etdrk4") {
        "etdrk4" => Scheme::Etdrk4,
        "etd1" => Scheme::Etd1,
        other => {
            return Err(SimulateError::Usage(format!(
                "unknown scheme '{other}' for --system burgers (expected etdrk4 or etd1)"
            )))
        }
    };
    let substeps = match (request.substeps, scheme) {
        (Some(value), _) => non_negative("substeps", value)?,
        (None, Scheme::Etdrk4) => FINE_SUBSTEPS,
        (None, Scheme::Etd1) => 1,
    };
    let config = BurgersConfig {
        scheme,
        viscosity: check_viscosity(request.viscosity.unwrap_or(DEFAULT_VISCOSITY))?,
        resolution: match request.resolution {
            Some(value) => non_negative("resolution", value)?,
            None => COARSE_RESOLUTION,
        },
        substep: TIME_STEP / substeps.max(1) as f64,
        substeps,
    };
    config.validate()?;
    Ok(config)
}

/// The initial state named by `--init`; shape `[N]`.
fn initial_state(
    request: &SimulateRequest,
    config: &BurgersConfig,
) -> Result<Vec<f64>, SimulateError> {
    let grid = config.validate()?;
    let init = request.init.as_deref().unwrap_or("train:0");
    if let Some(index) = init.strip_prefix("train:") {
        return Ok(train_ic(init_index("train:K", index)?)?.at(&grid.points()));
    }
    request.state_file(init, config.resolution)
}

/// The trajectory `request` asks for, as one line of JSON.
pub fn simulate(request: &SimulateRequest) -> Result<String, SimulateError> {
    let config = simulate_config(request)?;
    let steps = non_negative("steps", request.steps)?;
    let u0 = initial_state(request, &config)?;
    let (states, diverged_at) = ReferenceSolver::new(config)?.trajectory(&u0, steps);
    json_line(&SimulationOutput {
        system: "burgers".into(),
        scheme: config.scheme.name().into(),
        viscosity: config.viscosity,
        substep: config.substep,
        substeps: config.substeps,
        resolution: config.resolution,
        run: (states, diverged_at).into(),
    })
}
