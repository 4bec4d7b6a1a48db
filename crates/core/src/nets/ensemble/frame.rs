//! The member axis of the residual frames ([`ResidualFrame`]: the ResNet1D, the dilated
//! ResNet and the ring GCN): the members' layers stacked ([`crate::nets::ensemble::layer`]) and their
//! blocks, working on `[K, C, N, B]` with one batched matmul per layer for all members. The
//! ResNet1D's residual block is one fused op on the CPU backend ([`crate::nets::fused::block`], its
//! leading axis the members); the other blocks run as composite ops.

use burn::module::Module;
use burn::tensor::Tensor;

use super::layer::{EnsembleConv, EnsembleEdge, EnsembleLayer, MemberLayer};
use super::{Ensemble, Stacks};
use crate::nets::dilated::{DilatedBlock, DILATIONS};
use crate::nets::frame::{FrameBlock, ResidualFrame};
use crate::nets::fused::block::{fused_residual_block, fuses};
use crate::nets::fusion::leaky_relu;
use crate::nets::gcn::GcnBlock;
use crate::nets::layers::conv1d::PeriodicConv1d;
use crate::nets::layers::edge_conv::EdgeConv;
use crate::nets::resnet1d::ResidualBlock;
use crate::nets::{DilatedResNet, Gcn, ResNet1d, LEAKY_SLOPE};

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
    /// Number of members `K`.
    pub(super) fn members(&self) -> usize {
        self.output.members()
    }

    /// Member `k`'s frame of blocks `B`, if every block and layer is of `B`'s kind.
    fn member_frame<B: MemberBlock>(&self, k: usize) -> Option<ResidualFrame<B::Layer, B>> {
        Some(ResidualFrame {
            input: B::Layer::member(&self.input, k)?,
            blocks: self
                .blocks
                .iter()
                .map(|block| B::member(block, k))
                .collect::<Option<_>>()?,
            output: B::Layer::member(&self.output, k)?,
        })
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

/// The residual frames' ensemble form, one impl per network (the registry's `[ensemble]` lines
/// of the ResNet1D, the dilated ResNet and the ring GCN) with its block kind.
macro_rules! frame_stacks {
    ($($net:ty: $block:ty),+) => {
        $(impl Stacks for $net {
            fn stack(members: &[&Self]) -> Ensemble {
                Ensemble::Frame(stack_frames(members))
            }

            fn member(ensemble: &Ensemble, k: usize) -> Option<Self> {
                match ensemble {
                    Ensemble::Frame(frames) => frames.member_frame::<$block>(k),
                    _ => None,
                }
            }
        })+
    };
}

frame_stacks!(ResNet1d: ResidualBlock, DilatedResNet: DilatedBlock, Gcn: GcnBlock);
