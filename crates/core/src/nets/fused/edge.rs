//! The ring graph network's edge convolution ([`EdgeConv`]) — the mean over the
//! three neighbours `j ∈ {i−1, i, i+1}` of `m_ij = W·[x_i, x_j − x_i, sign(i − j)] + b`,
//! LeakyReLU'd where asked — as one op of burn's backend extension ([`FusedEdgeOps`]) in the
//! grid layout `[C, N, B]`: on the CPU backend (burn-flex) a hand-written forward (edge
//! features built by hand, one gemm, bias, activation and mean) and backward (mean and
//! activation adjoints, bias sums, two gemms, the features' adjoint back onto the nodes), one
//! autodiff node per edge convolution. Everywhere else [`edge_conv`] runs the composite.

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, DType, Dispatch, Flex, TensorMetadata};
use burn::tensor::{Device, Tensor};

use super::block::{floats, leaky, mask, matrix, row_sums, taps, taps_adjoint};
use super::node::{hand_written_node, record};
use crate::counted::{stacked_product, Matrix};
use crate::nets::fusion::{fusion, Fusion};
use crate::nets::grid::TAPS;
use crate::nets::layers::edge_conv::{EdgeConv, NEIGHBOUR_OFFSETS};

/// `conv` on `x: [C_in, N, B]`, its messages LeakyReLU'd with `slope` where given:
/// `[C_out, N, B]`. The fused op where it applies (burn-flex, f32, [`Fusion::Block`]).
pub fn edge_conv(x: Tensor<3>, conv: &EdgeConv, slope: Option<f64>) -> Tensor<3> {
    let fused = fusion() == Fusion::Block
        && x.device() == Device::flex()
        && x.dtype() == DType::F32
        && conv.weight.val().dtype() == DType::F32;
    if !fused {
        return conv.forward_composite(x, slope);
    }
    #[cfg(test)]
    FUSED_EDGES.with(|calls| calls.set(calls.get() + 1));
    Tensor::from_dispatch(<Dispatch as FusedEdgeOps>::fused_edge_conv(
        x.into_dispatch(),
        conv.weight.val().into_dispatch(),
        conv.bias.val().into_dispatch(),
        slope,
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused edge convolutions run on this thread (the tests check the fused path is taken).
    pub(crate) static FUSED_EDGES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The fused edge convolution. `x: [C_in, N, B]`, weight `[2·C_in + 1, C_out]`, bias `[C_out]`.
#[backend_extension(Flex, Autodiff)]
pub trait FusedEdgeOps: Backend {
    /// `[C_in, N, B] → [C_out, N, B]`.
    fn fused_edge_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        slope: Option<f64>,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`FusedEdgeOps`].
pub trait FusedEdgeTraining: Backend {
    /// Saved by the forward for the backward.
    type EdgeState: Clone + Send + std::fmt::Debug + 'static;

    /// The output and the state.
    fn edge_forward(
        inputs: [FloatTensor<Self>; 3],
        slope: Option<f64>,
    ) -> (FloatTensor<Self>, Self::EdgeState);

    /// The gradients `[x, weight, bias]` from the output's gradient `[C_out, N, B]`.
    fn edge_backward(state: Self::EdgeState, grad: FloatTensor<Self>) -> [FloatTensor<Self>; 3];
}

impl FusedEdgeOps for Flex {
    fn fused_edge_conv(
        x: FlexTensor,
        weight: FlexTensor,
        bias: FlexTensor,
        slope: Option<f64>,
    ) -> FlexTensor {
        Flex::edge_forward([x, weight, bias], slope).0
    }
}

/// burn-flex's saved state: the edge features `[2·C_in + 1, 3·N·B]`, the messages before the
/// activation `[C_out, 3·N·B]` (with one), the weight `[2·C_in + 1, C_out]`, the input's shape
/// and the slope.
#[derive(Clone, Debug)]
pub struct FlexEdgeState {
    features: Vec<f32>,
    pre: Option<Vec<f32>>,
    weight: FlexTensor,
    dims: [usize; 3],
    slope: Option<f32>,
}

/// The edge features of `x: [C, N, B]` as `[2C + 1, 3·N·B]`: column `t·N·B + i·B + b` is the
/// message from neighbour `i + (t − 1)`, rows `x_i`, `x_j − x_i`, `sign(i − j)`.
fn edge_features(x: &[f32], [c, n, b]: [usize; 3]) -> Vec<f32> {
    let columns = n * b;
    let neighbours = taps(x, [c, n, b], 1);
    let width = TAPS * columns;
    let mut out = vec![0.0f32; (2 * c + 1) * width];
    for channel in 0..c {
        let centre = &x[channel * columns..(channel + 1) * columns];
        for t in 0..TAPS {
            let from = &neighbours[(channel * TAPS + t) * columns..][..columns];
            let at = t * columns;
            out[channel * width + at..][..columns].copy_from_slice(centre);
            let difference = &mut out[(c + channel) * width + at..][..columns];
            for ((d, &j), &i) in difference.iter_mut().zip(from).zip(centre) {
                *d = j - i;
            }
        }
    }
    for (t, &offset) in NEIGHBOUR_OFFSETS.iter().enumerate() {
        out[2 * c * width + t * columns..][..columns].fill(-offset as f32);
    }
    out
}

impl FusedEdgeTraining for Flex {
    type EdgeState = FlexEdgeState;

    fn edge_forward(
        [x, weight, bias]: [FlexTensor; 3],
        slope: Option<f64>,
    ) -> (FlexTensor, FlexEdgeState) {
        let dims: [usize; 3] = x.shape().dims();
        let [c_in, n, b] = dims;
        let c_out = weight.shape()[1];
        let columns = n * b;
        let width = TAPS * columns;
        let features = edge_features(&floats(&x), dims);
        let mut pre = stacked_product(
            1,
            Matrix::new(&floats(&weight), 2 * c_in + 1, c_out).t(),
            Matrix::new(&features, 2 * c_in + 1, width),
        );
        for (row, &value) in pre.chunks_exact_mut(width).zip(floats(&bias).iter()) {
            row.iter_mut().for_each(|v| *v += value);
        }
        let slope = slope.map(|s| s as f32);
        let messages: std::borrow::Cow<'_, [f32]> = match slope {
            Some(s) => pre.iter().map(|&v| leaky(v, s)).collect::<Vec<_>>().into(),
            None => pre.as_slice().into(),
        };
        let mut out = vec![0.0f32; c_out * columns];
        for (o, m) in out
            .chunks_exact_mut(columns)
            .zip(messages.chunks_exact(width))
        {
            for (k, v) in o.iter_mut().enumerate() {
                *v = (m[k] + m[columns + k] + m[2 * columns + k]) / TAPS as f32;
            }
        }
        let state = FlexEdgeState {
            features,
            pre: slope.map(|_| pre),
            weight,
            dims,
            slope,
        };
        (matrix(out, [c_out, n, b]), state)
    }

    fn edge_backward(state: FlexEdgeState, grad: FlexTensor) -> [FlexTensor; 3] {
        let [c_in, n, b] = state.dims;
        let c_out = state.weight.shape()[1];
        let columns = n * b;
        let width = TAPS * columns;
        // The mean's adjoint: each message gets a third of its node's gradient.
        let mut g = vec![0.0f32; c_out * width];
        for (gm, go) in g
            .chunks_exact_mut(width)
            .zip(floats(&grad).chunks_exact(columns))
        {
            for t in 0..TAPS {
                for (d, &v) in gm[t * columns..][..columns].iter_mut().zip(go) {
                    *d = v / TAPS as f32;
                }
            }
        }
        if let (Some(pre), Some(slope)) = (&state.pre, state.slope) {
            mask(&mut g, pre, slope);
        }
        let bias = row_sums(&g, width);
        let (messages, weights) = (Matrix::new(&g, c_out, width), floats(&state.weight));
        let inputs = Matrix::new(&state.features, 2 * c_in + 1, width);
        let weight = stacked_product(1, inputs, messages.t());
        let features = stacked_product(1, Matrix::new(&weights, 2 * c_in + 1, c_out), messages);
        // The features' adjoint: centre rows and minus the difference rows onto node i, the
        // difference rows onto neighbour j (each tap's adjoint).
        let mut neighbours = vec![0.0f32; TAPS * c_in * columns];
        let mut dx = vec![0.0f32; c_in * columns];
        for channel in 0..c_in {
            let centre = &features[channel * width..][..width];
            let difference = &features[(c_in + channel) * width..][..width];
            let node = &mut dx[channel * columns..][..columns];
            for t in 0..TAPS {
                let (c_t, d_t) = (
                    &centre[t * columns..][..columns],
                    &difference[t * columns..][..columns],
                );
                for ((v, &a), &d) in node.iter_mut().zip(c_t).zip(d_t) {
                    *v += a - d;
                }
                neighbours[(channel * TAPS + t) * columns..][..columns].copy_from_slice(d_t);
            }
        }
        for (v, &a) in dx.iter_mut().zip(&taps_adjoint(&neighbours, state.dims, 1)) {
            *v += a;
        }
        [
            matrix(dx, [c_in, n, b]),
            matrix(weight, [2 * c_in + 1, c_out]),
            matrix(bias, [c_out]),
        ]
    }
}

hand_written_node!(EdgeNode: FusedEdgeTraining::edge_backward(EdgeState; 3));

impl<B: FusedEdgeOps + FusedEdgeTraining, C: CheckpointStrategy> FusedEdgeOps for Autodiff<B, C> {
    /// One node with three parents ([`record`]).
    fn fused_edge_conv(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
        slope: Option<f64>,
    ) -> FloatTensor<Self> {
        record::<B, C, EdgeNode, 3>(
            [x, weight, bias],
            |inputs| B::edge_forward(inputs, slope),
            |[x, weight, bias]| B::fused_edge_conv(x, weight, bias, slope),
        )
    }
}
