//! The counted FLOPs of making a Burgers study's data: the f64 truth (ETDRK4 on
//! [`FINE_RESOLUTION`] points, [`FINE_SUBSTEPS`] sub-steps per learned step) over every training
//! trajectory and every test. An ETDRK4 sub-step is nine FFTs of the fine grid and ≈ 60·N
//! pointwise operations.

use super::config::{FINE_RESOLUTION, FINE_SUBSTEPS, TRAIN_ICS, WARMUP_STEPS};
use crate::fft_count::complex_fft_flops;
use crate::train::config::TrainDataConfig;
use crate::types::EvalConfig;

/// Counted FLOPs of one learned step of the truth.
pub fn step_flops() -> f64 {
    let substep = 9.0 * complex_fft_flops(FINE_RESOLUTION) + 60.0 * FINE_RESOLUTION as f64;
    FINE_SUBSTEPS as f64 * substep
}

/// Counted FLOPs of the training data of `data` and, when given, the test truths of `eval`.
pub fn data_flops(data: &TrainDataConfig, eval: Option<&EvalConfig>) -> f64 {
    let training = data.scales.len() * TRAIN_ICS * (data.warmup_steps + data.frames);
    let tests = eval.map_or(0, |e| {
        e.scales.len() * e.tests_per_size * (WARMUP_STEPS + e.start_frame + e.rollout_steps + 1)
    });
    (training + tests) as f64 * step_flops()
}
