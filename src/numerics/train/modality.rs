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
use crate::numerics::nets::Net;
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
    net: &Net,
    stepper: &Stepper,
    size: usize,
    frames: &[Tensor<2>],
    modality: Modality,
    unroll: UnrollConfig,
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
    let [batch, _] = frames[0].dims();
    let scale = stepper.scale_channel(size, batch);
    let mut u = frames[0].clone();
    for _ in 0..unroll.warmup {
        u = stepper.step(net, size, u.detach(), scale.clone())?.detach();
    }
    let mut total: Option<Tensor<1>> = None;
    for j in 0..unroll.horizon {
        let input = if detached_before_loss_step(modality, unroll, j) {
            u.detach()
        } else {
            u
        };
        u = stepper.step(net, size, input, scale.clone())?;
        let target = &frames[unroll.warmup + j + 1];
        total = Some(profile::span(Phase::Loss, || {
            let difference = u.clone() - target.clone();
            let step_loss = (difference.clone() * difference).mean();
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
