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
