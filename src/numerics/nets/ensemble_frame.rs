//! The member axis of the residual frames ([`ResidualFrame`]: the ResNet1D, the dilated
//! ResNet and the ring GCN): each layer's weights stacked as `[K, …]` (a convolution's
//! `[K, C_out, C_in, 3]`, an edge convolution's `[K, 2·C_in + 1, C_out]`, their biases
//! `[K, C_out]`), working on `[K, C, N, B]` with one batched matmul per layer for all members.
//! The ResNet1D's residual block is one fused op on the CPU backend ([`super::fused_block`],
//! its leading axis the members); the other blocks run as composite ops.

use burn::module::{Module, Param};
use burn::tensor::Tensor;

use super::dilated::{DilatedBlock, DILATIONS};
use super::ensemble::{every, part, stacked};
use super::frame::{FrameBlock, FrameLayer, ResidualFrame};
use super::fused::leaky_relu;
use super::fused_block::{fused_residual_block, fuses};
use super::gcn::{EdgeConv, GcnBlock, NEIGHBOUR_OFFSETS};
use super::grid::{tap_indices, TAPS};
use super::resnet1d::{PeriodicConv1d, ResidualBlock, KERNEL};
use super::{Net, NetError, LEAKY_SLOPE};
use crate::numerics::counted::matmul;

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
    /// `select` (`[K, 3·C_in, N·B]`, row `3c + t` as [`super::grid::periodic_taps`]), one
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
    fn stack(convs: &[&EdgeConv]) -> Self {
        Self {
            weight: stacked(convs.iter().map(|conv| conv.weight.val()).collect()),
            bias: stacked(convs.iter().map(|conv| conv.bias.val()).collect()),
        }
    }

    /// Member `k`'s edge convolution.
    fn member(&self, k: usize) -> EdgeConv {
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
    fn lift(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleLayer::Conv(conv) => conv.forward(x),
            EnsembleLayer::Edge(edge) => edge.forward(x, Some(LEAKY_SLOPE)),
        }
    }

    /// The output layer `[K, C, N, B] → [K, 1, N, B]` ([`FrameLayer::project`]).
    fn project(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleLayer::Conv(conv) => conv.forward(x),
            EnsembleLayer::Edge(edge) => edge.forward(x, None),
        }
    }

    /// Number of members `K`.
    fn members(&self) -> usize {
        match self {
            EnsembleLayer::Conv(conv) => conv.weight.dims()[0],
            EnsembleLayer::Edge(edge) => edge.weight.dims()[0],
        }
    }
}

/// `K` ResNet1D residual blocks `x ↦ LeakyReLU(x + conv₂(LeakyReLU(conv₁(x))))`.
#[derive(Module, Debug)]
pub struct EnsembleResidual {
    /// First conv C → C of every member.
    pub conv1: EnsembleConv,
    /// Second conv C → C of every member.
    pub conv2: EnsembleConv,
}

impl EnsembleResidual {
    /// One fused op on the CPU backend (all members), the composite elsewhere.
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let (w1, b1) = (self.conv1.weight.val(), self.conv1.bias.val());
        let (w2, b2) = (self.conv2.weight.val(), self.conv2.bias.val());
        if fuses(&x, &w1, &w2) {
            return fused_residual_block(x, w1, b1, w2, b2, LEAKY_SLOPE);
        }
        let h = leaky_relu(self.conv1.forward(x.clone()), LEAKY_SLOPE);
        leaky_relu(x + self.conv2.forward(h), LEAKY_SLOPE)
    }
}

/// `K` dilated blocks `x ↦ x + conv₇(σ(… σ(conv₁(x))))`, conv `i` dilated by
/// [`DILATIONS`]`[i]` ([`DilatedBlock`]).
#[derive(Module, Debug)]
pub struct EnsembleDilated {
    /// One conv C → C of every member per entry of [`DILATIONS`].
    pub convs: Vec<EnsembleConv>,
}

