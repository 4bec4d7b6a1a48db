//! ResNet1D's residual block `y = LeakyReLU(x + W₂·taps(LeakyReLU(W₁·taps(x) + b₁)) + b₂)` as
//! one op of burn's backend extension ([`FusedBlockOps`]), in the grid layout `[C, N, B]`
//! ([`crate::nets::grid`]): on the CPU backend (burn-flex) a hand-written forward (the periodic taps
//! gathered by hand, two gemms, bias, activation and skip in place) and backward (four gemms
//! with transposed views, the taps' adjoints, bias sums and activation masks by hand), one
//! autodiff node per block. Everywhere else (wgpu, WebGPU, f64) [`residual_block`] runs the
//! composite of plain burn ops.

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, DType, Dispatch, Flex, TensorMetadata};
use burn::tensor::{Device, Tensor, TensorData};

use super::node::{hand_written_node, record};
use crate::counted::{stacked_product, Matrix};
use crate::nets::fusion::{fusion, leaky_relu, Fusion};
use crate::nets::grid::TAPS;
use crate::nets::layers::conv1d::PeriodicConv1d;

/// The block on `x: [C, N, B]` with `conv1`, `conv2` (`C → C`, kernel 3): the fused op where
/// it applies (burn-flex, f32, [`Fusion::Block`]), else the composite.
pub fn residual_block(
    x: Tensor<3>,
    conv1: &PeriodicConv1d,
    conv2: &PeriodicConv1d,
    slope: f64,
) -> Tensor<3> {
    let (w1, b1) = (conv1.weight.val(), conv1.bias.val());
    let (w2, b2) = (conv2.weight.val(), conv2.bias.val());
    if !fuses(&x, &w1, &w2) {
        let h = leaky_relu(conv1.forward(x.clone()), slope);
        return leaky_relu(x + conv2.forward(h), slope);
    }
    fused_residual_block(x, w1, b1, w2, b2, slope)
}

/// Whether the block on `x` with weights `w1`, `w2` runs as the fused op: burn-flex, f32,
/// [`Fusion::Block`].
pub(crate) fn fuses<const D: usize, const W: usize>(
    x: &Tensor<D>,
    w1: &Tensor<W>,
    w2: &Tensor<W>,
) -> bool {
    fusion() == Fusion::Block
        && x.device() == Device::flex()
        && [x.dtype(), w1.dtype(), w2.dtype()]
            .iter()
            .all(|d| *d == DType::F32)
}

