//! The unrolled loss of one minibatch in each [`Modality`].
//!
//! Given frames `g₀ … g_{w+m}` (`[batch, N]` each) the state `u₀ = g₀` is stepped `w + m` times:
//! - the first `w` (warm-up) steps are detached and not in the loss;
//! - loss step `j = 0 … m−1` maps `u_{w+j}` to `u_{w+j+1}` and adds `mse(u_{w+j+1}, g_{w+j+1})`;
//! - **NOG** detaches every loss step's input (gradients only through that step's network call);
//! - **WIG** detaches the input of loss step `j` only when `k > 0` and `j` is a positive multiple
//!   of the detach interval `k` (truncated BPTT; `k = 0` never cuts);
//! - **ONE** is the `m = 1`, `w = 0` case (its input is ground truth).
//!
//! The loss is the mean over batch × m × N (the mean of the per-step MSEs).

use burn::tensor::Tensor;

use super::config::{Modality, UnrollConfig};
use super::error::TrainError;
use super::step::Stepper;
use crate::numerics::nets::Forward;
use crate::numerics::profile::{self, Phase};

/// Whether loss step `j`'s input is detached.
pub fn detached_before_loss_step(modality: Modality, unroll: UnrollConfig, j: usize) -> bool {
    match modality {
        Modality::One | Modality::Nog => true,
        Modality::Wig => {
            let k = unroll.detach_interval;
            k > 0 && j > 0 && j.is_multiple_of(k)
        }
    }
}

/// The unrolled loss `[1]` (autodiff graph attached when the parameters track gradients).
/// `frames.len()` must be `w + m + 1`.
pub fn unrolled_loss(
    net: &dyn Forward,
    stepper: &Stepper,
    size: usize,
    frames: &[Tensor<2>],
    modality: Modality,
    unroll: UnrollConfig,
) -> Result<Tensor<1>, TrainError> {
    let [batch, _] = first_frame(frames)?.dims();
    let scale = stepper.scale_channel(size, batch);
    let step = |u| stepper.step(net, size, u, scale.clone());
    let mse = |difference: Tensor<2>| (difference.clone() * difference).mean();
    unrolled(frames, modality, unroll, step, mse)
}

/// The unrolled loss of each member of an ensemble, `[K]` for `K = sizes.len()` members:
/// the frames are member-major (`[K·rows, N]`, member `k`'s minibatch in rows
/// `k·rows..(k+1)·rows`, at parameter index `sizes[k]`), every step is one
/// [`Stepper::step_sizes`] of the whole batch, and member `k`'s loss is the mean over its own
/// rows — the loss it would have trained alone ([`unrolled_loss`]). Their sum's gradient is
/// each member's own gradient, in its own weights.
pub fn unrolled_member_losses(
    net: &dyn Forward,
    stepper: &Stepper,
    sizes: &[usize],
    frames: &[Tensor<2>],
    modality: Modality,
    unroll: UnrollConfig,
) -> Result<Tensor<1>, TrainError> {
    let [batch, n] = first_frame(frames)?.dims();
    let members = sizes.len().max(1);
    let rows = batch / members;
    let channel = stepper.sizes_channel(sizes, rows);
    let step = |u| stepper.step_sizes(net, sizes, u, channel.clone());
    let mse = |difference: Tensor<2>| {
        (difference.clone() * difference)
            .reshape([members, rows * n])
            .mean_dim(1)
            .reshape([members])
    };
    unrolled(frames, modality, unroll, step, mse)
}

fn first_frame(frames: &[Tensor<2>]) -> Result<&Tensor<2>, TrainError> {
    frames
        .first()
        .ok_or_else(|| TrainError::invalid("horizon", "no frames to unroll"))
}

/// The unroll both losses share: `frames[0]` stepped `w + m` times by `step` (warm-up
/// detached, each loss step's input detached as [`detached_before_loss_step`] says), each loss
/// step's `mse(prediction − target)` summed and divided by `m`.
fn unrolled(
    frames: &[Tensor<2>],
    modality: Modality,
    unroll: UnrollConfig,
    step: impl Fn(Tensor<2>) -> Result<Tensor<2>, TrainError>,
    mse: impl Fn(Tensor<2>) -> Tensor<1>,
) -> Result<Tensor<1>, TrainError> {
    let span = unroll.warmup + unroll.horizon;
    if frames.len() != span + 1 {
        return Err(TrainError::invalid(
            "horizon",
            format!(
                "{} frames given for an unroll of {span} steps",
                frames.len()
            ),
        ));
    }
    let mut u = frames[0].clone();
    for _ in 0..unroll.warmup {
        u = step(u.detach())?.detach();
    }
    let mut total: Option<Tensor<1>> = None;
    for j in 0..unroll.horizon {
        let input = if detached_before_loss_step(modality, unroll, j) {
            u.detach()
        } else {
            u
        };
        u = step(input)?;
        let target = &frames[unroll.warmup + j + 1];
        total = Some(profile::span(Phase::Loss, || {
            let step_loss = mse(u.clone() - target.clone());
            match total {
                None => step_loss,
                Some(sum) => sum + step_loss,
            }
        }));
    }
    let total = total.ok_or_else(|| TrainError::invalid("horizon", "must be at least 1"))?;
    Ok(total / unroll.horizon as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unroll(horizon: usize, warmup: usize, detach_interval: usize) -> UnrollConfig {
        UnrollConfig {
            horizon,
            warmup,
            detach_interval,
        }
    }

    #[test]
    fn cuts_where_the_modality_says() {
        let u = unroll(6, 2, 0);
        assert!((0..6).all(|j| detached_before_loss_step(Modality::Nog, u, j)));
        assert!((0..6).all(|j| !detached_before_loss_step(Modality::Wig, u, j)));
        let cut: Vec<usize> = (0..6)
            .filter(|&j| detached_before_loss_step(Modality::Wig, unroll(6, 0, 2), j))
            .collect();
        assert_eq!(cut, vec![2, 4]);
        let cut: Vec<usize> = (0..7)
            .filter(|&j| detached_before_loss_step(Modality::Wig, unroll(7, 0, 3), j))
            .collect();
        assert_eq!(cut, vec![3, 6]);
        // k = 1 makes WIG identical to NOG.
        assert!(
            (0..6).all(|j| detached_before_loss_step(Modality::Wig, unroll(6, 0, 1), j) == (j > 0))
        );
    }
}
