//! The correction networks: the paper's periodic ResNet1D and a ring-graph network.
//!
//! Both map a batch of states `u: [batch, N]` plus a per-sample constant channel
//! `s = L/8: [batch, 1]` to `[batch, N]`. Weights are f32 and are drawn on the host from a portable
//! SplitMix64 stream ([`InitRng`]), so the same seed gives bit-identical weights on every device
//! and platform (native and wasm32 alike).

pub mod export;
pub mod gcn;
pub mod padding;
pub mod resnet1d;

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

pub use gcn::{EdgeConv, Gcn, GcnBlock};
pub use padding::{circular_pad, circular_shift};
pub use resnet1d::{PeriodicConv1d, ResNet1d, ResidualBlock};

/// PyTorch's default LeakyReLU slope.
pub const LEAKY_SLOPE: f64 = 0.01;
/// Accepted channel counts `C`.
pub const CHANNELS_RANGE: std::ops::RangeInclusive<usize> = 1..=256;
/// Accepted depths `D` (residual blocks).
pub const DEPTH_RANGE: std::ops::RangeInclusive<usize> = 0..=64;

/// Which architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// The paper's periodic ResNet1D (3-tap circular convolutions).
    Resnet,
    /// Ring-graph network with directional edge convolutions.
    Gcn,
}

crate::named_enum!(Architecture, "architecture", {
    Resnet => "resnet",
    Gcn => "gcn",
});

/// Architecture and size of a correction network.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NetConfig {
    /// The architecture.
    pub architecture: Architecture,
    /// Hidden channels / node features `C`.
    pub channels: usize,
    /// Residual blocks `D`.
    pub depth: usize,
}

impl Default for NetConfig {
    /// The paper's default: ResNet1D, C = 16, D = 10 (15,841 parameters).
    fn default() -> Self {
        Self {
            architecture: Architecture::Resnet,
            channels: 16,
            depth: 10,
        }
    }
}

/// Everything that can go wrong when building a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// `channels` outside [`CHANNELS_RANGE`].
    #[error("channels must be between {min} and {max}, got {got}")]
    BadChannels {
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
        /// The rejected value.
        got: usize,
    },
    /// `depth` outside [`DEPTH_RANGE`].
    #[error("depth must be between {min} and {max} residual blocks, got {got}")]
    BadDepth {
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
        /// The rejected value.
        got: usize,
    },
    /// The weights could not be read back, packed or loaded.
    #[error("weights export failed: {0}")]
    Export(String),
}

impl NetConfig {
    /// Checks `channels ∈ 1..=256` and `depth ∈ 0..=64`.
    pub fn validate(&self) -> Result<(), NetError> {
        if !CHANNELS_RANGE.contains(&self.channels) {
            return Err(NetError::BadChannels {
                min: *CHANNELS_RANGE.start(),
                max: *CHANNELS_RANGE.end(),
                got: self.channels,
            });
        }
        if !DEPTH_RANGE.contains(&self.depth) {
            return Err(NetError::BadDepth {
                min: *DEPTH_RANGE.start(),
                max: *DEPTH_RANGE.end(),
                got: self.depth,
            });
        }
        Ok(())
    }

    /// Exact parameter count of the built network:
    /// ResNet1D `6DC² + (2D + 10)C + 1`, GCN `4DC² + (4D + 8)C + 2`.
    pub fn parameter_count(&self) -> usize {
        let (c, d) = (self.channels, self.depth);
        match self.architecture {
            Architecture::Resnet => 6 * d * c * c + (2 * d + 10) * c + 1,
            Architecture::Gcn => 4 * d * c * c + (4 * d + 8) * c + 2,
        }
    }

    /// Builds the network on `device` with weights drawn deterministically from `seed`
    /// (PyTorch's default Conv1d/Linear init, `U(−1/√fan_in, 1/√fan_in)` for weights and biases).
    pub fn init(&self, device: &Device, seed: u64) -> Result<Net, NetError> {
        self.validate()?;
        let mut rng = InitRng::new(seed);
        Ok(match self.architecture {
            Architecture::Resnet => {
                Net::Resnet(ResNet1d::init(self.channels, self.depth, device, &mut rng))
            }
            Architecture::Gcn => Net::Gcn(Gcn::init(self.channels, self.depth, device, &mut rng)),
        })
    }

