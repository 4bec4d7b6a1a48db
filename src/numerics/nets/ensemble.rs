//! An ensemble: `K` networks of one architecture and size as one module whose weights carry a
//! leading member axis (a convolution's weight `[K, C_out, C_in, 3]`, an edge convolution's
//! `[K, 2·C_in + 1, C_out]`, their biases `[K, C_out]`), so `K` independent trainings step in
//! lockstep with one op per layer for all of them. It works in the grid layout of
//! [`super::grid`] with the member axis first, `[K, C, N, B]`: a layer is one batched matmul
//! for all members (`[K, C_out, 3·C_in] × [K, 3·C_in, N·B]` at a conv's dilation), the
//! ResNet1D's residual block one fused op on the CPU backend ([`super::fused_block`], its
//! leading axis the members); the other blocks run as composite ops. The architectures with a
//! member axis are the residual frames: the ResNet1D, the dilated ResNet and the ring GCN
//! ([`Ensemble::supports`]). Member `k` computes exactly what its own network computes (tests:
//! values and gradients to 1e-5).

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use super::dilated::{DilatedBlock, DILATIONS};
use super::frame::{FrameBlock, FrameLayer, ResidualFrame};
use super::fused::leaky_relu;
use super::fused_block::{fused_residual_block, fuses};
use super::gcn::{EdgeConv, GcnBlock, NEIGHBOUR_OFFSETS};
use super::grid::{tap_indices, TAPS};
use super::network::Forward;
use super::resnet1d::{PeriodicConv1d, ResidualBlock, KERNEL};
use super::{Architecture, Net, NetConfig, NetError, LEAKY_SLOPE};
use crate::numerics::counted::matmul;

/// `[K, …]` stacked from each member's `[…]`, detached (a new parameter).
fn stacked<const D: usize, const E: usize>(parts: Vec<Tensor<D>>) -> Param<Tensor<E>> {
    Param::from_tensor(Tensor::stack(parts, 0).detach())
}