impl EnsembleDilated {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let last = self.convs.len() - 1;
        let h = self.convs.iter().zip(DILATIONS).enumerate().fold(
            x.clone(),
            |h, (i, (conv, dilation))| {
                let out = conv.forward_dilated(h, dilation);
                if i < last {
                    leaky_relu(out, LEAKY_SLOPE)
                } else {
                    out
                }
            },
        );
        x + h
    }
}

/// `K` GCN blocks `x ↦ LeakyReLU(x + conv₂(conv₁*(x)))` ([`GcnBlock`]; `conv₁*` activates its
/// messages).
#[derive(Module, Debug)]
pub struct EnsembleGcn {
    /// First edge conv C → C of every member.
    pub conv1: EnsembleEdge,
    /// Second edge conv C → C of every member.
    pub conv2: EnsembleEdge,
}

impl EnsembleGcn {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let h = self.conv1.forward(x.clone(), Some(LEAKY_SLOPE));
        leaky_relu(x + self.conv2.forward(h, None), LEAKY_SLOPE)
    }
}

/// `K` blocks of one architecture.
#[derive(Module, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "a few blocks per network; boxing would only add an indirection"
)]
pub enum EnsembleBlock {
    /// The ResNet1D's residual block.
    Residual(EnsembleResidual),
    /// The dilated ResNet's block.
    Dilated(EnsembleDilated),
    /// The GCN's block.
    Gcn(EnsembleGcn),
}

impl EnsembleBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleBlock::Residual(block) => block.forward(x),
            EnsembleBlock::Dilated(block) => block.forward(x),
            EnsembleBlock::Gcn(block) => block.forward(x),
        }
    }
}

/// An input or output layer of one member's network that stacks into an [`EnsembleLayer`].
trait MemberLayer: FrameLayer + Sized {
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

/// A block of one member's network that stacks into an [`EnsembleBlock`].
trait MemberBlock: FrameBlock<Layer: MemberLayer> + Sized {
    /// The members' blocks (one per member, one size) stacked.
    fn stack(blocks: &[&Self]) -> EnsembleBlock;
    /// Member `k`'s block of `block`, if `block` is of this kind.
    fn member(block: &EnsembleBlock, k: usize) -> Option<Self>;
}

impl MemberBlock for ResidualBlock {
    fn stack(blocks: &[&Self]) -> EnsembleBlock {
        let convs = |pick: fn(&ResidualBlock) -> &PeriodicConv1d| {
            EnsembleConv::stack(&blocks.iter().map(|b| pick(b)).collect::<Vec<_>>())
        };
        EnsembleBlock::Residual(EnsembleResidual {
            conv1: convs(|b| &b.conv1),
            conv2: convs(|b| &b.conv2),
        })
    }

    fn member(block: &EnsembleBlock, k: usize) -> Option<Self> {
        match block {
            EnsembleBlock::Residual(b) => Some(ResidualBlock {
                conv1: b.conv1.member(k),
                conv2: b.conv2.member(k),
            }),
            _ => None,
        }
    }
}

impl MemberBlock for DilatedBlock {
    fn stack(blocks: &[&Self]) -> EnsembleBlock {
        let convs = (0..DILATIONS.len())
            .map(|i| EnsembleConv::stack(&blocks.iter().map(|b| &b.convs[i]).collect::<Vec<_>>()))
            .collect();
        EnsembleBlock::Dilated(EnsembleDilated { convs })
    }

    fn member(block: &EnsembleBlock, k: usize) -> Option<Self> {
        match block {
            EnsembleBlock::Dilated(b) => Some(DilatedBlock {
                convs: b.convs.iter().map(|conv| conv.member(k)).collect(),
            }),
            _ => None,
        }
    }
}

impl MemberBlock for GcnBlock {
    fn stack(blocks: &[&Self]) -> EnsembleBlock {
        let convs = |pick: fn(&GcnBlock) -> &EdgeConv| {
            EnsembleEdge::stack(&blocks.iter().map(|b| pick(b)).collect::<Vec<_>>())
        };
        EnsembleBlock::Gcn(EnsembleGcn {
            conv1: convs(|b| &b.conv1),
            conv2: convs(|b| &b.conv2),
        })
    }