    /// Forward floating-point operations for one sample of `resolution` points:
    /// `2·MACs` of every conv / linear layer plus bias adds, activations, skip adds, and (GCN)
    /// the edge-feature differences and the mean aggregation.
    pub fn flops_per_sample(&self, resolution: usize) -> f64 {
        let (c, d, n) = (self.channels as f64, self.depth as f64, resolution as f64);
        match self.architecture {
            Architecture::Resnet => {
                // One 3-tap conv ci → co over N points: 2·3·ci·co·N MAC flops + co·N bias adds.
                let conv = |ci: f64, co: f64| (6.0 * ci * co + co) * n;
                // Per block: two convs, inner LeakyReLU, skip add, outer LeakyReLU.
                let block = 2.0 * conv(c, c) + 3.0 * c * n;
                conv(2.0, c) + d * block + conv(c, 1.0)
            }
            Architecture::Gcn => {
                // One edge conv ci → co: 3 messages per node, each a Linear(2ci + 1 → co) with bias
                // on [x_i, x_j − x_i, sign] (ci subtractions), then a mean over 3 (3·co).
                let edge = |ci: f64, co: f64| {
                    3.0 * n * (2.0 * (2.0 * ci + 1.0) * co + co + ci) + 3.0 * co * n
                };
                let block = 2.0 * edge(c, c) + 3.0 * c * n;
                edge(2.0, c) + d * block + edge(c, 1.0)
            }
        }
    }
}

/// A correction network.
#[derive(Module, Debug)]
pub enum Net {
    /// The paper's ResNet1D.
    Resnet(ResNet1d),
    /// The ring-graph network.
    Gcn(Gcn),
}

impl Net {
    /// `u: [batch, N]` states, `scale: [batch, 1]` the constant channel `s = L/8` per sample
    /// → `[batch, N]`. Inputs must be f32 on the network's device.
    pub fn forward(&self, u: Tensor<2>, scale: Tensor<2>) -> Tensor<2> {
        match self {
            Net::Resnet(net) => net.forward(u, scale),
            Net::Gcn(net) => net.forward(u, scale),
        }
    }

    /// Number of scalar parameters actually held (via [`Module::num_params`]).
    pub fn parameter_count(&self) -> usize {
        self.num_params()
    }

    /// The architecture.
    pub fn architecture(&self) -> Architecture {
        match self {
            Net::Resnet(_) => Architecture::Resnet,
            Net::Gcn(_) => Architecture::Gcn,
        }
    }
}

/// Stacks the network inputs as node features: `u: [batch, N]`, `scale: [batch, 1]` →
/// `[batch, 2, N]` (channel 0 = u, channel 1 = s broadcast over N).
pub(crate) fn stack_inputs(u: Tensor<2>, scale: Tensor<2>) -> Tensor<3> {
    let [batch, n] = u.dims();
    let u = u.reshape([batch, 1, n]);
    let s = scale.reshape([batch, 1, 1]).expand([batch, 1, n]);
    Tensor::cat(vec![u, s], 1)
}

/// Portable deterministic generator for weight init: SplitMix64 (Steele, Lea & Flood 2014).
///
/// Chosen over `rand::rngs::SmallRng`, whose algorithm differs between 64-bit (Xoshiro256++) and
/// 32-bit targets (Xoshiro128++, i.e. wasm32): the same seed must give the same weights in the
/// browser and natively.
#[derive(Debug, Clone)]
pub struct InitRng {
    state: u64,
}

