//! The 2-D ResNet's residual block `y = LeakyReLU(S·x + b_s + W₂·taps(LeakyReLU(W₁·taps(x) +
//! b₁)) + b₂)` (3×3 periodic convolutions `W₁: C_in → C_out`, `W₂: C_out → C_out`, the 1×1 skip
//! `S: C_in → C_out`) as one op of burn's backend extension ([`FusedBlock2dOps`]), in the grid
//! layout `[C, H, W, B]` ([`crate::nets::grid2d`]). On the CPU backend (burn-flex, f32) a
//! hand-written forward and backward, one autodiff node per block.
//!
//! The skip is folded into the second convolution's gemm along its inner dimension: the
//! weight `[W₂ | S]` (`[C_out, 9·C_out + C_in]`) times the tap matrix of the hidden layer with
//! `x` appended as `C_in` more rows (`[9·C_out + C_in, H·W·B]`), so the product sums the skip
//! and the convolution, with no wasted multiply (stacking `S` as rows beside `W₁` in the
//! first gemm would multiply zeros in 8 of its 9 tap columns) and no separate add. Forward: 2
//! gemms, the taps gathered by hand, biases (`b₂ + b_s` as one), LeakyReLU and the sum in
//! place. Backward: 4 gemms with transposed views, the taps' adjoints, bias sums and branch-free
//! activation masks. Elsewhere (wgpu, WebGPU, f64, [`crate::nets::fusion::Fusion::Composite`] or
//! `Activation`) the network runs its composite code (`Block2d::forward`).

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, Dispatch, Flex, TensorMetadata};
use burn::tensor::Tensor;

use super::block::{add_rows, floats, leaky, mask, matrix, row_sums};
use super::node::{hand_written_node, record};
use crate::counted::{stacked_product, Matrix};
use crate::nets::grid2d::{add_into, extend_taps2d, taps2d, taps2d_adjoint, TAPS_2D};
use crate::nets::layers::conv2d::PeriodicConv2d;
use crate::nets::LEAKY_SLOPE;

