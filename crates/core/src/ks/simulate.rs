//! `unroll-lab simulate --system ks`: one KS trajectory as JSON (the contract other tools rely
//! on), on the f64 reference or the f32 tensor path (CPU backend).
//!
//! `{"system":"ks","scheme":"etrk2","domain_size":8.0,"substep":0.5,"substeps":2,
//! "resolution":48,"states":[[…N…], …]}` plus `"diverged_at": k` when state `k` was not finite
//! (then `states` holds the finite prefix `0..k`).

use serde::{Deserialize, Serialize};

use super::initial::{train_ic, TestIc, TRAIN_IC_PARAMETERS};
use super::tensor::read_rows;
use super::{KsConfig, KsError, Precision, ReferenceSolver, Scheme, TensorSolver};
use crate::backend;
use crate::system::simulate::{
    init_index, json_line, non_negative, SimulateError, SimulateRequest, Simulated,
};

/// The flags a KS simulation takes (besides `--steps`).
const FLAGS: [&str; 6] = [
    "scheme",
    "domain-size",
    "substeps",
    "resolution",
    "init",
    "precision",
];

/// A simulated trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationOutput {
    /// The PDE, `"ks"`.
    pub system: String,
    /// `"etd1"`, `"etrk2"` or `"etdrk4"`.
    pub scheme: String,
    /// Domain parameter `L`.
    pub domain_size: f64,
    /// Sub-step `h` (time units).
    pub substep: f64,
    /// Sub-steps per learned step.
    pub substeps: usize,
    /// Grid points `N`.
    pub resolution: usize,
    /// The states and where they diverged.
    #[serde(flatten)]
    pub run: Simulated<Vec<f64>>,
}

impl From<KsError> for SimulateError {
    fn from(err: KsError) -> Self {
        SimulateError::Solver(err.to_string())
    }
}

/// The solver configuration `request` asks for, checked.
fn simulate_config(request: &SimulateRequest) -> Result<KsConfig, SimulateError> {
    request.refuse_others(&FLAGS, "ks")?;
    let defaults = KsConfig::default();
    let name = request.scheme.as_deref().unwrap_or(defaults.scheme.name());
    let scheme = Scheme::from_name(name).ok_or_else(|| {
        SimulateError::Usage(format!(
            "unknown scheme '{name}' (expected etd1, etrk2 or etdrk4)"
        ))
    })?;
    let config = KsConfig {
        scheme,
        domain_size: request.domain_size.unwrap_or(defaults.domain_size),
        resolution: match request.resolution {
            Some(value) => non_negative("resolution", value)?,
            None => defaults.resolution,
        },
        substeps: match request.substeps {
            Some(value) => non_negative("substeps", value)?,
            None => defaults.substeps,
        },
        ..defaults
    };
    config.validate()?;
    Ok(config)
}

/// The initial state named by `--init`; shape `[N]`.
fn initial_state(
    request: &SimulateRequest,
    init: &str,
    config: &KsConfig,
) -> Result<Vec<f64>, SimulateError> {
    let grid = config.grid();
    if let Some(index) = init.strip_prefix("paper-train:") {
        let index: usize = index.parse().map_err(|_| {
            SimulateError::Usage(format!(
                "paper-train:K needs K in 0..{}, got '{index}'",
                TRAIN_IC_PARAMETERS.len()
            ))
        })?;
        return Ok(train_ic(&grid, index)?);
    }
    if let Some(seed) = init.strip_prefix("paper-test:") {
        let seed = init_index("paper-test:SEED", seed)? as u64;
        return Ok(TestIc::from_seed(seed).state(&grid));
    }
    request.state_file(init, config.resolution)
}

/// The trajectory `request` asks for, as one line of JSON.
pub fn simulate(request: &SimulateRequest) -> Result<String, SimulateError> {
    let config = simulate_config(request)?;
    let steps = non_negative("steps", request.steps)?;
    let init = request.init.as_deref().unwrap_or("paper-train:0");
    let u0 = initial_state(request, init, &config)?;
    let (states, diverged_at) = match request.precision.unwrap_or(Precision::F64) {
        Precision::F64 => ReferenceSolver::new(config)?.trajectory(&u0, steps),
        Precision::F32 => tensor_trajectory(config, &u0, steps)?,
    };
    json_line(&SimulationOutput {
        system: "ks".into(),
        scheme: config.scheme.name().into(),
        domain_size: config.domain_size,
        substep: config.substep,
        substeps: config.substeps,
        resolution: config.resolution,
        run: (states, diverged_at).into(),
    })
}

/// Like [`ReferenceSolver::trajectory`], on the f32 tensor path (CPU backend).
fn tensor_trajectory(
    config: KsConfig,
    u0: &[f64],
    steps: usize,
) -> Result<(Vec<Vec<f64>>, Option<usize>), KsError> {
    let solver = TensorSolver::new(config, &backend::cpu(), Precision::F32)?;
    let mut state = solver.states(&[u0.to_vec()]);
    let mut states = read_rows(state.clone())?;
    for k in 1..=steps {
        state = solver.step(state);
        let row = read_rows(state.clone())?
            .into_iter()
            .next()
            .unwrap_or_default();
        if row.iter().any(|v| !v.is_finite()) {
            return Ok((states, Some(k)));
        }
        states.push(row);
    }
    Ok((states, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_with_the_contract_field_names() {
        let output = SimulationOutput {
            system: "ks".into(),
            scheme: "etrk2".into(),
            domain_size: 8.0,
            substep: 0.5,
            substeps: 2,
            resolution: 2,
            run: (vec![vec![1.0, 2.0]], None).into(),
        };
        let json = serde_json::to_string(&output).expect("json");
        assert_eq!(
            json,
            r#"{"system":"ks","scheme":"etrk2","domain_size":8.0,"substep":0.5,"substeps":2,"resolution":2,"states":[[1.0,2.0]]}"#
        );
        let diverged = SimulationOutput {
            run: (vec![vec![1.0, 2.0]], Some(3)).into(),
            ..output
        };
        let json = serde_json::to_string(&diverged).expect("json");
        assert!(json.ends_with(r#","diverged_at":3}"#));
    }
}