impl InitRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[−bound, bound)` from 24 random bits (exact f32 arithmetic up to the final
    /// product, so identical on every platform).
    pub fn uniform(&mut self, bound: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32);
        (2.0 * unit - 1.0) * bound
    }

    /// `count` draws of [`InitRng::uniform`].
    pub fn uniform_vec(&mut self, count: usize, bound: f32) -> Vec<f32> {
        (0..count).map(|_| self.uniform(bound)).collect()
    }
}

/// PyTorch's default bound `1/√fan_in` for Conv1d / Linear weights and biases.
pub(crate) fn init_bound(fan_in: usize) -> f32 {
    (1.0 / (fan_in.max(1) as f64).sqrt()) as f32
}

/// A parameter of `shape` drawn from `U(−bound, bound)`, row-major.
pub(crate) fn uniform_param<const D: usize>(
    shape: [usize; D],
    bound: f32,
    device: &Device,
    rng: &mut InitRng,
) -> Param<Tensor<D>> {
    let values = rng.uniform_vec(shape.iter().product(), bound);
    Param::from_tensor(Tensor::<D>::from_data(
        TensorData::new(values, shape),
        device,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend::{cpu, cpu_autodiff};

    const PAPER_SIZES: [(usize, usize, usize); 3] =
        [(16, 10, 15_841), (26, 8, 33_125), (52, 12, 196_457)];

    pub(crate) fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
        t.into_data()
            .convert::<f32>()
            .try_to_vec::<f32>()
            .expect("f32 data")
    }

    fn config(architecture: Architecture, channels: usize, depth: usize) -> NetConfig {
        NetConfig {
            architecture,
            channels,
            depth,
        }
    }

    /// A `[batch, N]` state batch and its `[batch, 1]` scales.
    pub(crate) fn inputs(batch: usize, n: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
        let u: Vec<f32> = (0..batch * n)
            .map(|i| ((i as f32) * 0.37).sin() + 0.3 * ((i as f32) * 1.3).cos())
            .collect();
        let s: Vec<f32> = (0..batch).map(|b| 0.9 + 0.1 * b as f32).collect();
        (
            Tensor::<2>::from_data(TensorData::new(u, [batch, n]), device),
            Tensor::<2>::from_data(TensorData::new(s, [batch, 1]), device),
        )
    }

    #[test]
    fn names_round_trip() {
        for a in Architecture::ALL {
            assert_eq!(a.name().parse::<Architecture>(), Ok(a));
            let json = serde_json::to_string(&a).expect("serialize");
            assert_eq!(json, format!("\"{}\"", a.name()));
        }
        assert!("cnn".parse::<Architecture>().is_err());
        let c = NetConfig::default();
        let back: NetConfig =
            serde_json::from_str(&serde_json::to_string(&c).expect("serialize")).expect("parse");
        assert_eq!(back, c);
    }

    #[test]
    fn validates_sizes() {
        assert!(NetConfig::default().validate().is_ok());
        let err = config(Architecture::Resnet, 0, 3)
            .validate()
            .expect_err("C = 0");
        assert_eq!(err.to_string(), "channels must be between 1 and 256, got 0");
        assert!(config(Architecture::Gcn, 257, 3).validate().is_err());
        let err = config(Architecture::Gcn, 8, 65)
            .validate()
            .expect_err("D = 65");
        assert_eq!(
            err.to_string(),
            "depth must be between 0 and 64 residual blocks, got 65"
        );
        assert!(config(Architecture::Resnet, 256, 0).validate().is_ok());
        assert!(config(Architecture::Resnet, 0, 1).init(&cpu(), 0).is_err());
    }

    #[test]
    fn paper_parameter_counts() {
        let device = cpu();
        for (c, d, expected) in PAPER_SIZES {
            let cfg = config(Architecture::Resnet, c, d);
            assert_eq!(cfg.parameter_count(), expected);
            let net = cfg.init(&device, 1).expect("init");
            assert_eq!(net.parameter_count(), expected);
            assert_eq!(net.architecture(), Architecture::Resnet);
        }
    }

    #[test]
    fn gcn_parameter_counts_match_formula() {
        let device = cpu();
        for (c, d) in [(16, 10), (26, 8), (52, 12), (1, 0), (3, 1)] {
            let cfg = config(Architecture::Gcn, c, d);
            let net = cfg.init(&device, 1).expect("init");
            assert_eq!(
                net.parameter_count(),
                cfg.parameter_count(),
                "C = {c}, D = {d}"
            );
            assert_eq!(net.architecture(), Architecture::Gcn);
        }
        assert_eq!(config(Architecture::Gcn, 16, 10).parameter_count(), 11_010);
        // Small ResNets too (D = 0 has no blocks).
        for (c, d) in [(1, 0), (3, 1)] {
            let cfg = config(Architecture::Resnet, c, d);
            let net = cfg.init(&device, 1).expect("init");
            assert_eq!(net.parameter_count(), cfg.parameter_count());
        }
    }

    #[test]
    fn flops_grow_with_size() {
        let small = config(Architecture::Resnet, 16, 10).flops_per_sample(48);
        // Dominated by 2·MACs: 20 convs of 3·16·16 taps per point ≈ 2·3·256·20·48.
        let macs = 3.0 * 256.0 * 20.0 * 48.0;
        assert!(small > 2.0 * macs && small < 2.2 * macs, "{small}");
        assert!(config(Architecture::Resnet, 52, 12).flops_per_sample(48) > small);
        let gcn = config(Architecture::Gcn, 16, 10).flops_per_sample(48);
        assert!(gcn > 0.0 && gcn.is_finite());
        assert_eq!(config(Architecture::Gcn, 16, 10).flops_per_sample(0), 0.0);
    }

    #[test]
    fn init_rng_is_fixed() {
        // Regression: the stream must never change (saved runs depend on it).
        let mut rng = InitRng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut a = InitRng::new(42);
        let draws = a.uniform_vec(1000, 0.5);
        assert!(draws.iter().all(|v| (-0.5..0.5).contains(v)));
        let mean = draws.iter().sum::<f32>() / 1000.0;
        assert!(mean.abs() < 0.05, "{mean}");
    }

    /// Every float parameter's values, in visiting order.
    struct Collect(Vec<Vec<f32>>);

    impl burn::module::ModuleVisitor for Collect {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.0.push(values(param.val().without_autodiff()));
        }
    }

    fn weights(net: &Net) -> Vec<Vec<f32>> {
        let mut collect = Collect(Vec::new());
        net.visit(&mut collect);
        collect.0
    }

    #[test]
    fn same_seed_same_net_different_seed_different_net() {
        let device = cpu();
        for architecture in Architecture::ALL {
            let cfg = config(architecture, 4, 2);
            let (u, s) = inputs(2, 12, &device);
            let a = cfg.init(&device, 7).expect("init");
            let b = cfg.init(&device, 7).expect("init");
            let c = cfg.init(&device, 8).expect("init");
            // Weights on the autodiff device are identical too.
            let d = cfg.init(&cpu_autodiff(), 7).expect("init");
            assert_eq!(weights(&a), weights(&b));
            assert_eq!(weights(&a), weights(&d));
            assert_ne!(weights(&a), weights(&c));
            assert_eq!(weights(&a).len(), 12);
            let out = |net: &Net| values(net.forward(u.clone(), s.clone()));
            assert_eq!(out(&a), out(&b));
            assert_ne!(out(&a), out(&c));
            let d_out = values(
                d.forward(u.clone().autodiff(), s.clone().autodiff())
                    .without_autodiff(),
            );
            assert_eq!(out(&a), d_out);
        }
    }

    #[test]
    fn forward_shapes() {
        let device = cpu();
        for architecture in Architecture::ALL {
            for (batch, n) in [(1, 8), (3, 48)] {
                let net = config(architecture, 5, 1).init(&device, 3).expect("init");
                let (u, s) = inputs(batch, n, &device);
                let out = net.forward(u, s);
                assert_eq!(out.dims(), [batch, n]);
                assert!(values(out).iter().all(|v| v.is_finite()));
            }
        }
    }

    #[test]
    fn translation_equivariance() {
        let device = cpu();
        for architecture in Architecture::ALL {
            let net = config(architecture, 6, 2).init(&device, 11).expect("init");
            let (u, s) = inputs(2, 16, &device);
            for shift in [1isize, 5, -3] {
                let shifted_out = net.forward(circular_shift(u.clone(), shift, 1), s.clone());
                let out_shifted = circular_shift(net.forward(u.clone(), s.clone()), shift, 1);
                let (a, b) = (values(shifted_out), values(out_shifted));
                let err = a
                    .iter()
                    .zip(&b)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f32::max);
                assert!(err < 1e-5, "{} shift {shift}: {err}", architecture.name());
            }
        }
    }

    #[test]
    fn scale_channel_matters() {
        let device = cpu();
        for architecture in Architecture::ALL {
            let net = config(architecture, 4, 1).init(&device, 5).expect("init");
            let (u, s) = inputs(1, 8, &device);
            let a = values(net.forward(u.clone(), s.clone()));
            let b = values(net.forward(u, s.add_scalar(0.5)));
            assert_ne!(a, b);
        }
    }

    /// Checks every float parameter's gradient: present, finite; counts non-zero ones.
    struct GradCheck<'a> {
        grads: &'a burn::tensor::Gradients,
        checked: usize,
        nonzero: usize,
    }

    impl burn::module::ModuleVisitor for GradCheck<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let grad = param.val().grad(self.grads).expect("parameter gradient");
            assert_eq!(grad.dims(), param.val().dims());
            let g = values(grad);
            assert!(g.iter().all(|v| v.is_finite()));
            self.checked += 1;
            self.nonzero += usize::from(g.iter().any(|v| *v != 0.0));
        }
    }

    #[test]
    fn parameter_gradients_exist_and_are_finite() {
        let device = cpu_autodiff();
        for architecture in Architecture::ALL {
            let net = config(architecture, 4, 2).init(&device, 2).expect("init");
            let (u, s) = inputs(2, 10, &device);
            let loss = net.forward(u, s).powf_scalar(2.0).mean();
            let grads = loss.backward();
            let mut check = GradCheck {
                grads: &grads,
                checked: 0,
                nonzero: 0,
            };
            net.visit(&mut check);
            // Input layer + 2 blocks × 2 layers + output layer, weight and bias each.
            assert_eq!(check.checked, 12, "{}", architecture.name());
            assert_eq!(check.nonzero, 12, "{}", architecture.name());
        }
    }

    #[test]
    fn backward_through_input() {
        let device = cpu_autodiff();
        for architecture in Architecture::ALL {
            let net = config(architecture, 4, 1).init(&device, 9).expect("init");
            let (u, s) = inputs(1, 8, &device);
            let u = u.require_grad();
            // Two applications, as in unrolled training.
            let out = net.forward(net.forward(u.clone(), s.clone()), s);
            let grads = out.sum().backward();
            let g = values(u.grad(&grads).expect("input gradient"));
            assert_eq!(g.len(), 8);
            assert!(g.iter().all(|v| v.is_finite()));
            assert!(g.iter().any(|v| *v != 0.0));
        }
    }
}
