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
//! An ensemble's members may cut in different places (NOG and WIG of one configuration, WIG at
//! several detach intervals): where they disagree, the state is detached in the rows of the
//! members that cut ([`cut_rows`]).
//!
//! The loss is the mean over batch × m × N (the mean of the per-step MSEs).

use burn::tensor::{Tensor, TensorData};

use super::config::{Modality, UnrollConfig};
use super::error::TrainError;
use super::step::Stepper;
use crate::nets::Forward;
use crate::profile::{self, Phase};

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
    let cut = |j: usize, u: Tensor<2>| {
        if detached_before_loss_step(modality, unroll, j) {
            u.detach()
        } else {
            u
        }
    };
    let mse = |difference: Tensor<2>| (difference.clone() * difference).mean();
    unrolled(frames, unroll, cut, step, mse)
}

/// How one member of an ensemble unrolls: its modality and unroll. The members share their
/// horizon and warm-up (the frames' count); modality and detach interval may differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemberUnroll {
    /// ONE, NOG or WIG.
    pub modality: Modality,
    /// Its horizon, warm-up and detach interval.
    pub unroll: UnrollConfig,
}

/// The unrolled loss of each member of an ensemble, `[K]` for `K = sizes.len() =
/// members.len()`: the frames are member-major (`[K·rows, N]`, member `k`'s minibatch in rows
/// `k·rows..(k+1)·rows`, at parameter index `sizes[k]`), every step is one
/// [`Stepper::step_sizes`] of the whole batch, each loss step's input is detached in the rows
/// of the members whose own unroll cuts there ([`cut_rows`]), and member `k`'s loss is the mean
/// over its own rows — the loss it would have trained alone ([`unrolled_loss`]). Their sum's
/// gradient is each member's own gradient, in its own weights.
pub fn unrolled_member_losses(
    net: &dyn Forward,
    stepper: &Stepper,
    sizes: &[usize],
    frames: &[Tensor<2>],
    members: &[MemberUnroll],
) -> Result<Tensor<1>, TrainError> {
    let [batch, n] = first_frame(frames)?.dims();
    let first = shared_unroll(members, sizes.len())?;
    let count = members.len();
    let rows = batch / count;
    let channel = stepper.sizes_channel(sizes, rows);
    let step = |u| stepper.step_sizes(net, sizes, u, channel.clone());
    let cut = |j: usize, u: Tensor<2>| {
        let cuts: Vec<bool> = members
            .iter()
            .map(|m| detached_before_loss_step(m.modality, m.unroll, j))
            .collect();
        cut_rows(u, &cuts)
    };
    let mse = |difference: Tensor<2>| {
        (difference.clone() * difference)
            .reshape([count, rows * n])
            .mean_dim(1)
            .reshape([count])
    };
    unrolled(frames, first, cut, step, mse)
}

/// The unroll the members share (the first's), or why they cannot unroll together: no
/// members, a count other than `sizes`', or horizons or warm-ups that differ.
fn shared_unroll(members: &[MemberUnroll], sizes: usize) -> Result<UnrollConfig, TrainError> {
    let first = members
        .first()
        .ok_or_else(|| TrainError::invalid("ensemble", "no members"))?
        .unroll;
    if members.len() != sizes {
        return Err(TrainError::invalid(
            "ensemble",
            format!("{} members but {sizes} parameter indices", members.len()),
        ));
    }
    let apart = members
        .iter()
        .any(|m| m.unroll.horizon != first.horizon || m.unroll.warmup != first.warmup);
    if apart {
        return Err(TrainError::invalid(
            "ensemble",
            "members must share their horizon and warm-up",
        ));
    }
    Ok(first)
}