    fn member(block: &EnsembleBlock, k: usize) -> Option<Self> {
        match block {
            EnsembleBlock::Gcn(b) => Some(GcnBlock {
                conv1: b.conv1.member(k),
                conv2: b.conv2.member(k),
            }),
            _ => None,
        }
    }
}

/// `K` networks of one residual frame and size, trained together: input layer 2 → C, `D`
/// blocks, output layer C → 1, each with a leading member axis.
#[derive(Module, Debug)]
pub struct FrameEnsemble {
    /// Input layers 2 → C.
    pub input: EnsembleLayer,
    /// `D` blocks.
    pub blocks: Vec<EnsembleBlock>,
    /// Output layers C → 1.
    pub output: EnsembleLayer,
}

impl FrameEnsemble {
    /// `nets` (one residual frame, one size) as the members, in order; `None` for another
    /// architecture.
    pub(super) fn stack(nets: &[Net]) -> Option<Result<Self, NetError>> {
        Some(match nets.first()? {
            Net::Resnet(_) => every(nets, |net| match net {
                Net::Resnet(frame) => Some(frame),
                _ => None,
            })
            .map(|frames| stack_frames(&frames)),
            Net::Dilated(_) => every(nets, |net| match net {
                Net::Dilated(frame) => Some(frame),
                _ => None,
            })
            .map(|frames| stack_frames(&frames)),
            Net::Gcn(_) => every(nets, |net| match net {
                Net::Gcn(frame) => Some(frame),
                _ => None,
            })
            .map(|frames| stack_frames(&frames)),
            _ => return None,
        })
    }

    /// Number of members `K`.
    pub(super) fn members(&self) -> usize {
        self.output.members()
    }

    /// Member `k` as its own network (a copy of its current weights).
    pub(super) fn member(&self, k: usize) -> Net {
        match (&self.input, self.blocks.first()) {
            (EnsembleLayer::Edge(_), _) => Net::Gcn(self.member_frame(k)),
            (_, Some(EnsembleBlock::Dilated(_))) => Net::Dilated(self.member_frame(k)),
            _ => Net::Resnet(self.member_frame(k)),
        }
    }

    /// Member `k`'s frame of blocks `B` (every block and layer is of `B`'s kind).
    fn member_frame<B: MemberBlock>(&self, k: usize) -> ResidualFrame<B::Layer, B> {
        let layer = |layer: &EnsembleLayer| {
            B::Layer::member(layer, k).expect("the ensemble's layers are of its blocks' kind")
        };
        ResidualFrame {
            input: layer(&self.input),
            blocks: self
                .blocks
                .iter()
                .filter_map(|block| B::member(block, k))
                .collect(),
            output: layer(&self.output),
        }
    }

    /// `[K, 2, N, B] → [K, 1, N, B]`.
    pub(super) fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let x = self.input.lift(x);
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        self.output.project(x)
    }
}

/// `frames` (one size) stacked layer by layer.
fn stack_frames<B: MemberBlock>(frames: &[&ResidualFrame<B::Layer, B>]) -> FrameEnsemble {
    let depth = frames.first().map_or(0, |f| f.blocks.len());
    let blocks = (0..depth)
        .map(|d| B::stack(&frames.iter().map(|f| &f.blocks[d]).collect::<Vec<_>>()))
        .collect();
    FrameEnsemble {
        input: B::Layer::stack(&frames.iter().map(|f| &f.input).collect::<Vec<_>>()),
        blocks,
        output: B::Layer::stack(&frames.iter().map(|f| &f.output).collect::<Vec<_>>()),
    }
}