/// The fused op on `x: [.., C, N, B]`, weights `[.., C, C, 3]`, biases `[.., C]`: the leading
/// axes (none for one network, the member axis `K` of an ensemble) index independent blocks,
/// each with its own weights.
pub(crate) fn fused_residual_block<const D: usize, const W: usize, const V: usize>(
    x: Tensor<D>,
    w1: Tensor<W>,
    b1: Tensor<V>,
    w2: Tensor<W>,
    b2: Tensor<V>,
    slope: f64,
) -> Tensor<D> {
    #[cfg(test)]
    FUSED_CALLS.with(|calls| calls.set(calls.get() + 1));
    Tensor::from_dispatch(<Dispatch as FusedBlockOps>::fused_residual_block(
        x.into_dispatch(),
        w1.into_dispatch(),
        b1.into_dispatch(),
        w2.into_dispatch(),
        b2.into_dispatch(),
        slope,
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused blocks run on this thread (the tests check the fused path is taken).
    pub(crate) static FUSED_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The fused residual block. `x: [.., C, N, B]`, weights `[.., C, C, 3]`, biases `[.., C]`
/// (the leading axes, if any, index independent blocks: an ensemble's members).
#[backend_extension(Flex, Autodiff)]
pub trait FusedBlockOps: Backend {
    /// `[.., C, N, B] → [.., C, N, B]`.
    fn fused_residual_block(
        x: FloatTensor<Self>,
        w1: FloatTensor<Self>,
        b1: FloatTensor<Self>,
        w2: FloatTensor<Self>,
        b2: FloatTensor<Self>,
        slope: f64,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`FusedBlockOps`]: the forward keeping what the
/// backward reads, and the backward.
pub trait FusedBlockTraining: Backend {
    /// Saved by the forward for the backward.
    type BlockState: Clone + Send + std::fmt::Debug + 'static;

    /// The block's output and its state.
    fn residual_block_forward(
        inputs: [FloatTensor<Self>; 5],
        slope: f64,
    ) -> (FloatTensor<Self>, Self::BlockState);

    /// The gradients `[x, w1, b1, w2, b2]` from the output's gradient `[C, N, B]`.
    fn residual_block_backward(
        state: Self::BlockState,
        grad: FloatTensor<Self>,
    ) -> [FloatTensor<Self>; 5];
}

impl FusedBlockOps for Flex {
    fn fused_residual_block(
        x: FlexTensor,
        w1: FlexTensor,
        b1: FlexTensor,
        w2: FlexTensor,
        b2: FlexTensor,
        slope: f64,
    ) -> FlexTensor {
        Flex::residual_block_forward([x, w1, b1, w2, b2], slope).0
    }
}

/// burn-flex's saved state: the two tap matrices `[K, 3C, N·B]`, the two pre-activations
/// `[K, C, N·B]`, the weights (read as `[K, C, 3C]`), the shapes and the slope (`K` = 1 for one
/// network).
#[derive(Clone, Debug)]
pub struct FlexBlockState {
    taps1: Vec<f32>,
    taps2: Vec<f32>,
    pre1: Vec<f32>,
    pre2: Vec<f32>,
    w1: FlexTensor,
    w2: FlexTensor,
    shapes: BlockShapes,
    slope: f32,
}

/// The shapes of one call: `K` blocks of `C` channels on `N·B` columns, and the inputs' own
/// shapes (the gradients take them).
#[derive(Clone, Debug)]
struct BlockShapes {
    members: usize,
    channels: usize,
    columns: usize,
    /// `[K·C, N, B]`: every block's channels as one tap layout ([`taps`]).
    flat: [usize; 3],
    x: Vec<usize>,
    weight: Vec<usize>,
    bias: Vec<usize>,
}

impl BlockShapes {
    /// From `x: [.., C, N, B]` and the weight's and bias's shapes.
    fn new(x: Vec<usize>, weight: Vec<usize>, bias: Vec<usize>) -> Self {
        let rank = x.len();
        let [c, n, b] = [x[rank - 3], x[rank - 2], x[rank - 1]];
        let members = x[..rank - 3].iter().product();
        Self {
            members,
            channels: c,
            columns: n * b,
            flat: [members * c, n, b],
            x,
            weight,
            bias,
        }
    }

    /// Each block's weights, `[C, 3C]` (the kernel `[C_out, C_in, 3]` row-major, whose column
    /// `3·c_in + tap` is the tap matrices' row).
    fn weights<'a>(&self, values: &'a [f32]) -> Matrix<'a> {
        Matrix::new(values, self.channels, TAPS * self.channels)
    }

    /// Each block's tap matrix, `[3C, N·B]`.
    fn taps<'a>(&self, values: &'a [f32]) -> Matrix<'a> {
        Matrix::new(values, TAPS * self.channels, self.columns)
    }

    /// Each block's channels, `[C, N·B]`.
    fn rows<'a>(&self, values: &'a [f32]) -> Matrix<'a> {
        Matrix::new(values, self.channels, self.columns)
    }
}

impl FusedBlockTraining for Flex {
    type BlockState = FlexBlockState;

