//! One periodic 3-tap convolution with its bias and, optionally, LeakyReLU — `y = σ(W·taps(x) +
//! b)` with the taps `dilation` points apart — as one op of burn's backend extension
//! ([`FusedConvOps`]), in the grid layout `[C, N, B]` ([`crate::nets::grid`]): on the CPU backend
//! (burn-flex) a hand-written forward (taps gathered by hand, one gemm, bias and activation in
//! place) and backward (activation mask, bias sums, two gemms, the taps' adjoint), one autodiff
//! node per convolution. The dilated ResNet's blocks and the U-Net are made of these.
//! Everywhere else (wgpu, WebGPU, f64, [`Fusion::Composite`] or [`Fusion::Activation`])
//! [`conv_layer`] runs the composite of plain burn ops.

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, DType, Dispatch, Flex, TensorMetadata};
use burn::tensor::{Device, Tensor};

use super::block::{add_rows, floats, leaky, mask, matrix, row_sums, taps, taps_adjoint};
use super::node::{hand_written_node, record};
use crate::counted::{stacked_product, Matrix};
use crate::nets::fusion::{fusion, leaky_relu, Fusion};
use crate::nets::grid::TAPS;
use crate::nets::layers::conv1d::PeriodicConv1d;

/// `conv` on `x: [C_in, N, B]` at `dilation`, then LeakyReLU of `slope` where given:
/// `[C_out, N, B]`. The fused op where it applies (burn-flex, f32, [`Fusion::Block`]).
pub fn conv_layer(
    x: Tensor<3>,
    conv: &PeriodicConv1d,
    dilation: usize,
    slope: Option<f64>,
) -> Tensor<3> {
    let fused = fusion() == Fusion::Block
        && x.device() == Device::flex()
        && x.dtype() == DType::F32
        && conv.weight.val().dtype() == DType::F32;
    if !fused {
        let y = conv.forward_dilated(x, dilation);
        return match slope {
            Some(slope) => leaky_relu(y, slope),
            None => y,
        };
    }
    #[cfg(test)]
    FUSED_CONVS.with(|calls| calls.set(calls.get() + 1));
    let layer = Layer { dilation, slope };
    Tensor::from_dispatch(<Dispatch as FusedConvOps>::fused_conv(
        x.into_dispatch(),
        conv.weight.val().into_dispatch(),
        conv.bias.val().into_dispatch(),
        layer,
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused convolutions run on this thread (the tests check the fused path is taken).
    pub(crate) static FUSED_CONVS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A convolution's dilation and its activation's slope (`None`: no activation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layer {
    /// Points between two taps.
    pub dilation: usize,
    /// LeakyReLU's slope, or none.
    pub slope: Option<f64>,
}

/// The fused convolution. `x: [C_in, N, B]`, weight `[C_out, C_in, 3]`, bias `[C_out]`.
#[backend_extension(Flex, Autodiff)]
pub trait FusedConvOps: Backend {
    /// `[C_in, N, B] → [C_out, N, B]`.
    fn fused_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        layer: Layer,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`FusedConvOps`]: the forward keeping what the backward
/// reads, and the backward.
pub trait FusedConvTraining: Backend {
    /// Saved by the forward for the backward.
    type ConvState: Clone + Send + std::fmt::Debug + 'static;

    /// The output and the state.
    fn conv_forward(
        inputs: [FloatTensor<Self>; 3],
        layer: Layer,
    ) -> (FloatTensor<Self>, Self::ConvState);

    /// The gradients `[x, weight, bias]` from the output's gradient `[C_out, N, B]`.
    fn conv_backward(state: Self::ConvState, grad: FloatTensor<Self>) -> [FloatTensor<Self>; 3];
}

impl FusedConvOps for Flex {
    fn fused_conv(x: FlexTensor, weight: FlexTensor, bias: FlexTensor, layer: Layer) -> FlexTensor {
        Flex::conv_forward([x, weight, bias], layer).0
    }
}

/// burn-flex's saved state: the tap matrix `[3C_in, N·B]`, the pre-activation `[C_out, N·B]`
/// (with an activation), the weight (read as `[C_out, 3C_in]`), the input's shape and the layer.
#[derive(Clone, Debug)]
pub struct FlexConvState {
    taps: Vec<f32>,
    pre: Option<Vec<f32>>,
    weight: FlexTensor,
    dims: [usize; 3],
    layer: Layer,
}

impl FlexConvState {
    /// The weight `[C_out, C_in, 3]` as the matrix `[C_out, 3C_in]` (row-major, the same values).
    fn weight<'a>(&self, values: &'a [f32]) -> Matrix<'a> {
        let c_out = self.weight.shape()[0];
        Matrix::new(values, c_out, values.len() / c_out)
    }
}

impl FusedConvTraining for Flex {
    type ConvState = FlexConvState;

    fn conv_forward(
        [x, weight, bias]: [FlexTensor; 3],
        layer: Layer,
    ) -> (FlexTensor, FlexConvState) {
        let dims: [usize; 3] = x.shape().dims();
        let [c_in, n, b] = dims;
        let c_out = weight.shape()[0];
        let columns = n * b;
        let taps = taps(&floats(&x), dims, layer.dilation);
        let mut pre = stacked_product(
            1,
            Matrix::new(&floats(&weight), c_out, TAPS * c_in),
            Matrix::new(&taps, TAPS * c_in, columns),
        );
        add_rows(&mut pre, &floats(&bias), columns);
        let (out, pre) = match layer.slope {
            Some(slope) => {
                let out = pre.iter().map(|&v| leaky(v, slope as f32)).collect();
                (out, Some(pre))
            }
            None => (pre, None),
        };
        let state = FlexConvState {
            taps,
            pre,
            weight,
            dims,
            layer,
        };
        (matrix(out, [c_out, n, b]), state)
    }

    fn conv_backward(state: FlexConvState, grad: FlexTensor) -> [FlexTensor; 3] {
        let [c_in, n, b] = state.dims;
        let c_out = state.weight.shape()[0];
        let columns = n * b;
        let mut g = floats(&grad).into_owned();
        if let (Some(pre), Some(slope)) = (&state.pre, state.layer.slope) {
            mask(&mut g, pre, slope as f32);
        }
        let bias = row_sums(&g, columns);
        let rows = Matrix::new(&g, c_out, columns);
        let taps = Matrix::new(&state.taps, TAPS * c_in, columns);
        let weight = stacked_product(1, rows, taps.t());
        let weights = floats(&state.weight);
        let dtaps = stacked_product(1, state.weight(&weights).t(), rows);
        let dx = taps_adjoint(&dtaps, state.dims, state.layer.dilation);
        [
            matrix(dx, [c_in, n, b]),
            matrix(weight, [c_out, c_in, TAPS]),
            matrix(bias, [c_out]),
        ]
    }
}

hand_written_node!(ConvNode: FusedConvTraining::conv_backward(ConvState; 3));

impl<B: FusedConvOps + FusedConvTraining, C: CheckpointStrategy> FusedConvOps for Autodiff<B, C> {
    /// One node with three parents ([`record`]).
    fn fused_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        layer: Layer,
    ) -> FloatTensor<Self> {
        record::<B, C, ConvNode, 3>(
            [x, weight, bias],
            |inputs| B::conv_forward(inputs, layer),
            |[x, weight, bias]| B::fused_conv(x, weight, bias, layer),
        )
    }
}
