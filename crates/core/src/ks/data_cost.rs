//! The counted FLOPs of making a KS study's data: the f64 reference solver (ETRK2) over every
//! training trajectory (warm-up and kept frames) and every test (warm-up, frames up to the
//! evaluation start, the rollout). An ETRK2 sub-step is five FFTs of N values and ≈ 30·N
//! pointwise operations; a learned step is [`DEFAULT_SUBSTEPS`] sub-steps.

use super::config::DEFAULT_RESOLUTION;
use super::config::DEFAULT_SUBSTEPS;
use super::data::WARMUP_STEPS;
use super::initial::TRAIN_IC_PARAMETERS;
use crate::fft_count::complex_fft_flops;
use crate::train::config::TrainDataConfig;
use crate::types::EvalConfig;

/// Counted FLOPs of one learned step of the reference solver at N = [`DEFAULT_RESOLUTION`].
pub fn step_flops() -> f64 {
    let substep = 5.0 * complex_fft_flops(DEFAULT_RESOLUTION) + 30.0 * DEFAULT_RESOLUTION as f64;
    DEFAULT_SUBSTEPS as f64 * substep
}

/// Counted FLOPs of the training data of `data` and, when given, the test truths of `eval`.
pub fn data_flops(data: &TrainDataConfig, eval: Option<&EvalConfig>) -> f64 {
    let training =
        data.scales.len() * TRAIN_IC_PARAMETERS.len() * (data.warmup_steps + data.frames);
    let tests = eval.map_or(0, |e| {
        e.scales.len() * e.tests_per_size * (WARMUP_STEPS + e.start_frame + e.rollout_steps + 1)
    });
    (training + tests) as f64 * step_flops()
}