/// Member `k`'s `[…]` of `all: [K, …]`, detached.
fn part<const D: usize, const E: usize>(all: &Param<Tensor<E>>, k: usize) -> Param<Tensor<D>> {
    let value = all.val();
    let dims = value.dims();
    let mut shape = [0; D];
    shape.copy_from_slice(&dims[1..]);
    Param::from_tensor(value.narrow(0, k, 1).reshape(shape).detach())
}

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
    fn stack(convs: &[&PeriodicConv1d]) -> Self {
        Self {
            weight: stacked(convs.iter().map(|conv| conv.weight.val()).collect()),
            bias: stacked(convs.iter().map(|conv| conv.bias.val()).collect()),
        }
    }

    /// Member `k`'s convolution.
    fn member(&self, k: usize) -> PeriodicConv1d {
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
        let taps = x
            .reshape([members, channels_in, n * batch])
            .select(2, indices)
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
        let neighbours = x.clone().select(2, tap_indices(n, batch, 1, &device));
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

/// `K` networks of one architecture and size, trained together: input layer 2 → C, `D`
/// blocks, output layer C → 1, each with a leading member axis.
#[derive(Module, Debug)]
pub struct Ensemble {
    /// Input layers 2 → C.
    pub input: EnsembleLayer,
    /// `D` blocks.
    pub blocks: Vec<EnsembleBlock>,
    /// Output layers C → 1.
    pub output: EnsembleLayer,
}

impl Ensemble {
    /// Whether `architecture` trains as an ensemble (has a member axis).
    pub fn supports(architecture: Architecture) -> bool {
        matches!(
            architecture,
            Architecture::Resnet | Architecture::Dilated | Architecture::Gcn
        )
    }

    /// The networks `config` builds from each of `seeds` (member `k` bit for bit
    /// `config.init(device, seeds[k])`), stacked.
    pub fn init(config: &NetConfig, seeds: &[u64], device: &Device) -> Result<Self, NetError> {
        let nets = seeds
            .iter()
            .map(|&seed| config.init(device, seed))
            .collect::<Result<Vec<_>, _>>()?;
        Self::stack(&nets)
    }

    /// `nets` (one architecture with a member axis, one size) as the members, in order.
    pub fn stack(nets: &[Net]) -> Result<Self, NetError> {
        let first = nets.first().ok_or(NetError::NoMembers)?;
        let refuse = |net: &Net| NetError::NoEnsemble(net.architecture());
        match first {
            Net::Resnet(_) => stack_frames(nets, |net| match net {
                Net::Resnet(frame) => Ok(frame),
                other => Err(refuse(other)),
            }),
            Net::Dilated(_) => stack_frames(nets, |net| match net {
                Net::Dilated(frame) => Ok(frame),
                other => Err(refuse(other)),
            }),
            Net::Gcn(_) => stack_frames(nets, |net| match net {
                Net::Gcn(frame) => Ok(frame),
                other => Err(refuse(other)),
            }),
            other => Err(refuse(other)),
        }
    }

    /// Number of members `K`.
    pub fn members(&self) -> usize {
        self.output.members()
    }

    /// Member `k` as its own network (a copy of its current weights).
    pub fn member(&self, k: usize) -> Net {
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
}

/// The frames `frame_of` finds in `nets` (an error for a net of another architecture),
/// stacked layer by layer.
fn stack_frames<B: MemberBlock>(
    nets: &[Net],
    frame_of: impl Fn(&Net) -> Result<&ResidualFrame<B::Layer, B>, NetError>,
) -> Result<Ensemble, NetError> {
    let frames = nets.iter().map(frame_of).collect::<Result<Vec<_>, _>>()?;
    let depth = frames.first().map_or(0, |f| f.blocks.len());
    let blocks = (0..depth)
        .map(|d| B::stack(&frames.iter().map(|f| &f.blocks[d]).collect::<Vec<_>>()))
        .collect();
    Ok(Ensemble {
        input: B::Layer::stack(&frames.iter().map(|f| &f.input).collect::<Vec<_>>()),
        blocks,
        output: B::Layer::stack(&frames.iter().map(|f| &f.output).collect::<Vec<_>>()),
    })
}

impl Forward for Ensemble {
    /// `u: [K·B, N]`, `parameter: [K·B, 1]`, member-major (member `k`'s rows
    /// `k·B..(k+1)·B`) → `[K·B, N]`, member `k`'s rows through member `k`'s network.
    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        let members = self.members();
        let [rows, n] = u.dims();
        let batch = rows / members;
        let u = u
            .reshape([members, batch, n])
            .swap_dims(1, 2)
            .reshape([members, 1, n, batch]);
        let s = parameter
            .reshape([members, 1, 1, batch])
            .expand([members, 1, n, batch]);
        let x = self.input.lift(Tensor::cat(vec![u, s], 1));
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        self.output
            .project(x)
            .reshape([members, n, batch])
            .swap_dims(1, 2)
            .reshape([rows, n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend::cpu_autodiff;
    use crate::numerics::nets::fused::{set_fusion, Fusion};
    use crate::numerics::nets::tests::{inputs, values};
    use burn::module::ModuleVisitor;

    /// Every float parameter's gradient (zeros where it has none), in visiting order.
    fn gradients<M: Module>(module: &M, grads: &burn::tensor::Gradients) -> Vec<Vec<f32>> {
        struct Collect<'a>(&'a burn::tensor::Gradients, Vec<Vec<f32>>);
        impl ModuleVisitor for Collect<'_> {
            fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                let value = param.val();
                self.1.push(match value.grad(self.0) {
                    Some(grad) => values(grad),
                    None => vec![0.0; value.shape().num_elements()],
                });
            }
        }
        let mut collect = Collect(grads, Vec::new());
        module.visit(&mut collect);
        collect.1
    }

    /// Every float parameter's values, in visiting order.
    fn weights<M: Module>(module: &M) -> Vec<Vec<f32>> {
        struct Collect(Vec<Vec<f32>>);
        impl ModuleVisitor for Collect {
            fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
                self.0.push(values(param.val()));
            }
        }
        let mut collect = Collect(Vec::new());
        module.visit(&mut collect);
        collect.0
    }

    /// Member `k` of every parameter of `all` (each `[K, …]`, flattened).
    fn member_part(all: &[Vec<f32>], members: usize, k: usize) -> Vec<Vec<f32>> {
        all.iter()
            .map(|p| {
                let size = p.len() / members;
                p[k * size..(k + 1) * size].to_vec()
            })
            .collect()
    }

    fn assert_close(got: &[f32], want: &[f32], what: &str) {
        assert_eq!(got.len(), want.len(), "{what}");
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                "{what}: {g} vs {w}"
            );
        }
    }

    /// Each member's rows, their input gradient and every weight gradient equal its own
    /// network's (1e-5), for every architecture with a member axis, fused and composite,
    /// through two applications as in an unroll.
    #[test]
    fn each_member_computes_what_its_own_network_computes() {
        let device = cpu_autodiff();
        let seeds = [4u64, 9, 17];
        let (members, batch, n) = (seeds.len(), 3, 16);
        let cases = [
            (Architecture::Resnet, Fusion::Block),
            (Architecture::Resnet, Fusion::Composite),
            (Architecture::Dilated, Fusion::Block),
            (Architecture::Gcn, Fusion::Block),
        ];
        for (architecture, fusion) in cases {
            let config = NetConfig {
                architecture,
                channels: 5,
                depth: 2,
            };
            set_fusion(fusion);
            let ensemble = Ensemble::init(&config, &seeds, &device).expect("ensemble");
            assert_eq!(ensemble.members(), members);
            let (u, s) = inputs(members * batch, n, &device);
            let u = u.require_grad();
            let twice = |net: &dyn Forward, u: Tensor<2>, s: Tensor<2>| {
                let out = net.forward(u, s.clone());
                net.forward(out, s)
            };
            let out = twice(&ensemble, u.clone(), s.clone());
            let grads = out.clone().powf_scalar(2.0).sum().backward();
            let together = gradients(&ensemble, &grads);
            let (out, du) = (values(out), values(u.grad(&grads).expect("input gradient")));
            for (k, &seed) in seeds.iter().enumerate() {
                let label = format!("{architecture} {fusion:?} member {k}");
                let net = config.init(&device, seed).expect("net");
                let rows = |t: &Tensor<2>| t.clone().narrow(0, k * batch, batch);
                let u_k = Tensor::<2>::from_data(rows(&u).into_data(), &device).require_grad();
                let out_k = twice(&net, u_k.clone(), rows(&s));
                let grads_k = out_k.clone().powf_scalar(2.0).sum().backward();
                let part = k * batch * n..(k + 1) * batch * n;
                assert_close(&out[part.clone()], &values(out_k), &label);
                let du_k = values(u_k.grad(&grads_k).expect("input gradient"));
                assert_close(&du[part], &du_k, &label);
                let alone = gradients(&net, &grads_k);
                for (got, want) in member_part(&together, members, k).iter().zip(&alone) {
                    assert_close(got, want, &label);
                }
                // Member extraction gives the member's weights back, bit for bit.
                assert_eq!(weights(&ensemble.member(k)), weights(&net), "{label}");
            }
        }
        set_fusion(Fusion::Block);
    }

    #[test]
    fn only_the_residual_frames_have_a_member_axis() {
        let with: Vec<Architecture> = Architecture::ALL
            .into_iter()
            .filter(|&a| Ensemble::supports(a))
            .collect();
        assert_eq!(
            with,
            [
                Architecture::Resnet,
                Architecture::Gcn,
                Architecture::Dilated
            ]
        );
        let device = cpu_autodiff();
        let unet = NetConfig {
            architecture: Architecture::Unet,
            channels: 4,
            depth: 2,
        };
        let err = Ensemble::init(&unet, &[1, 2], &device).expect_err("no unet ensemble");
        assert!(err.to_string().contains("unet"), "{err}");
        assert!(matches!(
            Ensemble::init(&NetConfig::of(Architecture::Resnet), &[], &device),
            Err(NetError::NoMembers)
        ));
    }
}
