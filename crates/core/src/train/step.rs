//! The stepping seam: a [`HybridStep`] advances a batch of flattened states by one learned step
//! of the hybrid simulator — the system's coarse solver (differentiable or not) combined with
//! the network in the configured mode — at one of its parameter values. Each system builds its
//! own in its folder; training, evaluation and rollouts only see a
//! [`Stepper`].

use std::sync::Arc;

use burn::tensor::{Device, Tensor};

use super::error::TrainError;
use crate::nets::Forward;

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
    /// solver when the system's solver is differentiable and `u` is tracked. By default the
    /// step of one group ([`HybridStep::step_sizes`] of `[size]`).
    fn step(
        &self,
        net: &dyn Forward,
        size: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.step_sizes(net, &[size], u, channel)
    }

    /// One learned step of `sizes.len()` equal row groups at once, group `k` at parameter
    /// index `sizes[k]` (group-major `u [groups·rows, values]`, `channel` from
    /// [`Stepper::sizes_channel`]): the solver per group (or stacked), the network called
    /// once on the whole batch — so an ensemble's members ([`crate::nets::Ensemble`],
    /// one group each) step together, and a test set of every size is one batch.
    fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError>;
}

/// A solver applied to `sizes.len()` equal row groups of `u [groups·rows, values]`, group `k`
/// with `solve(sizes[k], rows)`: each group narrowed out, solved, and the results concatenated
/// (one solve when there is one group).
pub fn solve_groups_apart(
    sizes: &[usize],
    u: Tensor<2>,
    solve: impl Fn(usize, Tensor<2>) -> Result<Tensor<2>, TrainError>,
) -> Result<Tensor<2>, TrainError> {
    if let [size] = sizes {
        return solve(*size, u);
    }
    let [batch, _] = u.dims();
    let rows = batch / sizes.len().max(1);
    let parts = sizes
        .iter()
        .enumerate()
        .map(|(k, &size)| solve(size, u.clone().narrow(0, k * rows, rows)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tensor::cat(parts, 0))
}

/// `0, 1, …, groups − 1`: every parameter index once, in order (a test set of every size).
pub fn every_size(groups: usize) -> Vec<usize> {
    (0..groups).collect()
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
        self.sizes_channel(&every_size(groups), rows)
    }

    /// The constant input channel of `sizes.len()` groups of `rows` rows, group `k` at
    /// parameter index `sizes[k]`: `[groups·rows, 1]`.
    pub fn sizes_channel(&self, sizes: &[usize], rows: usize) -> Tensor<2> {
        let values: Vec<f32> = sizes
            .iter()
            .flat_map(|&size| std::iter::repeat_n(self.0.channel(size) as f32, rows))
            .collect();
        Tensor::<2>::from_data(
            burn::tensor::TensorData::new(values, [sizes.len() * rows, 1]),
            &self.0.device(),
        )
    }

    /// One learned step of `groups` equal row groups, group `k` at parameter index `k`:
    /// `u [groups·rows, values] → [groups·rows, values]` ([`HybridStep::step_sizes`]).
    pub fn step_groups(
        &self,
        net: &dyn Forward,
        groups: usize,
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.0.step_sizes(net, &every_size(groups), u, channel)
    }

    /// One learned step of row groups, group `k` at parameter index `sizes[k]`
    /// ([`HybridStep::step_sizes`]).
    pub fn step_sizes(
        &self,
        net: &dyn Forward,
        sizes: &[usize],
        u: Tensor<2>,
        channel: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.0.step_sizes(net, sizes, u, channel)
    }

    /// One learned step at parameter index `size`: `u [batch, values] → [batch, values]`.
    pub fn step(
        &self,
        net: &dyn Forward,
        size: usize,
        u: Tensor<2>,
        scale: Tensor<2>,
    ) -> Result<Tensor<2>, TrainError> {
        self.0.step(net, size, u, scale)
    }
}
