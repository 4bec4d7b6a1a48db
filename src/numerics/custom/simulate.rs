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
use crate::numerics::study::contract::simulate::{
    file_error, json_line, non_negative, SimulateError, SimulateRequest,
};
use crate::numerics::types::{Equation, Integrator};

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
    /// `[steps + 1, N]` states, `states[0]` the initial state (fewer when it blew up).
    pub states: Vec<Vec<f64>>,
    /// Index of the first state that blew up, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged_at: Option<usize>,
}

/// The initial state named by `--init`; shape `[N]`.
fn initial_state(request: &SimulateRequest, points: usize) -> Result<Vec<f64>, SimulateError> {
    let init = request.init.as_deref().unwrap_or("train:0");
    if let Some(index) = init.strip_prefix("train:") {
        let index: usize = index.parse().map_err(|_| {
            SimulateError::Usage(format!(
                "train:K needs a non-negative integer, got '{index}'"
            ))
        })?;
        return Ok(RandomModes::nth(TRAIN_SEED, index).state(points));
    }
    let values: Vec<f64> = serde_json::from_str(&request.read(init)?)
        .map_err(|err| file_error(init, format!("not a JSON array of numbers ({err})")))?;
    if values.len() != points {
        let message = format!("state has {} values, expected {points} (N)", values.len());
        return Err(file_error(init, message));
    }
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(file_error(
            init,
            format!("state value {index} is not finite"),
        )),
        None => Ok(values),
    }
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
        states,
        diverged_at,
    })
}