    fn residual_block_forward(
        [x, w1, b1, w2, b2]: [FlexTensor; 5],
        slope: f64,
    ) -> (FlexTensor, FlexBlockState) {
        let shapes = BlockShapes::new(x.shape().to_vec(), w1.shape().to_vec(), b1.shape().to_vec());
        let (k, columns, slope) = (shapes.members, shapes.columns, slope as f32);
        let x_values = floats(&x);
        let taps1 = taps(&x_values, shapes.flat, 1);
        let mut pre1 = stacked_product(k, shapes.weights(&floats(&w1)), shapes.taps(&taps1));
        add_rows(&mut pre1, &floats(&b1), columns);
        let hidden: Vec<f32> = pre1.iter().map(|&v| leaky(v, slope)).collect();
        let taps2 = taps(&hidden, shapes.flat, 1);
        let mut pre2 = stacked_product(k, shapes.weights(&floats(&w2)), shapes.taps(&taps2));
        add_rows(&mut pre2, &floats(&b2), columns);
        for (p, &v) in pre2.iter_mut().zip(x_values.iter()) {
            *p += v;
        }
        let out: Vec<f32> = pre2.iter().map(|&v| leaky(v, slope)).collect();
        let out = shaped(out, &shapes.x);
        let state = FlexBlockState {
            taps1,
            taps2,
            pre1,
            pre2,
            w1,
            w2,
            shapes,
            slope,
        };
        (out, state)
    }

    fn residual_block_backward(state: FlexBlockState, grad: FlexTensor) -> [FlexTensor; 5] {
        let shapes = &state.shapes;
        let (k, columns) = (shapes.members, shapes.columns);
        // Through the outer activation: the skip's and the second conv's gradient.
        let mut g2 = floats(&grad).into_owned();
        mask(&mut g2, &state.pre2, state.slope);
        let db2 = row_sums(&g2, columns);
        let dw2 = stacked_product(k, shapes.rows(&g2), shapes.taps(&state.taps2).t());
        let w2 = floats(&state.w2);
        let dtaps2 = stacked_product(k, shapes.weights(&w2).t(), shapes.rows(&g2));
        // Through the inner activation: the first conv's gradient.
        let mut g1 = taps_adjoint(&dtaps2, shapes.flat, 1);
        mask(&mut g1, &state.pre1, state.slope);
        let db1 = row_sums(&g1, columns);
        let dw1 = stacked_product(k, shapes.rows(&g1), shapes.taps(&state.taps1).t());
        let w1 = floats(&state.w1);
        let dtaps1 = stacked_product(k, shapes.weights(&w1).t(), shapes.rows(&g1));
        let mut dx = taps_adjoint(&dtaps1, shapes.flat, 1);
        for (d, &g) in dx.iter_mut().zip(g2.iter()) {
            *d += g;
        }
        [
            shaped(dx, &shapes.x),
            shaped(dw1, &shapes.weight),
            shaped(db1, &shapes.bias),
            shaped(dw2, &shapes.weight),
            shaped(db2, &shapes.bias),
        ]
    }
}

hand_written_node!(BlockNode: FusedBlockTraining::residual_block_backward(BlockState; 5));

impl<B: FusedBlockOps + FusedBlockTraining, C: CheckpointStrategy> FusedBlockOps
    for Autodiff<B, C>
{
    /// One node with five parents ([`record`]).
    fn fused_residual_block(
        x: FloatTensor<Self>,
        w1: FloatTensor<Self>,
        b1: FloatTensor<Self>,
        w2: FloatTensor<Self>,
        b2: FloatTensor<Self>,
        slope: f64,
    ) -> FloatTensor<Self> {
        record::<B, C, BlockNode, 5>(
            [x, w1, b1, w2, b2],
            |inputs| B::residual_block_forward(inputs, slope),
            |[x, w1, b1, w2, b2]| B::fused_residual_block(x, w1, b1, w2, b2, slope),
        )
    }
}

pub(super) fn leaky(v: f32, slope: f32) -> f32 {
    if v >= 0.0 {
        v
    } else {
        slope * v
    }
}

/// `g ← g · (pre < 0 ? slope : 1)` (branch-free, so that it vectorises; `g · 1` is `g` exactly).
pub(super) fn mask(g: &mut [f32], pre: &[f32], slope: f32) {
    for (g, &p) in g.iter_mut().zip(pre) {
        *g *= if p < 0.0 { slope } else { 1.0 };
    }
}

