//! The periodic 3-tap convolution of the 1-D networks (ResNet1D, the dilated ResNet, the U-Net),
//! in the grid layout `[C, N, B]`.

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use crate::counted::matmul;
use crate::nets::frame::FrameLayer;
use crate::nets::grid::periodic_taps;
use crate::nets::init::weight_and_bias;
use crate::nets::InitRng;

/// Kernel width of every convolution.
pub const KERNEL: usize = 3;

/// A 3-tap convolution with bias on a periodic domain: `[C_in, N, B] → [C_out, N, B]` (the
/// grid layout).
#[derive(Module, Debug)]
pub struct PeriodicConv1d {
    /// `[C_out, C_in, 3]`; tap `t` reads the point at offset `t − 1` (cross-correlation).
    pub weight: Param<Tensor<3>>,
    /// `[C_out]`.
    pub bias: Param<Tensor<1>>,
}

impl PeriodicConv1d {
    /// `[C_in, N, B] → [C_out, N, B]` in the grid layout ([`crate::nets::grid`]): the three taps of
    /// the periodic stencil gathered as `[3·C_in, N·B]` (row `3c + t`) and one matmul with the
    /// weight viewed as `[C_out, 3·C_in]`, plus the bias. The same function as `conv1d` on the
    /// circularly padded input (batch-first), as one gemm (see the book, docs/src/training-speed.md).
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        self.forward_dilated(x, 1)
    }

    /// The same convolution with its taps `dilation` points apart (tap `t` reads offset
    /// `(t − 1)·dilation`, periodically): `[C_in, N, B] → [C_out, N, B]`.
    pub fn forward_dilated(&self, x: Tensor<3>, dilation: usize) -> Tensor<3> {
        let [_, n, batch] = x.dims();
        let [channels_out, channels_in, _] = self.weight.dims();
        let weight = self
            .weight
            .val()
            .reshape([channels_out, KERNEL * channels_in]);
        let out =
            matmul(weight, periodic_taps(x, dilation)) + self.bias.val().reshape([channels_out, 1]);
        out.reshape([channels_out, n, batch])
    }
}

impl FrameLayer for PeriodicConv1d {
    /// PyTorch's default init: weight then bias from `U(−1/√(3·C_in), 1/√(3·C_in))`.
    fn init(channels_in: usize, channels_out: usize, device: &Device, rng: &mut InitRng) -> Self {
        let shape = [channels_out, channels_in, KERNEL];
        let (weight, bias) =
            weight_and_bias(shape, channels_in * KERNEL, channels_out, device, rng);
        Self { weight, bias }
    }

    fn lift(&self, x: Tensor<3>) -> Tensor<3> {
        self.forward(x)
    }

    fn project(&self, x: Tensor<3>) -> Tensor<3> {
        self.forward(x)
    }

    fn flops(channels_in: f64, channels_out: f64, points: f64) -> f64 {
        conv_flops(channels_in, channels_out, points)
    }
}

/// FLOPs of one 3-tap conv `ci → co` over `points`: `2·3·ci·co` MAC flops and `co` bias adds
/// per point.
pub(crate) fn conv_flops(ci: f64, co: f64, points: f64) -> f64 {
    (6.0 * ci * co + co) * points
}
