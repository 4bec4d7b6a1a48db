//! The layers of the residual frames with a member axis: `K` periodic convolutions
//! ([`EnsembleConv`], weights `[K, C_out, C_in, 3]`) or ring-graph edge convolutions
//! ([`EnsembleEdge`], weights `[K, 2·C_in + 1, C_out]`), each one batched matmul for all
//! members on `[K, C, N, B]`, and `MemberLayer`, how a member's layer stacks into them.

use burn::module::{Module, Param};
use burn::tensor::Tensor;

use super::stack::{part, stacked};
use crate::counted::matmul;
use crate::nets::frame::FrameLayer;
use crate::nets::fusion::leaky_relu;
use crate::nets::grid::{tap_indices, TAPS};
use crate::nets::layers::conv1d::{PeriodicConv1d, KERNEL};
use crate::nets::layers::edge_conv::{EdgeConv, NEIGHBOUR_OFFSETS};
use crate::nets::LEAKY_SLOPE;

/// `K` periodic 3-tap convolutions with bias: `[K, C_in, N, B] → [K, C_out, N, B]`.
#[derive(Module, Debug)]
pub struct EnsembleConv {
    /// `[K, C_out, C_in, 3]` (member `k`: its [`PeriodicConv1d::weight`]).
    pub weight: Param<Tensor<4>>,
    /// `[K, C_out]`.
    pub bias: Param<Tensor<2>>,
}

impl EnsembleConv {
    /// The members' convolutions stacked in order.
    pub(super) fn stack(convs: &[&PeriodicConv1d]) -> Self {
        Self {
            weight: stacked(convs.iter().map(|conv| conv.weight.val()).collect()),
            bias: stacked(convs.iter().map(|conv| conv.bias.val()).collect()),
        }
    }

    /// Member `k`'s convolution.
    pub(super) fn member(&self, k: usize) -> PeriodicConv1d {
        PeriodicConv1d {
            weight: part(&self.weight, k),
            bias: part(&self.bias, k),
        }
    }

    /// `[K, C_in, N, B] → [K, C_out, N, B]`: the taps of every member gathered by one
    /// `select` (`[K, 3·C_in, N·B]`, row `3c + t` as [`crate::nets::grid::periodic_taps`]), one
    /// batched matmul, the bias.
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.forward_dilated(x, 1)
    }

    /// [`Self::forward`] with the taps `dilation` points apart.
    pub fn forward_dilated(&self, x: Tensor<4>, dilation: usize) -> Tensor<4> {
        let [members, channels_in, n, batch] = x.dims();
        let [_, channels_out, _, _] = self.weight.dims();
        let indices = tap_indices(n, batch, dilation, &x.device());
        // One 2-D select over every member's channel rows (burn-flex's 2-D gather: a select
        // along the last of three axes measured ≈ 4× slower per network).
        let taps = x
            .reshape([members * channels_in, n * batch])
            .select(1, indices)
            .reshape([members, TAPS * channels_in, n * batch]);
        let weight = self
            .weight
            .val()
            .reshape([members, channels_out, KERNEL * channels_in]);
        let bias = self.bias.val().reshape([members, channels_out, 1]);
        (matmul(weight, taps) + bias).reshape([members, channels_out, n, batch])
    }
}

/// `K` ring-graph edge convolutions ([`EdgeConv`]): `[K, C_in, N, B] → [K, C_out, N, B]`.
#[derive(Module, Debug)]
pub struct EnsembleEdge {
    /// `[K, 2·C_in + 1, C_out]` (member `k`: its [`EdgeConv::weight`]).
    pub weight: Param<Tensor<3>>,
    /// `[K, C_out]`.
    pub bias: Param<Tensor<2>>,
}

impl EnsembleEdge {
    /// The members' edge convolutions stacked in order.
    pub(super) fn stack(convs: &[&EdgeConv]) -> Self {
        Self {
            weight: stacked(convs.iter().map(|conv| conv.weight.val()).collect()),
            bias: stacked(convs.iter().map(|conv| conv.bias.val()).collect()),
        }
    }

    /// Member `k`'s edge convolution.
    pub(super) fn member(&self, k: usize) -> EdgeConv {
        EdgeConv {
            weight: part(&self.weight, k),
            bias: part(&self.bias, k),
        }
    }

