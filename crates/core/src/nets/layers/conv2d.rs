//! The periodic `K × K` convolution of the 2-D ResNet (batch-first `[B, C, N, N]`).

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use crate::counted::matmul;
use crate::nets::init::weight_and_bias;
use crate::nets::padding::circular_pad_axis;
use crate::nets::InitRng;

/// A `K × K` convolution with bias on a doubly periodic grid (`K` = 1 or 3):
/// `[batch, C_in, N, N] → [batch, C_out, N, N]`.
#[derive(Module, Debug)]
pub struct PeriodicConv2d {
    /// `[C_out, C_in, K, K]`; tap `(a, b)` reads the point at offset `(a − K/2, b − K/2)`
    /// (rows, columns; cross-correlation).
    pub weight: Param<Tensor<4>>,
    /// `[C_out]`.
    pub bias: Param<Tensor<1>>,
}

impl PeriodicConv2d {
    /// PyTorch's default init: weight then bias from `U(−1/√(K²·C_in), 1/√(K²·C_in))`.
    pub fn init(
        channels_in: usize,
        channels_out: usize,
        kernel: usize,
        device: &Device,
        rng: &mut InitRng,
    ) -> Self {
        let shape = [channels_out, channels_in, kernel, kernel];
        let fan_in = channels_in * kernel * kernel;
        let (weight, bias) = weight_and_bias(shape, fan_in, channels_out, device, rng);
        Self { weight, bias }
    }

    /// `[batch, C_in, N, M] → [batch, C_out, N, M]`: the `K²` shifted copies of the periodically
    /// padded input stacked as `[batch, K²·C_in, N·M]` (row `(a·K + b)·C_in + c`) and one
    /// batched matmul with the weight viewed as `[C_out, K²·C_in]`.
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let [batch, channels_in, rows, columns] = x.dims();
        let [channels_out, _, kernel, _] = self.weight.dims();
        let half = kernel / 2;
        let padded = circular_pad_axis(circular_pad_axis(x, half, 2), half, 3);
        let taps: Vec<Tensor<4>> = (0..kernel)
            .flat_map(|a| (0..kernel).map(move |b| (a, b)))
            .map(|(a, b)| padded.clone().narrow(2, a, rows).narrow(3, b, columns))
            .collect();
        let stacked =
            Tensor::cat(taps, 1).reshape([batch, kernel * kernel * channels_in, rows * columns]);
        let weight = self.weight.val().permute([0, 2, 3, 1]).reshape([
            1,
            channels_out,
            kernel * kernel * channels_in,
        ]);
        (matmul(weight, stacked) + self.bias.val().reshape([1, channels_out, 1])).reshape([
            batch,
            channels_out,
            rows,
            columns,
        ])
    }
}
