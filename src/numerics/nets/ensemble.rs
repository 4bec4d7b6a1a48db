//! An ensemble: `K` ResNet1Ds of one size as one module whose weights carry a leading member
//! axis (every convolution's weight `[K, C_out, C_in, 3]`, its bias `[K, C_out]`), so `K`
//! independent trainings step in lockstep with one op per layer for all of them. It works in
//! the grid layout of [`super::grid`] with the member axis first, `[K, C, N, B]`: a conv is one
//! batched `[K, C_out, 3·C_in] × [K, 3·C_in, N·B]` matmul, the residual block one fused op on
//! the CPU backend ([`super::fused_block`], its leading axis the members). Member `k` computes
//! exactly what its own [`ResNet1d`] computes (tests: values and gradients to 1e-5).

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

use super::fused::leaky_relu;
use super::fused_block::{fused_residual_block, fuses};
use super::grid::{tap_indices, TAPS};
use super::network::Forward;
use super::resnet1d::{PeriodicConv1d, ResidualBlock, KERNEL};
use super::{Architecture, Net, NetConfig, NetError, ResNet1d, LEAKY_SLOPE};
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
        let [members, channels_in, n, batch] = x.dims();
        let [_, channels_out, _, _] = self.weight.dims();
        let indices = tap_indices(n, batch, 1, &x.device());
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

/// `K` residual blocks `x ↦ LeakyReLU(x + conv₂(LeakyReLU(conv₁(x))))` on `[K, C, N, B]`.
#[derive(Module, Debug)]
pub struct EnsembleBlock {
    /// First conv C → C of every member.
    pub conv1: EnsembleConv,
    /// Second conv C → C of every member.
    pub conv2: EnsembleConv,
}

impl EnsembleBlock {
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

/// `K` ResNet1Ds of one size, trained together: input conv 2 → C, `D` blocks, output conv
/// C → 1, each with a leading member axis.
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
        architecture == Architecture::Resnet
    }

    /// The networks `config` builds from each of `seeds` (member `k` bit for bit
    /// `config.init(device, seeds[k])`), stacked.
    pub fn init(config: &NetConfig, seeds: &[u64], device: &Device) -> Result<Self, NetError> {
        let nets = seeds
            .iter()
            .map(|&seed| match config.init(device, seed)? {
                Net::Resnet(net) => Ok(net),
                other => Err(NetError::NoEnsemble(other.architecture())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::stack(&nets)
    }

    /// `nets` (one size) as the members, in order.
    pub fn stack(nets: &[ResNet1d]) -> Result<Self, NetError> {
        let first = nets.first().ok_or(NetError::NoMembers)?;
        let convs = |pick: &dyn Fn(&ResNet1d) -> &PeriodicConv1d| {
            EnsembleConv::stack(&nets.iter().map(pick).collect::<Vec<_>>())
        };
        let blocks = (0..first.blocks.len())
            .map(|d| EnsembleBlock {
                conv1: convs(&|net| &net.blocks[d].conv1),
                conv2: convs(&|net| &net.blocks[d].conv2),
            })
            .collect();
        Ok(Self {
            input: convs(&|net| &net.input),
            blocks,
            output: convs(&|net| &net.output),
        })
    }

    /// Number of members `K`.
    pub fn members(&self) -> usize {
        self.output.weight.dims()[0]
    }

    /// Member `k` as its own network (a copy of its current weights).
    pub fn member(&self, k: usize) -> Net {
        Net::Resnet(ResNet1d {
            input: self.input.member(k),
            blocks: self
                .blocks
                .iter()
                .map(|block| ResidualBlock {
                    conv1: block.conv1.member(k),
                    conv2: block.conv2.member(k),
                })
                .collect(),
            output: self.output.member(k),
        })
    }
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
    /// network's (1e-5), fused and composite, through two applications as in an unroll.
    #[test]
    fn each_member_computes_what_its_own_network_computes() {
        let device = cpu_autodiff();
        let config = NetConfig {
            architecture: Architecture::Resnet,
            channels: 5,
            depth: 2,
        };
        let seeds = [4u64, 9, 17];
        let (members, batch, n) = (seeds.len(), 3, 16);
        for fusion in [Fusion::Block, Fusion::Composite] {
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
                let label = format!("{fusion:?} member {k}");
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
    fn only_resnet_has_a_member_axis() {
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
