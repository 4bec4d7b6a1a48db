//! Counted floating-point operations of one training iteration (the basis of the GFLOP/s the
//! training bench reports).
//!
//! Forward: network `flops_per_sample` per call, the system's solver (its FLOPs per state and
//! step, `PhysicalSystem::solver_flops_per_state`) per step. Backward of the network ≈ 2× its forward (input and weight gradients); backward of
//! the solver (WIG only; its matrices are constants, so only the input gradient) ≈ 1× its
//! forward. Warm-up steps have no backward. Adam: ≈ 10 FLOPs per parameter.

use super::config::{Modality, TrainConfig};

/// Counted FLOPs of one iteration of `config` on states of `resolution` values whose coarse
/// solver costs `solver_flops_per_state` per state and step.
pub fn flops_per_iteration(
    config: &TrainConfig,
    resolution: usize,
    solver_flops_per_state: f64,
) -> f64 {
    let batch = config.effective_batch();
    let unroll = config.effective_unroll();
    let steps = (unroll.warmup + unroll.horizon) as f64;
    let loss_steps = unroll.horizon as f64;
    let net_forward = config.net.flops_per_sample(resolution) * batch as f64;
    let solver_forward = solver_flops_per_state * batch as f64;
    let solver_backward = match config.modality {
        Modality::Wig => solver_forward * loss_steps,
        _ => 0.0,
    };
    let loss = 3.0 * (batch * resolution) as f64 * loss_steps;
    let adam = 10.0 * config.net.parameter_count() as f64;
    net_forward * (steps + 2.0 * loss_steps)
        + solver_forward * steps
        + solver_backward
        + loss
        + adam
}

/// Counted FLOPs of a whole training of `config`: with a curriculum, each stage's
/// [`flops_per_iteration`] at its own horizon × its iterations; else `iterations` ×
/// [`flops_per_iteration`].
pub fn training_flops(config: &TrainConfig, resolution: usize, solver_flops_per_state: f64) -> f64 {
    let Some(curriculum) = &config.curriculum else {
        return config.iterations as f64
            * flops_per_iteration(config, resolution, solver_flops_per_state);
    };
    config
        .stage_horizons()
        .into_iter()
        .map(|horizon| {
            let mut stage = config.clone();
            stage.unroll.horizon = horizon;
            curriculum.stage_iterations as f64
                * flops_per_iteration(&stage, resolution, solver_flops_per_state)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::preset::paper;
    use crate::train::Mode;

    #[test]
    fn correction_costs_more_than_prediction_and_wig_more_than_nog() {
        let solver = 1_000.0;
        let p = flops_per_iteration(&paper(Mode::Predict, Modality::Nog), 48, 0.0);
        let c = flops_per_iteration(&paper(Mode::Correct, Modality::Nog), 48, solver);
        let w = flops_per_iteration(&paper(Mode::Correct, Modality::Wig), 48, solver);
        let one = flops_per_iteration(&paper(Mode::Predict, Modality::One), 48, 0.0);
        assert!(c > p && w > c);
        // ONE: batch ×3 at horizon 1 costs the same network FLOPs as NOG's 3 steps.
        assert!((one - p).abs() / p < 1e-9);
    }
}
