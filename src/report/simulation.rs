//! The `unroll-lab simulate` output: one trajectory as JSON.
//!
//! `{"system":"ks","scheme":"etrk2","domain_size":8.0,"substep":0.5,"substeps":2,
//! "resolution":48,"states":[[…N…], …]}` plus `"diverged_at": k` when state `k` was not finite
//! (then `states` holds the finite prefix `0..k`).

use serde::{Deserialize, Serialize};

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
    /// `[steps + 1, N]` states, `states[0]` the initial state (fewer when diverged).
    pub states: Vec<Vec<f64>>,
    /// Index of the first non-finite state, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged_at: Option<usize>,
}

/// One Kolmogorov-flow frame: the vorticity `[N][N]`, indexed `[row = y][column = x]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VorticityFrame {
    /// `ω(x_j, y_i)` at `[i][j]`.
    pub vorticity: Vec<Vec<f64>>,
}

/// A simulated Kolmogorov-flow trajectory:
/// `{"system":"kolmogorov","scheme":"spectral","resolution":32,"reynolds":600.0,"dt":0.02,
/// "every":1,"states":[{"vorticity":[[…N…], …]}, …]}` plus `"diverged_at": k` when frame `k`
/// was not finite (then `states` holds the finite prefix `0..k`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KolmogorovSimulationOutput {
    /// The PDE, `"kolmogorov"`.
    pub system: String,
    /// `"spectral"`, `"piso"` or `"coarse"` (SSP-RK3).
    pub scheme: String,
    /// Grid side `N`.
    pub resolution: usize,
    /// Reynolds number (`ν = 1/Re`).
    pub reynolds: f64,
    /// Time step.
    pub dt: f64,
    /// Steps between reported frames.
    pub every: usize,
    /// `states[0]` the initial state, then one every `every` steps.
    pub states: Vec<VorticityFrame>,
    /// Index of the first non-finite frame, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged_at: Option<usize>,
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
            states: vec![vec![1.0, 2.0]],
            diverged_at: None,
        };
        let json = serde_json::to_string(&output).expect("json");
        assert_eq!(
            json,
            r#"{"system":"ks","scheme":"etrk2","domain_size":8.0,"substep":0.5,"substeps":2,"resolution":2,"states":[[1.0,2.0]]}"#
        );
        let diverged = SimulationOutput {
            diverged_at: Some(3),
            ..output
        };
        let json = serde_json::to_string(&diverged).expect("json");
        assert!(json.ends_with(r#","diverged_at":3}"#));
    }
}
