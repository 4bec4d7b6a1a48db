//! Inference from one state: a trained network with its weights rolled out by its system's
//! hybrid step (the playground's trained variants). The page asks a worker for it with a
//! [`RolloutRequest`] (the page links no burn) and scores the frames itself.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::evaluate::rollout;
use crate::nets::export::{load_flat_weights, load_weights};
use crate::nets::NetConfig;
use crate::system::physics::PhysicalSystem;
use crate::train::variant::VariantId;
use crate::types::packed::Packed;
use crate::types::{SolverSetup, System};

/// One trained variant rolled out from one state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutRequest {
    /// Which request this is (the reply carries it back).
    pub ticket: u64,
    /// The system whose hybrid step rolls out.
    pub system: System,
    /// The variant: architecture, size and mode.
    pub variant: VariantId,
    /// α of the transition mode (the study's config).
    pub alpha: f64,
    /// The weights (burnpack bytes, as the page exports them), unless `flat` holds them.
    pub weights: Vec<u8>,
    /// The weights as a results file keeps them (every parameter in visiting order, packed
    /// f32); used instead of `weights` when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flat: Option<Packed>,
    /// The start state (`[N]`).
    pub start: Vec<f64>,
    /// The parameter value of the state (KS: the domain scale s).
    pub parameter: f64,
    /// Steps to take.
    pub steps: usize,
}

/// A worker's answer to a [`RolloutRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutReply {
    /// The request's ticket.
    pub ticket: u64,
    /// The frames (`[steps + 1][N]`; a blow-up is non-finite), empty when `error` says why.
    #[serde(deserialize_with = "crate::types::nullable::f64_frames")]
    pub frames: Vec<Vec<f64>>,
    /// Why there are no frames.
    pub error: Option<String>,
}

impl RolloutReply {
    /// The reply of `ticket` with `outcome`.
    pub fn of(ticket: u64, outcome: Result<Vec<Vec<f64>>, String>) -> Self {
        match outcome {
            Ok(frames) => Self {
                ticket,
                frames,
                error: None,
            },
            Err(error) => Self {
                ticket,
                frames: Vec::new(),
                error: Some(error),
            },
        }
    }

    /// The frames, or why there are none.
    pub fn outcome(self) -> Result<Vec<Vec<f64>>, String> {
        match self.error {
            Some(error) => Err(error),
            None => Ok(self.frames),
        }
    }
}

/// The frames of `request` (`[steps + 1][N]`, frame 0 = the start) on `device` (one async
/// readback), or why not, naming the variant.
pub async fn model_frames(
    system: &dyn PhysicalSystem,
    request: &RolloutRequest,
    device: &Device,
) -> Result<Vec<Vec<f64>>, String> {
    let id = request.variant;
    let label = |e: &dyn std::fmt::Display| format!("{}: {e}", id.label());
    let config = NetConfig {
        architecture: id.architecture,
        channels: id.channels,
        depth: id.depth,
    };
    let net = match &request.flat {
        Some(flat) => flat.to_f32s().map_err(|e| label(&e)).and_then(|values| {
            load_flat_weights(&values, &config, device).map_err(|e| label(&e))
        })?,
        None => load_weights(request.weights.clone(), &config, device).map_err(|e| label(&e))?,
    };
    let stepper = system
        .stepper(
            id.mode,
            request.alpha,
            false,
            &SolverSetup::default(),
            &[request.parameter],
            device,
        )
        .map_err(|e| label(&e))?;
    let mut frames = rollout(
        &net,
        &stepper,
        0,
        &[vec![request.start.clone()]],
        request.steps,
    )
    .await
    .map_err(|e| label(&e))?;
    Ok(frames.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blown_up_rollout_survives_the_message() {
        let reply = RolloutReply::of(3, Ok(vec![vec![1.0, 2.0], vec![f64::NAN, f64::INFINITY]]));
        let json = serde_json::to_string(&reply).expect("json");
        let back: RolloutReply = serde_json::from_str(&json).expect("parse");
        assert_eq!(back.ticket, 3);
        let frames = back.outcome().expect("frames");
        assert_eq!(frames[0], vec![1.0, 2.0]);
        assert!(frames[1].iter().all(|v| v.is_nan()));
        let failed = RolloutReply::of(4, Err("C-WIG 16×10 m=3: bad weights".into()));
        let json = serde_json::to_string(&failed).expect("json");
        let back: RolloutReply = serde_json::from_str(&json).expect("parse");
        assert_eq!(back.outcome(), Err("C-WIG 16×10 m=3: bad weights".into()));
    }
}
