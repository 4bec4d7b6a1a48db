//! The stepping seam: a [`HybridStep`] advances a batch of flattened states by one learned step
//! of the hybrid simulator — the system's coarse solver (differentiable or not) combined with
//! the network in the configured mode — at one of its parameter values. Each system builds its
//! own in its folder; training, evaluation and rollouts only see a
//! [`Stepper`].

use std::sync::Arc;

use burn::tensor::{Device, Tensor};

use super::error::TrainError;
use crate::numerics::nets::Net;

/// One learned step of a system's hybrid simulator, for each of its parameter values.
pub trait HybridStep: std::fmt::Debug {
    /// The device the solvers live on.
    fn device(&self) -> Device;

    /// The parameter value (KS: scale `s`; Kolmogorov: Re) of parameter index `size`.
    fn parameter(&self, size: usize) -> f64;

    /// The network's constant input channel of parameter index `size` (KS: `s`; Kolmogorov:
    /// `Re/1000`).
    fn channel(&self, size: usize) -> f64;

    /// One learned step at parameter index `size`: `u [batch, values] → [batch, values]`;
    /// `channel` is [`Stepper::scale_channel`] (`[batch, 1]`). Gradients flow through the
    /// solver when the system's solver is differentiable and `u` is tracked.
    fn step(
        &self,
        net: &Net,
        size: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError>;

    /// One learned step of `groups` equal row groups at once, group `k` at parameter index `k`
    /// (size-major `u [groups·rows, values]`, `channel` from [`Stepper::groups_channel`]).
    /// By default each group steps on its own ([`step_groups_apart`]); a system whose solver
    /// stacks its operators per parameter steps them as one batch.
    fn step_groups(
        &self,
        net: &Net,
        groups: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        step_groups_apart(self, net, groups, u, channel)
    }
}

/// [`HybridStep::step_groups`] one group at a time: each group's rows narrowed out, stepped
/// at its parameter index, and the results concatenated.
pub fn step_groups_apart<S: HybridStep + ?Sized>(
    step: &S,
    net: &Net,
    groups: usize,
    u: Tensor<2>,
    channel: Tensor<2>,
) -> Result<Tensor<2>, TrainError> {
    let [batch, _] = u.dims();
    let rows = batch / groups.max(1);
    let parts = (0..groups)
        .map(|k| {
            let part = |t: &Tensor<2>| t.clone().narrow(0, k * rows, rows);
            step.step(net, k, part(&u), part(&channel))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tensor::cat(parts, 0))
}

/// A system's [`HybridStep`], shared.
#[derive(Debug, Clone)]
pub struct Stepper(Arc<dyn HybridStep>);

impl Stepper {
    /// Wraps a system's step.
    pub fn new(step: impl HybridStep + 'static) -> Self {
        Self(Arc::new(step))
    }

    /// The device the solvers live on.
    pub fn device(&self) -> Device {
        self.0.device()
    }

    /// The parameter value of parameter index `size`.
    pub fn scale(&self, size: usize) -> f64 {
        self.0.parameter(size)
    }

    /// The constant input channel of parameter index `size` for a batch of `batch` rows:
    /// `[batch, 1]`.
    pub fn scale_channel(&self, size: usize, batch: usize) -> Tensor<2> {
        Tensor::<2>::full([batch, 1], self.0.channel(size) as f32, &self.0.device())
    }

    /// The constant input channel of `groups` groups of `rows` rows, group `k` at parameter
    /// index `k`: `[groups·rows, 1]`.
    pub fn groups_channel(&self, groups: usize, rows: usize) -> Tensor<2> {
        let values: Vec<f32> = (0..groups)
            .flat_map(|k| std::iter::repeat_n(self.0.channel(k) as f32, rows))
            .collect();
        Tensor::<2>::from_data(
            burn::tensor::TensorData::new(values, [groups * rows, 1]),
            &self.0.device(),
        )
    }

    /// One learned step of `groups` equal row groups, group `k` at parameter index `k`:
    /// `u [groups·rows, values] → [groups·rows, values]` ([`HybridStep::step_groups`]).
    pub fn step_groups(
        &self,
        net: &Net,
        groups: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.0.step_groups(net, groups, u, channel)
    }

    /// One learned step at parameter index `size`: `u [batch, values] → [batch, values]`.
    pub fn step(
        &self,
        net: &Net,
        size: usize,
        u: Tensor<2>,
        scale: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.0.step(net, size, u, scale)
    }
}
