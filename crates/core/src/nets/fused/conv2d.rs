//! One 3×3 periodic convolution with its bias, `y = W·taps(x) + b` — the 2-D ResNet's output
//! convolution — as one op of burn's backend extension ([`FusedConv2dOps`]), in the grid layout
//! `[C, H, W, B]` ([`crate::nets::grid2d`]): on the CPU backend (burn-flex, f32) a hand-written
//! forward (taps gathered by hand, one gemm `[C_out, 9·C_in] × [9·C_in, H·W·B]`, the bias in
//! place) and backward (the bias sums, two gemms with transposed views, the taps' adjoint), one
//! autodiff node. Elsewhere the network runs its composite code (`PeriodicConv2d::forward`).

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, Dispatch, Flex, TensorMetadata};
use burn::tensor::Tensor;

use super::block::{add_rows, floats, matrix, row_sums};
use super::node::{hand_written_node, record};
use crate::counted::{stacked_product, Matrix};
use crate::nets::grid2d::{taps2d, taps2d_adjoint, TAPS_2D};
use crate::nets::layers::conv2d::PeriodicConv2d;

/// `conv` (3×3) on `x: [C_in, H, W, B]`: `[C_out, H, W, B]`, the fused op (the caller checked
/// `fused_block::fuses`).
pub fn conv2d_layer(x: Tensor<4>, conv: &PeriodicConv2d) -> Tensor<4> {
    #[cfg(test)]
    FUSED_CONVS_2D.with(|calls| calls.set(calls.get() + 1));
    Tensor::from_dispatch(<Dispatch as FusedConv2dOps>::fused_conv2d(
        x.into_dispatch(),
        conv.weight.val().into_dispatch(),
        conv.bias.val().into_dispatch(),
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused 2-D convolutions run on this thread (the tests check the fused path is taken).
    pub(crate) static FUSED_CONVS_2D: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The fused 3×3 convolution. `x: [C_in, H, W, B]`, weight `[C_out, C_in, 3, 3]`, bias
/// `[C_out]`.
#[backend_extension(Flex, Autodiff)]
pub trait FusedConv2dOps: Backend {
    /// `[C_in, H, W, B] → [C_out, H, W, B]`.
    fn fused_conv2d(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`FusedConv2dOps`]: the forward keeping what the
/// backward reads, and the backward.
pub trait FusedConv2dTraining: Backend {
    /// Saved by the forward for the backward.
    type Conv2dState: Clone + Send + std::fmt::Debug + 'static;

    /// The output and the state.
    fn conv2d_forward(inputs: [FloatTensor<Self>; 3]) -> (FloatTensor<Self>, Self::Conv2dState);

    /// The gradients `[x, weight, bias]` from the output's gradient `[C_out, H, W, B]`.
    fn conv2d_backward(state: Self::Conv2dState, grad: FloatTensor<Self>)
        -> [FloatTensor<Self>; 3];
}

impl FusedConv2dOps for Flex {
    fn fused_conv2d(x: FlexTensor, weight: FlexTensor, bias: FlexTensor) -> FlexTensor {
        Flex::conv2d_forward([x, weight, bias]).0
    }
}

/// burn-flex's saved state: the tap matrix `[9·C_in, H·W·B]`, the weight (read as
/// `[C_out, 9·C_in]`) and the input's shape `[C_in, H, W, B]`.
#[derive(Clone, Debug)]
pub struct FlexConv2dState {
    taps: Vec<f32>,
    weight: FlexTensor,
    dims: [usize; 4],
}

impl FusedConv2dTraining for Flex {
    type Conv2dState = FlexConv2dState;

    fn conv2d_forward([x, weight, bias]: [FlexTensor; 3]) -> (FlexTensor, FlexConv2dState) {
        let dims: [usize; 4] = x.shape().dims();
        let [c_in, h, w, b] = dims;
        let (c_out, columns) = (weight.shape()[0], h * w * b);
        let taps = taps2d(&floats(&x), dims);
        let mut out = stacked_product(
            1,
            Matrix::new(&floats(&weight), c_out, TAPS_2D * c_in),
            Matrix::new(&taps, TAPS_2D * c_in, columns),
        );
        add_rows(&mut out, &floats(&bias), columns);
        let state = FlexConv2dState { taps, weight, dims };
        (matrix(out, [c_out, h, w, b]), state)
    }

    fn conv2d_backward(state: FlexConv2dState, grad: FlexTensor) -> [FlexTensor; 3] {
        let [c_in, h, w, b] = state.dims;
        let (c_out, columns) = (state.weight.shape()[0], h * w * b);
        let g = floats(&grad);
        let bias = row_sums(&g, columns);
        let rows = Matrix::new(&g, c_out, columns);
        let taps = Matrix::new(&state.taps, TAPS_2D * c_in, columns);
        let weight = stacked_product(1, rows, taps.t());
        let weights = floats(&state.weight);
        let transposed = Matrix::new(&weights, c_out, TAPS_2D * c_in).t();
        let dx = taps2d_adjoint(&stacked_product(1, transposed, rows), state.dims);
        [
            matrix(dx, state.dims),
            matrix(weight, [c_out, c_in, 3, 3]),
            matrix(bias, [c_out]),
        ]
    }
}

hand_written_node!(Conv2dNode: FusedConv2dTraining::conv2d_backward(Conv2dState; 3));

impl<B: FusedConv2dOps + FusedConv2dTraining, C: CheckpointStrategy> FusedConv2dOps
    for Autodiff<B, C>
{
    /// One node with three parents ([`record`]).
    fn fused_conv2d(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        record::<B, C, Conv2dNode, 3>([x, weight, bias], B::conv2d_forward, |[x, weight, bias]| {
            B::fused_conv2d(x, weight, bias)
        })
    }
}