/// A tensor's f32 values in row-major order, borrowed when contiguous.
pub(super) fn floats(t: &FlexTensor) -> std::borrow::Cow<'_, [f32]> {
    match t.as_slice::<f32>() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(
            t.to_contiguous()
                .into_data()
                .try_into_vec::<f32>()
                .expect("f32 tensor"),
        ),
    }
}

pub(super) fn matrix<const D: usize>(values: Vec<f32>, shape: [usize; D]) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(values, shape))
}

/// `values` as a tensor of `shape`.
fn shaped(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(values, shape.to_vec()))
}

/// `m[r, ·] += bias[r]` for `m: [rows, columns]`.
pub(super) fn add_rows(m: &mut [f32], bias: &[f32], columns: usize) {
    for (row, &value) in m.chunks_exact_mut(columns).zip(bias) {
        row.iter_mut().for_each(|v| *v += value);
    }
}

/// The sum of each row of `m: [rows, columns]` ([`lane_sum`]).
pub(super) fn row_sums(m: &[f32], columns: usize) -> Vec<f32> {
    m.chunks_exact(columns).map(lane_sum).collect()
}

/// Partial sums in each lane of [`SUM_LANES`], then the lanes and the remainder in order: one
/// summation order on every target, and one the compiler vectorises (a running sum is serial).
pub(super) fn lane_sum(values: &[f32]) -> f32 {
    let chunks = values.chunks_exact(SUM_LANES);
    let rest: f32 = chunks.remainder().iter().sum();
    let mut lanes = [0.0f32; SUM_LANES];
    for chunk in chunks {
        for (lane, &v) in lanes.iter_mut().zip(chunk) {
            *lane += v;
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// The partial sums of [`lane_sum`]: two AVX2 registers, four wasm simd128 ones.
const SUM_LANES: usize = 16;

/// The taps of `x: [C, N, B]` as `[3C, N·B]`: row `3c + t`, column `i·B + b` holds
/// `x[c, (i + (t − 1)·dilation) mod N, b]` (as [`crate::nets::grid::periodic_taps`]). Each row is its
/// channel rotated by whole points: two contiguous copies.
pub(super) fn taps(x: &[f32], [c, n, b]: [usize; 3], dilation: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(TAPS * c * n * b);
    for row in 0..TAPS * c {
        let (channel, tap) = (row / TAPS, row % TAPS);
        let src = &x[channel * n * b..(channel + 1) * n * b];
        let split = tap_shift(tap, n, dilation) * b;
        out.extend_from_slice(&src[split..]);
        out.extend_from_slice(&src[..split]);
    }
    out
}

/// The points tap `tap` reads ahead, `(tap − 1)·dilation mod n`: point `i` reads
/// `(i + shift) mod n`.
fn tap_shift(tap: usize, n: usize, dilation: usize) -> usize {
    (n + tap * (dilation % n) - dilation % n) % n
}

/// The adjoint of [`taps`]: `[3C, N·B]` → `[C, N·B]`, each tap's gradient added back at the
/// point it read (rows in order, so the sums' order is fixed).
pub(super) fn taps_adjoint(d: &[f32], [c, n, b]: [usize; 3], dilation: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; c * n * b];
    for (row, src) in d.chunks_exact(n * b).enumerate() {
        let (channel, tap) = (row / TAPS, row % TAPS);
        let dst = &mut out[channel * n * b..(channel + 1) * n * b];
        let split = tap_shift(tap, n, dilation) * b;
        let (head, tail) = src.split_at(n * b - split);
        add_into(&mut dst[split..], head);
        add_into(&mut dst[..split], tail);
    }
    out
}

/// `dst += src`, element by element.
fn add_into(dst: &mut [f32], src: &[f32]) {
    for (o, &v) in dst.iter_mut().zip(src) {
        *o += v;
    }
}
