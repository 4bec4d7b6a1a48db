//! Evaluation rollouts of a trained model on any system's test set: the hybrid model stepped
//! from each test's frame 0 in chunks, one readback per chunk; a study steps every test of
//! every size as one batch ([`rollout_chunk_groups`]). The truths, the baseline and the
//! metrics are the system's ([`crate::system::physics::PhysicalSystem`]).

use burn::tensor::{Device, Tensor, TensorData};

use crate::nets::Net;
use crate::readback::read_f32;
use crate::train::step::Stepper;
use crate::train::TrainError;

/// Frame 0 of each test as a `[tests, N]` tensor on `device` (f32).
pub fn start_state<'a>(
    truth: impl IntoIterator<Item = &'a Vec<Vec<f64>>>,
    device: &Device,
) -> Tensor<2> {
    let mut tests = 0;
    let mut start: Vec<f32> = Vec::new();
    for t in truth {
        tests += 1;
        start.extend(t[0].iter().map(|&v| v as f32));
    }
    let n = start.len() / tests.max(1);
    Tensor::<2>::from_data(TensorData::new(start, [tests, n]), device)
}

/// Advances the hybrid model `steps` steps from `state` (`[tests, N]`, test size `size`,
/// `scale` = its `[tests, 1]` scale channel): the new state and the `steps` new frames per test,
/// `[tests][steps][N]`. One readback (async).
pub async fn rollout_chunk(
    net: &Net,
    stepper: &Stepper,
    size: usize,
    state: Tensor<2>,
    scale: &Tensor<2>,
    steps: usize,
) -> Result<(Tensor<2>, Vec<Vec<Vec<f64>>>), TrainError> {
    chunk(|u| stepper.step(net, size, u, scale.clone()), state, steps).await
}

/// [`rollout_chunk`] of every test size at once: `state` holds `groups` equal groups of tests,
/// size-major (`[groups·tests, N]`, group `k` at test size `k`), `channel` is the stepper's
/// [`Stepper::groups_channel`]; each step is one [`Stepper::step_groups`] of the whole batch.
pub async fn rollout_chunk_groups(
    net: &Net,
    stepper: &Stepper,
    groups: usize,
    state: Tensor<2>,
    channel: &Tensor<2>,
    steps: usize,
) -> Result<(Tensor<2>, Vec<Vec<Vec<f64>>>), TrainError> {
    let step = |u| stepper.step_groups(net, groups, u, channel.clone());
    chunk(step, state, steps).await
}

/// `steps` applications of `step` from `state`: the new state and the new frames per row.
async fn chunk(
    step: impl Fn(Tensor<2>) -> Result<Tensor<2>, TrainError>,
    state: Tensor<2>,
    steps: usize,
) -> Result<(Tensor<2>, Vec<Vec<Vec<f64>>>), TrainError> {
    let [tests, n] = state.dims();
    let mut u = state;
    let mut states = Vec::with_capacity(steps);
    for _ in 0..steps {
        u = step(u)?;
        states.push(u.clone());
    }
    if states.is_empty() {
        return Ok((u, vec![Vec::new(); tests]));
    }
    // [steps, tests, N] → per test.
    let values = read_f32(Tensor::stack::<3>(states, 0)).await?;
    let frames = (0..tests)
        .map(|test| {
            (0..steps)
                .map(|t| {
                    let offset = (t * tests + test) * n;
                    values[offset..offset + n]
                        .iter()
                        .map(|&v| v as f64)
                        .collect()
                })
                .collect()
        })
        .collect();
    Ok((u, frames))
}

/// Rolls the hybrid model out from each test's frame 0 for `steps` steps on the stepper's
/// device: `[tests][steps + 1][N]` (frame 0 = the truth's). One readback (async).
pub async fn rollout(
    net: &Net,
    stepper: &Stepper,
    size: usize,
    truth: &[Vec<Vec<f64>>],
    steps: usize,
) -> Result<Vec<Vec<Vec<f64>>>, TrainError> {
    let device = stepper.device();
    let scale = stepper.scale_channel(size, truth.len());
    let (_, frames) = rollout_chunk(
        net,
        stepper,
        size,
        start_state(truth, &device),
        &scale,
        steps,
    )
    .await?;
    Ok(truth
        .iter()
        .zip(frames)
        .map(|(t, rest)| {
            let mut all = Vec::with_capacity(steps + 1);
            all.push(t[0].iter().map(|&v| v as f32 as f64).collect());
            all.extend(rest);
            all
        })
        .collect())
}
