//! An ensemble: `K` networks of one architecture and size as one module whose weights carry a
//! leading member axis, so `K` independent trainings step in lockstep with one op per layer for all
//! of them. An architecture has one where its registry line says so (`[ensemble]` in
//! [`super::registry`], its network implementing [`Stacks`]): the residual frames (ResNet1D,
//! dilated ResNet, ring GCN: [`crate::nets::ensemble::frame`]), the U-Net ([`crate::nets::ensemble::unet`]) and
//! the FNO ([`crate::nets::ensemble::fno`]); the 2-D ResNet has none. They work in the grid layout of
//! [`super::grid`] with the member axis first, `[K, C, N, B]`. Member `k` computes exactly what its
//! own network computes (tests: values and gradients to 1e-5).

pub mod fno;
pub mod frame;
pub mod layer;
pub(crate) mod stack;
pub mod unet;

use burn::module::Module;
use burn::tensor::{Device, Tensor};

use crate::nets::network::{Forward, Network};
use crate::nets::{Architecture, Fno, NetConfig, NetError, UNet};
use fno::FnoEnsemble;
use frame::FrameEnsemble;
use unet::UNetEnsemble;

/// A network with an ensemble form: `K` of one size stack into one [`Ensemble`] with a leading
/// member axis, and each member comes back out. Its registry line is marked `[ensemble]`, which
/// writes the dispatch ([`Ensemble::stack`], [`Ensemble::member`]).
pub trait Stacks: Network {
    /// The members (one size), stacked in order.
    fn stack(members: &[&Self]) -> Ensemble;

    /// Member `k` of `ensemble` (a copy of its current weights), if it is an ensemble of this
    /// network.
    fn member(ensemble: &Ensemble, k: usize) -> Option<Self>;
}

impl Stacks for UNet {
    fn stack(members: &[&Self]) -> Ensemble {
        Ensemble::Unet(UNetEnsemble::stack(members))
    }

    fn member(ensemble: &Ensemble, k: usize) -> Option<Self> {
        match ensemble {
            Ensemble::Unet(unets) => Some(unets.member(k)),
            _ => None,
        }
    }
}

impl Stacks for Fno {
    fn stack(members: &[&Self]) -> Ensemble {
        Ensemble::Fno(FnoEnsemble::stack(members))
    }

    fn member(ensemble: &Ensemble, k: usize) -> Option<Self> {
        match ensemble {
            Ensemble::Fno(fnos) => Some(fnos.member(k)),
            _ => None,
        }
    }
}

/// `K` networks of one architecture and size, trained together.
#[derive(Module, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one per training; boxing would only add an indirection"
)]
pub enum Ensemble {
    /// ResNet1Ds, dilated ResNets or ring GCNs.
    Frame(FrameEnsemble),
    /// U-Nets.
    Unet(UNetEnsemble),
    /// FNOs.
    Fno(FnoEnsemble),
}

impl Ensemble {
    /// Whether `architecture` trains as an ensemble: its registry line says so
    /// ([`Architecture::has_ensemble`]).
    pub fn supports(architecture: Architecture) -> bool {
        architecture.has_ensemble()
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

    /// Number of members `K`.
    pub fn members(&self) -> usize {
        match self {
            Ensemble::Frame(frames) => frames.members(),
            Ensemble::Unet(unets) => unets.members(),
            Ensemble::Fno(fnos) => fnos.members(),
        }
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
        let x = Tensor::cat(vec![u, s], 1);
        let out = match self {
            Ensemble::Frame(frames) => frames.forward(x),
            Ensemble::Unet(unets) => unets.forward(x),
            Ensemble::Fno(fnos) => fnos.forward(x),
        };
        out.reshape([members, n, batch])
            .swap_dims(1, 2)
            .reshape([rows, n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu_autodiff;
    use crate::nets::fusion::{set_fusion, Fusion};
    use crate::nets::tests::{inputs, values};
    use burn::module::ModuleVisitor;
    use burn::module::Param;

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
            (Architecture::Unet, Fusion::Block),
            (Architecture::Fno, Fusion::Block),
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
                let member = ensemble.member(architecture, k).expect("member");
                assert_eq!(member.architecture(), architecture, "{label}");
                assert_eq!(weights(&member), weights(&net), "{label}");
            }
        }
        set_fusion(Fusion::Block);
    }

    /// An architecture trains as an ensemble exactly where its registry line says so: every
    /// marked one stacks and gives each member back as its own architecture (at depth 0 too,
    /// where the residual frames' layers alone do not tell them apart); an unmarked one is
    /// refused (and so by `train::ensemble::ensemble_refusal`: never trained as one).
    #[test]
    fn an_architecture_has_an_ensemble_where_the_registry_says() {
        let device = cpu_autodiff();
        let with: Vec<Architecture> = Architecture::ALL
            .into_iter()
            .filter(|&a| a.has_ensemble())
            .collect();
        assert_eq!(
            with,
            [
                Architecture::Resnet,
                Architecture::Gcn,
                Architecture::Dilated,
                Architecture::Unet,
                Architecture::Fno
            ]
        );
        for architecture in Architecture::ALL {
            assert_eq!(
                Ensemble::supports(architecture),
                architecture.has_ensemble()
            );
            let config = NetConfig::of(architecture);
            if !architecture.has_ensemble() {
                let err = Ensemble::init(&config, &[1, 2], &device).expect_err("no ensemble");
                assert!(err.to_string().contains(architecture.name()), "{err}");
                continue;
            }
            let shallow = NetConfig { depth: 0, ..config };
            for config in [config, shallow] {
                if config.validate().is_err() {
                    continue;
                }
                let ensemble = Ensemble::init(&config, &[1, 2], &device).expect("ensemble");
                for k in 0..2 {
                    let member = ensemble.member(architecture, k).expect("member");
                    assert_eq!(member.architecture(), architecture);
                }
                let other = Architecture::ALL
                    .into_iter()
                    .find(|&a| !a.has_ensemble())
                    .expect("an architecture without an ensemble form");
                assert!(ensemble.member(other, 0).is_err());
            }
        }
        assert!(matches!(
            Ensemble::init(&NetConfig::of(Architecture::Resnet), &[], &device),
            Err(NetError::NoMembers)
        ));
    }
}