/// The block on `x: [C_in, H, W, B]` with `conv1` (3×3, `C_in → C_out`), `conv2` (3×3,
/// `C_out → C_out`) and `skip` (1×1, `C_in → C_out`): `[C_out, H, W, B]`, the fused op (the
/// caller checked `fused_block::fuses`).
pub fn residual_block2d(
    x: Tensor<4>,
    conv1: &PeriodicConv2d,
    conv2: &PeriodicConv2d,
    skip: &PeriodicConv2d,
) -> Tensor<4> {
    #[cfg(test)]
    FUSED_BLOCKS_2D.with(|calls| calls.set(calls.get() + 1));
    Tensor::from_dispatch(<Dispatch as FusedBlock2dOps>::fused_block2d(
        x.into_dispatch(),
        conv1.weight.val().into_dispatch(),
        conv1.bias.val().into_dispatch(),
        conv2.weight.val().into_dispatch(),
        conv2.bias.val().into_dispatch(),
        skip.weight.val().into_dispatch(),
        skip.bias.val().into_dispatch(),
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused 2-D blocks run on this thread (the tests check the fused path is taken).
    pub(crate) static FUSED_BLOCKS_2D: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The fused 2-D residual block. Inputs `[x, w1, b1, w2, b2, ws, bs]`: `x: [C_in, H, W, B]`,
/// `w1: [C_out, C_in, 3, 3]`, `w2: [C_out, C_out, 3, 3]`, `ws: [C_out, C_in, 1, 1]`, biases
/// `[C_out]`; both activations LeakyReLU of slope [`LEAKY_SLOPE`], the network's.
#[backend_extension(Flex, Autodiff)]
pub trait FusedBlock2dOps: Backend {
    /// `[C_in, H, W, B] → [C_out, H, W, B]`.
    fn fused_block2d(
        x: FloatTensor<Self>,
        w1: FloatTensor<Self>,
        b1: FloatTensor<Self>,
        w2: FloatTensor<Self>,
        b2: FloatTensor<Self>,
        ws: FloatTensor<Self>,
        bs: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`FusedBlock2dOps`]: the forward keeping what the
/// backward reads, and the backward.
pub trait FusedBlock2dTraining: Backend {
    /// Saved by the forward for the backward.
    type Block2dState: Clone + Send + std::fmt::Debug + 'static;

    /// The block's output and its state.
    fn block2d_forward(inputs: [FloatTensor<Self>; 7]) -> (FloatTensor<Self>, Self::Block2dState);

    /// The gradients `[x, w1, b1, w2, b2, ws, bs]` from the output's gradient
    /// `[C_out, H, W, B]`.
    fn block2d_backward(
        state: Self::Block2dState,
        grad: FloatTensor<Self>,
    ) -> [FloatTensor<Self>; 7];
}

impl FusedBlock2dOps for Flex {
    fn fused_block2d(
        x: FlexTensor,
        w1: FlexTensor,
        b1: FlexTensor,
        w2: FlexTensor,
        b2: FlexTensor,
        ws: FlexTensor,
        bs: FlexTensor,
    ) -> FlexTensor {
        Flex::block2d_forward([x, w1, b1, w2, b2, ws, bs]).0
    }
}

/// The shapes of one call: `x: [C_in, H, W, B]` and `C_out`.
#[derive(Clone, Copy, Debug)]
struct Shapes {
    x: [usize; 4],
    out: usize,
}

impl Shapes {
    /// `H·W·B`: the columns of every matrix.
    fn columns(&self) -> usize {
        self.x[1] * self.x[2] * self.x[3]
    }

    /// `C_in`.
    fn input(&self) -> usize {
        self.x[0]
    }

    /// The inner dimension of the second gemm, `9·C_out + C_in` (taps, then the skip's input).
    fn inner2(&self) -> usize {
        TAPS_2D * self.out + self.input()
    }

    /// The hidden layer's and the output's shape `[C_out, H, W, B]`.
    fn hidden(&self) -> [usize; 4] {
        [self.out, self.x[1], self.x[2], self.x[3]]
    }

    /// `[rows, H·W·B]` over `values`.
    fn rows<'a>(&self, values: &'a [f32], rows: usize) -> Matrix<'a> {
        Matrix::new(values, rows, self.columns())
    }
}

/// burn-flex's saved state: the two tap matrices (`[9·C_in, H·W·B]`, and `[9·C_out + C_in,
/// H·W·B]` with `x` in its last rows), the two pre-activations `[C_out, H·W·B]`, the weights
/// `W₁` (`[C_out, 9·C_in]`) and `[W₂ | S]`, the shapes and the slope.
#[derive(Clone, Debug)]
pub struct FlexBlock2dState {
    taps1: Vec<f32>,
    taps2: Vec<f32>,
    pre1: Vec<f32>,
    pre2: Vec<f32>,
    w1: FlexTensor,
    w2s: Vec<f32>,
    shapes: Shapes,
    slope: f32,
}

/// `[W₂ | S]`: row `o` is `W₂[o]` (`9·C_out` values) then `S[o]` (`C_in` values).
fn joined_weight(w2: &[f32], ws: &[f32], shapes: Shapes) -> Vec<f32> {
    let mut out = Vec::with_capacity(shapes.out * shapes.inner2());
    let taps = w2.chunks_exact(TAPS_2D * shapes.out);
    for (conv, skip) in taps.zip(ws.chunks_exact(shapes.input())) {
        out.extend_from_slice(conv);
        out.extend_from_slice(skip);
    }
    out
}

/// The columns of `[C_out, 9·C_out + C_in]` split back into `W₂`'s and `S`'s gradients.
fn split_weight(d: &[f32], shapes: Shapes) -> (Vec<f32>, Vec<f32>) {
    let conv = TAPS_2D * shapes.out;
    let mut dw2 = Vec::with_capacity(shapes.out * conv);
    let mut ds = Vec::with_capacity(shapes.out * shapes.input());
    for row in d.chunks_exact(shapes.inner2()) {
        dw2.extend_from_slice(&row[..conv]);
        ds.extend_from_slice(&row[conv..]);
    }
    (dw2, ds)
}

impl FusedBlock2dTraining for Flex {
    type Block2dState = FlexBlock2dState;

    fn block2d_forward(
        [x, w1, b1, w2, b2, ws, bs]: [FlexTensor; 7],
    ) -> (FlexTensor, FlexBlock2dState) {
        let shapes = Shapes {
            x: x.shape().dims(),
            out: w1.shape()[0],
        };
        let (columns, c_in, slope) = (shapes.columns(), shapes.input(), LEAKY_SLOPE as f32);
        let x_values = floats(&x);
        let taps1 = taps2d(&x_values, shapes.x);
        let w1_values = floats(&w1);
        let weight1 = Matrix::new(&w1_values, shapes.out, TAPS_2D * c_in);
        let mut pre1 = stacked_product(1, weight1, shapes.rows(&taps1, TAPS_2D * c_in));
        add_rows(&mut pre1, &floats(&b1), columns);
        let hidden: Vec<f32> = pre1.iter().map(|&v| leaky(v, slope)).collect();
        let mut taps2 = Vec::with_capacity(shapes.inner2() * columns);
        extend_taps2d(&mut taps2, &hidden, shapes.hidden());
        taps2.extend_from_slice(&x_values);
        let w2s = joined_weight(&floats(&w2), &floats(&ws), shapes);
        let weight2 = Matrix::new(&w2s, shapes.out, shapes.inner2());
        let mut pre2 = stacked_product(1, weight2, shapes.rows(&taps2, shapes.inner2()));
        let (b2, bs) = (floats(&b2), floats(&bs));
        let bias2: Vec<f32> = b2.iter().zip(bs.iter()).map(|(a, b)| a + b).collect();
        add_rows(&mut pre2, &bias2, columns);
        let out: Vec<f32> = pre2.iter().map(|&v| leaky(v, slope)).collect();
        let state = FlexBlock2dState {
            taps1,
            taps2,
            pre1,
            pre2,
            w1,
            w2s,
            shapes,
            slope,
        };
        (matrix(out, shapes.hidden()), state)
    }

    fn block2d_backward(state: FlexBlock2dState, grad: FlexTensor) -> [FlexTensor; 7] {
        let shapes = state.shapes;
        let (columns, c_in, c_out) = (shapes.columns(), shapes.input(), shapes.out);
        // Through the outer activation: the second conv's and the skip's gradient.
        let mut g2 = floats(&grad).into_owned();
        mask(&mut g2, &state.pre2, state.slope);
        let db2 = row_sums(&g2, columns);
        let g2_rows = shapes.rows(&g2, c_out);
        let taps2 = shapes.rows(&state.taps2, shapes.inner2());
        let (dw2, ds) = split_weight(&stacked_product(1, g2_rows, taps2.t()), shapes);
        let w2s = Matrix::new(&state.w2s, c_out, shapes.inner2());
        let dtaps2 = stacked_product(1, w2s.t(), g2_rows);
        let (dtaps_hidden, dx_skip) = dtaps2.split_at(TAPS_2D * c_out * columns);
        // Through the inner activation: the first conv's gradient.
        let mut g1 = taps2d_adjoint(dtaps_hidden, shapes.hidden());
        mask(&mut g1, &state.pre1, state.slope);
        let db1 = row_sums(&g1, columns);
        let g1_rows = shapes.rows(&g1, c_out);
        let dw1 = stacked_product(1, g1_rows, shapes.rows(&state.taps1, TAPS_2D * c_in).t());
        let w1 = floats(&state.w1);
        let dtaps1 = stacked_product(1, Matrix::new(&w1, c_out, TAPS_2D * c_in).t(), g1_rows);
        let mut dx = taps2d_adjoint(&dtaps1, shapes.x);
        add_into(&mut dx, dx_skip);
        [
            matrix(dx, shapes.x),
            matrix(dw1, [c_out, c_in, 3, 3]),
            matrix(db1, [c_out]),
            matrix(dw2, [c_out, c_out, 3, 3]),
            matrix(db2.clone(), [c_out]),
            matrix(ds, [c_out, c_in, 1, 1]),
            matrix(db2, [c_out]),
        ]
    }
}

hand_written_node!(Block2dNode: FusedBlock2dTraining::block2d_backward(Block2dState; 7));

impl<B: FusedBlock2dOps + FusedBlock2dTraining, C: CheckpointStrategy> FusedBlock2dOps
    for Autodiff<B, C>
{
    /// One node with seven parents ([`record`]).
    fn fused_block2d(
        x: FloatTensor<Self>,
        w1: FloatTensor<Self>,
        b1: FloatTensor<Self>,
        w2: FloatTensor<Self>,
        b2: FloatTensor<Self>,
        ws: FloatTensor<Self>,
        bs: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        record::<B, C, Block2dNode, 7>(
            [x, w1, b1, w2, b2, ws, bs],
            B::block2d_forward,
            |[x, w1, b1, w2, b2, ws, bs]| B::fused_block2d(x, w1, b1, w2, b2, ws, bs),
        )
    }
}
