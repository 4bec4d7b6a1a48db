//! `unroll-lab simulate --system custom --equation TEXT`: one trajectory of a reader's equation
//! as JSON, on the f64 solver of its `N` points.
//!
//! `--scheme etd1|etrk2|etdrk4` (default the truth's), `--substeps` per learned step Δt
//! (default the truth's; ETD1: the coarse solver's `coarse`), `--init train:K` (training state
//! `K`, default `train:0`) or `FILE.json` (a JSON array of N numbers). Prints
//! `{"system":"custom:…","equation":"…","scheme":"etdrk4","dt":1.0,"substeps":4,"points":48,
//! "states":[[…N…], …]}` plus `"diverged_at": k` when state `k` blew up (not finite or 10⁶
//! times the initial state).

use serde::{Deserialize, Serialize};

use super::initial::{RandomModes, TRAIN_SEED};
use super::solver::Solver;
use crate::system::simulate::{
    init_index, json_line, non_negative, SimulateError, SimulateRequest, Simulated,
};
use crate::types::{Equation, Integrator};

/// The flags a simulation of an equation takes (besides `--steps`).
const FLAGS: [&str; 3] = ["scheme", "substeps", "init"];

/// A simulated trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationOutput {
    /// The system's name, `custom:` and the equation.
    pub system: String,
    /// The equation's canonical text.
    pub equation: String,
    /// The integrator.
    pub scheme: String,
    /// Time of one reported step.
    pub dt: f64,
    /// Sub-steps per step.
    pub substeps: usize,
    /// Grid points `N`.
    pub points: usize,
    /// The states and where they diverged.
    #[serde(flatten)]
    pub run: Simulated<Vec<f64>>,
}

/// The initial state named by `--init`; shape `[N]`.
fn initial_state(request: &SimulateRequest, points: usize) -> Result<Vec<f64>, SimulateError> {
    let init = request.init.as_deref().unwrap_or("train:0");
    if let Some(index) = init.strip_prefix("train:") {
        let index = init_index("train:K", index)?;
        return Ok(RandomModes::nth(TRAIN_SEED, index).state(points));
    }
    request.state_file(init, points)
}

/// The trajectory `request` asks for, as one line of JSON.
pub fn simulate(equation: &Equation, request: &SimulateRequest) -> Result<String, SimulateError> {
    request.refuse_others(&FLAGS, "custom")?;
    let scheme = match request.scheme.as_deref() {
        None => equation.scheme,
        Some(name) => name
            .parse::<Integrator>()
            .map_err(|err| SimulateError::Usage(err.to_string()))?,
    };
    let substeps = match (request.substeps, scheme) {
        (Some(value), _) => non_negative("substeps", value)?.max(1),
        (None, Integrator::Etd1) => equation.coarse,
        (None, _) => equation.substeps,
    };
    let steps = non_negative("steps", request.steps)?;
    let u0 = initial_state(request, equation.points)?;
    let solver = Solver::new(equation, equation.points, scheme, substeps);
    let (states, diverged_at) = solver.trajectory(&u0, steps);
    json_line(&SimulationOutput {
        system: format!("custom:{}", equation.text()),
        equation: equation.text(),
        scheme: scheme.name().into(),
        dt: equation.dt,
        substeps,
        points: equation.points,
        run: (states, diverged_at).into(),
    })
}