    /// [`EdgeConv::forward_composite`] of every member: the edge features
    /// `[x_i, x_j − x_i, sign(i − j)]` of all messages as `[K, 2·C_in + 1, 3·N·B]`, one batched
    /// matmul, the bias, LeakyReLU with `slope` where given, the mean over the three messages.
    pub fn forward(&self, x: Tensor<4>, slope: Option<f64>) -> Tensor<4> {
        let [members, channels_in, n, batch] = x.dims();
        let (device, dtype) = (x.device(), x.dtype());
        let columns = n * batch;
        let x = x.reshape([members, channels_in, columns]);
        let neighbours = x
            .clone()
            .reshape([members * channels_in, columns])
            .select(1, tap_indices(n, batch, 1, &device))
            .reshape([members, channels_in, TAPS * columns]);
        let centres = x
            .reshape([members, channels_in, 1, columns])
            .expand([members, channels_in, TAPS, columns])
            .reshape([members, channels_in, TAPS * columns]);
        let signs = NEIGHBOUR_OFFSETS
            .iter()
            .map(|&offset| {
                Tensor::<3>::full([members, 1, columns], -offset as f32, (&device, dtype))
            })
            .collect();
        let features = Tensor::cat(
            vec![centres.clone(), neighbours - centres, Tensor::cat(signs, 2)],
            1,
        );
        let [_, _, channels_out] = self.weight.dims();
        let weight = self.weight.val().swap_dims(1, 2);
        let out = matmul(weight, features) + self.bias.val().reshape([members, channels_out, 1]);
        let out = match slope {
            Some(slope) => leaky_relu(out, slope),
            None => out,
        };
        out.reshape([members, channels_out, TAPS, columns])
            .mean_dim(2)
            .reshape([members, channels_out, n, batch])
    }
}

/// `K` input or output layers of one kind.
#[derive(Module, Debug)]
pub enum EnsembleLayer {
    /// Periodic convolutions (ResNet1D, dilated ResNet).
    Conv(EnsembleConv),
    /// Edge convolutions (GCN).
    Edge(EnsembleEdge),
}

impl EnsembleLayer {
    /// The input layer `[K, 2, N, B] → [K, C, N, B]` ([`FrameLayer::lift`]).
    pub(super) fn lift(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleLayer::Conv(conv) => conv.forward(x),
            EnsembleLayer::Edge(edge) => edge.forward(x, Some(LEAKY_SLOPE)),
        }
    }

    /// The output layer `[K, C, N, B] → [K, 1, N, B]` ([`FrameLayer::project`]).
    pub(super) fn project(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleLayer::Conv(conv) => conv.forward(x),
            EnsembleLayer::Edge(edge) => edge.forward(x, None),
        }
    }

    /// Number of members `K`.
    pub(super) fn members(&self) -> usize {
        match self {
            EnsembleLayer::Conv(conv) => conv.weight.dims()[0],
            EnsembleLayer::Edge(edge) => edge.weight.dims()[0],
        }
    }
}

/// An input or output layer of one member's network that stacks into an [`EnsembleLayer`].
pub(super) trait MemberLayer: FrameLayer + Sized {
    /// The members' layers (one per member, one size) stacked.
    fn stack(layers: &[&Self]) -> EnsembleLayer;
    /// Member `k`'s layer of `layer`, if `layer` is of this kind.
    fn member(layer: &EnsembleLayer, k: usize) -> Option<Self>;
}

impl MemberLayer for PeriodicConv1d {
    fn stack(layers: &[&Self]) -> EnsembleLayer {
        EnsembleLayer::Conv(EnsembleConv::stack(layers))
    }

    fn member(layer: &EnsembleLayer, k: usize) -> Option<Self> {
        match layer {
            EnsembleLayer::Conv(conv) => Some(conv.member(k)),
            EnsembleLayer::Edge(_) => None,
        }
    }
}

impl MemberLayer for EdgeConv {
    fn stack(layers: &[&Self]) -> EnsembleLayer {
        EnsembleLayer::Edge(EnsembleEdge::stack(layers))
    }

    fn member(layer: &EnsembleLayer, k: usize) -> Option<Self> {
        match layer {
            EnsembleLayer::Edge(edge) => Some(edge.member(k)),
            EnsembleLayer::Conv(_) => None,
        }
    }
}
