//! An ensemble: `K` networks of one architecture and size as one module whose weights carry a
//! leading member axis (every convolution's weight `[K, C_out, C_in, 3]`, its bias
//! `[K, C_out]`), so `K` independent trainings step in lockstep with one op per layer for all of
//! them. It works in the grid layout of [`super::grid`] with the member axis first,
//! `[K, C, N, B]`: a conv is one batched `[K, C_out, 3·C_in] × [K, 3·C_in, N·B]` matmul at its
//! dilation, the ResNet1D's residual block one fused op on the CPU backend
//! ([`super::fused_block`], its leading axis the members). The architectures with a member
//! axis: the ResNet1D and the dilated ResNet ([`Ensemble::supports`]). Member `k` computes
//! exactly what its own network computes (tests: values and gradients to 1e-5).

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use super::dilated::{DilatedBlock, DILATIONS};
use super::frame::{FrameBlock, ResidualFrame};
use super::fused::leaky_relu;
use super::fused_block::{fused_residual_block, fuses};
use super::grid::{tap_indices, TAPS};
use super::network::Forward;
use super::resnet1d::{PeriodicConv1d, ResidualBlock, KERNEL};
use super::{Architecture, Net, NetConfig, NetError, LEAKY_SLOPE};
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
    fn stack(convs: &[&PeriodicConv1d]) -> Self {
        let weights = convs.iter().map(|conv| conv.weight.val()).collect();
        let biases = convs.iter().map(|conv| conv.bias.val()).collect();
        Self {
            weight: Param::from_tensor(Tensor::stack(weights, 0).detach()),
            bias: Param::from_tensor(Tensor::stack(biases, 0).detach()),
        }
    }

    /// Member `k`'s convolution.
    fn member(&self, k: usize) -> PeriodicConv1d {
        let [_, c_out, c_in, kernel] = self.weight.dims();
        PeriodicConv1d {
            weight: Param::from_tensor(
                self.weight
                    .val()
                    .narrow(0, k, 1)
                    .reshape([c_out, c_in, kernel])
                    .detach(),
            ),
            bias: Param::from_tensor(self.bias.val().narrow(0, k, 1).reshape([c_out]).detach()),
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

/// `K` ResNet1D residual blocks `x ↦ LeakyReLU(x + conv₂(LeakyReLU(conv₁(x))))` on
/// `[K, C, N, B]`.
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

/// `K` dilated blocks `x ↦ x + conv₇(σ(… σ(conv₁(x))))` on `[K, C, N, B]`, conv `i` dilated by
/// [`DILATIONS`]`[i]` ([`DilatedBlock`]); composite ops on every backend.
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
}

impl EnsembleBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        match self {
            EnsembleBlock::Residual(block) => block.forward(x),
            EnsembleBlock::Dilated(block) => block.forward(x),
        }
    }
}

/// A block of one member's network that stacks into an [`EnsembleBlock`].
trait MemberBlock: FrameBlock<Layer = PeriodicConv1d> + Sized {
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
            EnsembleBlock::Dilated(_) => None,
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
            EnsembleBlock::Residual(_) => None,
        }
    }
}

/// `K` networks of one architecture and size, trained together: input conv 2 → C, `D`
/// blocks, output conv C → 1, each with a leading member axis.
#[derive(Module, Debug)]
pub struct Ensemble {
    /// Input convs 2 → C.
    pub input: EnsembleConv,
    /// `D` blocks.
    pub blocks: Vec<EnsembleBlock>,
    /// Output convs C → 1.
    pub output: EnsembleConv,
}

impl Ensemble {
    /// Whether `architecture` trains as an ensemble (has a member axis).
    pub fn supports(architecture: Architecture) -> bool {
        matches!(architecture, Architecture::Resnet | Architecture::Dilated)
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
            other => Err(refuse(other)),
        }
    }

    /// Number of members `K`.
    pub fn members(&self) -> usize {
        self.output.weight.dims()[0]
    }

    /// Member `k` as its own network (a copy of its current weights).
    pub fn member(&self, k: usize) -> Net {
        match self.blocks.first() {
            Some(EnsembleBlock::Dilated(_)) => Net::Dilated(self.member_frame(k)),
            _ => Net::Resnet(self.member_frame(k)),
        }
    }

    /// Member `k`'s frame of blocks `B` (every block is of one kind).
    fn member_frame<B: MemberBlock>(&self, k: usize) -> ResidualFrame<PeriodicConv1d, B> {
        ResidualFrame {
            input: self.input.member(k),
            blocks: self
                .blocks
                .iter()
                .filter_map(|block| B::member(block, k))
                .collect(),
            output: self.output.member(k),
        }
    }
}

/// The frames `frame_of` finds in `nets` (an error for a net of another architecture),
/// stacked layer by layer.
fn stack_frames<B: MemberBlock>(
    nets: &[Net],
    frame_of: impl Fn(&Net) -> Result<&ResidualFrame<PeriodicConv1d, B>, NetError>,
) -> Result<Ensemble, NetError> {
    let frames = nets.iter().map(frame_of).collect::<Result<Vec<_>, _>>()?;
    let convs = |pick: &dyn Fn(&ResidualFrame<PeriodicConv1d, B>) -> &PeriodicConv1d| {
        EnsembleConv::stack(&frames.iter().map(|f| pick(f)).collect::<Vec<_>>())
    };
    let depth = frames.first().map_or(0, |f| f.blocks.len());
    let blocks = (0..depth)
        .map(|d| B::stack(&frames.iter().map(|f| &f.blocks[d]).collect::<Vec<_>>()))
        .collect();
    Ok(Ensemble {
        input: convs(&|f| &f.input),
        blocks,
        output: convs(&|f| &f.output),
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
        let x = self.input.forward(Tensor::cat(vec![u, s], 1));
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        self.output
            .forward(x)
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
    fn only_the_resnets_have_a_member_axis() {
        let with: Vec<Architecture> = Architecture::ALL
            .into_iter()
            .filter(|&a| Ensemble::supports(a))
            .collect();
        assert_eq!(with, [Architecture::Resnet, Architecture::Dilated]);
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