/// `u` (`[K·rows, N]`, member-major) detached in the rows of the members `cuts` marks: all of
/// `u` when every member cuts, none when none does, else `u + (detach(u) − u) · mask` with the
/// mask 1 in the cutting members' rows. Its value is `u` exactly (the difference is zero); its
/// gradient with respect to `u` is `1 − mask`, so no gradient crosses the cut in those rows and
/// the others' is untouched.
pub fn cut_rows(u: Tensor<2>, cuts: &[bool]) -> Tensor<2> {
    if cuts.iter().all(|&cut| cut) {
        return u.detach();
    }
    if !cuts.iter().any(|&cut| cut) {
        return u;
    }
    let [batch, _] = u.dims();
    let rows = batch / cuts.len().max(1);
    let mask: Vec<f32> = cuts
        .iter()
        .flat_map(|&cut| std::iter::repeat_n(if cut { 1.0 } else { 0.0 }, rows))
        .collect();
    let mask =
        Tensor::<2>::from_data(TensorData::new(mask, [batch, 1]), &u.device()).cast(u.dtype());
    u.clone() + (u.clone().detach() - u) * mask
}

fn first_frame(frames: &[Tensor<2>]) -> Result<&Tensor<2>, TrainError> {
    frames
        .first()
        .ok_or_else(|| TrainError::invalid("horizon", "no frames to unroll"))
}

/// The unroll both losses share: `frames[0]` stepped `w + m` times by `step` (warm-up
/// detached, loss step `j`'s input passed through `cut(j, ·)`), each loss step's
/// `mse(prediction − target)` summed and divided by `m`.
fn unrolled(
    frames: &[Tensor<2>],
    unroll: UnrollConfig,
    cut: impl Fn(usize, Tensor<2>) -> Tensor<2>,
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
        u = step(cut(j, u))?;
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

    /// The cut keeps the value bit for bit and stops the gradient in the cutting rows only.
    #[test]
    fn cut_rows_detach_the_cutting_members_rows_only() {
        let device = crate::backend::cpu_autodiff();
        let values: Vec<f32> = (0..12).map(|i| (i as f32 * 0.7).sin() - 0.2).collect();
        let u =
            Tensor::<2>::from_data(TensorData::new(values.clone(), [6, 2]), &device).require_grad();
        let read = |t: Tensor<2>| {
            t.into_data()
                .convert::<f32>()
                .try_into_vec::<f32>()
                .expect("f32")
        };
        // Three members of two rows: the middle one cuts.
        let cut = cut_rows(u.clone(), &[false, true, false]);
        assert_eq!(read(cut.clone().detach()), values);
        let weights = Tensor::<2>::from_data(
            TensorData::new((1..=12).map(|i| i as f32).collect::<Vec<_>>(), [6, 2]),
            &device,
        );
        let grads = (cut * weights.clone()).sum().backward();
        let du = read(u.grad(&grads).expect("gradient"));
        let want: Vec<f32> = (1..=12)
            .map(|i| if (5..=8).contains(&i) { 0.0 } else { i as f32 })
            .collect();
        assert_eq!(du, want);
        // All or none: the plain detach and the identity.
        let gradient = |cuts: &[bool]| {
            let loss = (cut_rows(u.clone(), cuts) * weights.clone()).sum() + u.clone().sum();
            read(u.grad(&loss.backward()).expect("gradient"))
        };
        assert_eq!(gradient(&[true; 3]), vec![1.0; 12]);
        let all: Vec<f32> = (1..=12).map(|i| i as f32 + 1.0).collect();
        assert_eq!(gradient(&[false; 3]), all);
    }

    #[test]
    fn cuts_where_the_modality_says() {
        let u = UnrollConfig::new(6, 2, 0);
        assert!((0..6).all(|j| detached_before_loss_step(Modality::Nog, u, j)));
        assert!((0..6).all(|j| !detached_before_loss_step(Modality::Wig, u, j)));
        let cut: Vec<usize> = (0..6)
            .filter(|&j| detached_before_loss_step(Modality::Wig, UnrollConfig::new(6, 0, 2), j))
            .collect();
        assert_eq!(cut, vec![2, 4]);
        let cut: Vec<usize> = (0..7)
            .filter(|&j| detached_before_loss_step(Modality::Wig, UnrollConfig::new(7, 0, 3), j))
            .collect();
        assert_eq!(cut, vec![3, 6]);
        // k = 1 makes WIG identical to NOG.
        assert!((0..6).all(|j| detached_before_loss_step(
            Modality::Wig,
            UnrollConfig::new(6, 0, 1),
            j
        ) == (j > 0)));
    }
}
