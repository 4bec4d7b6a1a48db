//! The correction networks, all periodic like the data: the paper's ResNet1D, a ring-graph
//! network, a dilated ResNet, a U-Net and a Fourier neural operator (1-D: KS), and the 2-D
//! ResNet of the Kolmogorov-flow study.
//!
//! Each maps a batch of states `u: [batch, N]` plus a per-sample constant channel
//! `s = L/8: [batch, 1]` to `[batch, N]`. Weights are f32 and are drawn on the host from a portable
//! SplitMix64 stream ([`InitRng`]), so the same seed gives bit-identical weights on every device
//! and platform (native and wasm32 alike).

pub mod dilated;
pub mod export;
pub mod fno;
pub mod gcn;
pub mod padding;
pub mod resnet1d;
pub mod resnet2d;
pub mod unet;

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

pub use dilated::{DilatedBlock, DilatedResNet, DILATIONS};
pub use fno::{Fno, FourierLayer, Pointwise, SpectralConv, MODES};
pub use gcn::{EdgeConv, Gcn, GcnBlock};
pub use padding::{circular_pad, circular_shift};
pub use resnet1d::{PeriodicConv1d, ResNet1d, ResidualBlock};
pub use resnet2d::{Block2d, PeriodicConv2d, ResNet2d};
pub use unet::{DoubleConv, UNet, UpLevel, MAX_LEVELS};

/// PyTorch's default LeakyReLU slope.
pub const LEAKY_SLOPE: f64 = 0.01;
/// Accepted channel counts `C`.
pub const CHANNELS_RANGE: std::ops::RangeInclusive<usize> = 1..=256;
/// Accepted depths `D` (residual blocks; U-Net levels, at most [`MAX_LEVELS`]; FNO layers).
pub const DEPTH_RANGE: std::ops::RangeInclusive<usize> = 0..=64;

/// Which architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// The paper's periodic ResNet1D (3-tap circular convolutions).
    Resnet,
    /// Ring-graph network with directional edge convolutions.
    Gcn,
    /// Dilated ResNet: blocks of seven convolutions dilated 1, 2, 4, 8, 4, 2, 1.
    Dilated,
    /// U-Net: `D` levels of halving (at most 4 on 48 points), skip connections.
    Unet,
    /// Fourier neural operator: `D` Fourier layers over the lowest 12 modes.
    Fno,
    /// The Kolmogorov study's 2-D periodic ResNet in its four sizes (`C × D` = 8×5, 8×7, 16×7,
    /// 16×9; see [`resnet2d::PAPER_SIZES`]).
    Resnet2d,
}

crate::named_enum!(Architecture, "architecture", {
    Resnet => "resnet",
    Gcn => "gcn",
    Dilated => "dilated",
    Unet => "unet",
    Fno => "fno",
    Resnet2d => "resnet2d",
});

impl Architecture {
    /// The 1-D architectures (Kuramoto–Sivashinsky).
    pub const ONE_D: [Architecture; 5] = [
        Architecture::Resnet,
        Architecture::Gcn,
        Architecture::Dilated,
        Architecture::Unet,
        Architecture::Fno,
    ];

    /// What `C` and `D` mean for this architecture (form, help).
    pub fn size_knobs(self) -> &'static str {
        match self {
            Architecture::Resnet => "C channels, D residual blocks",
            Architecture::Gcn => "C node features, D residual blocks",
            Architecture::Dilated => "C channels, D dilated blocks of 7 convolutions",
            Architecture::Unet => "C channels at the top (doubling per level), D levels (≤ 4)",
            Architecture::Fno => "C channels, D Fourier layers (12 modes)",
            Architecture::Resnet2d => "the paper's sizes C × D: 8×5, 8×7, 16×7, 16×9",
        }
    }

    /// Largest accepted depth `D`.
    pub fn max_depth(self) -> usize {
        match self {
            Architecture::Unet => MAX_LEVELS,
            _ => *DEPTH_RANGE.end(),
        }
    }
}

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
    /// `depth` outside [`DEPTH_RANGE`] (or above [`Architecture::max_depth`]).
    #[error("depth must be between {min} and {max}, got {got}")]
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
    /// A 2-D ResNet size that is not one of the paper's four.
    #[error("the 2-D ResNet comes in the paper's four sizes C × D = 8×5, 8×7, 16×7, 16×9, got {channels}×{depth}")]
    NotAPaperSize {
        /// The rejected `C`.
        channels: usize,
        /// The rejected `D`.
        depth: usize,
    },
}

impl NetConfig {
    /// Checks `channels ∈ 1..=256` and `depth ∈ 0..=64` (U-Net: `0..=4`).
    pub fn validate(&self) -> Result<(), NetError> {
        if !CHANNELS_RANGE.contains(&self.channels) {
            return Err(NetError::BadChannels {
                min: *CHANNELS_RANGE.start(),
                max: *CHANNELS_RANGE.end(),
                got: self.channels,
            });
        }
        let max_depth = self.architecture.max_depth();
        if !(*DEPTH_RANGE.start()..=max_depth).contains(&self.depth) {
            return Err(NetError::BadDepth {
                min: *DEPTH_RANGE.start(),
                max: max_depth,
                got: self.depth,
            });
        }
        if self.architecture == Architecture::Resnet2d
            && resnet2d::features(self.channels, self.depth).is_none()
        {
            return Err(NetError::NotAPaperSize {
                channels: self.channels,
                depth: self.depth,
            });
        }
        Ok(())
    }

    /// Whether the network works on 2-D states (Kolmogorov flow) rather than 1-D (KS).
    pub fn is_2d(&self) -> bool {
        self.architecture == Architecture::Resnet2d
    }

    /// Exact parameter count of the built network:
    /// ResNet1D `6DC² + (2D + 10)C + 1`, GCN `4DC² + (4D + 8)C + 2`,
    /// dilated ResNet `21DC² + (7D + 10)C + 1`, U-Net `(11·4^D − 8)C² + (7·2^D + 4)C + 1`,
    /// FNO `(25D + 1)C² + (D + 5)C + 1`.
    pub fn parameter_count(&self) -> usize {
        let (c, d) = (self.channels, self.depth);
        match self.architecture {
            Architecture::Resnet => 6 * d * c * c + (2 * d + 10) * c + 1,
            Architecture::Gcn => 4 * d * c * c + (4 * d + 8) * c + 2,
            Architecture::Dilated => 21 * d * c * c + (7 * d + 10) * c + 1,
            Architecture::Unet => (11 * (1 << (2 * d)) - 8) * c * c + (7 * (1 << d) + 4) * c + 1,
            Architecture::Fno => ((2 * MODES + 1) * d + 1) * c * c + (d + 5) * c + 1,
            Architecture::Resnet2d => resnet2d::features(c, d).map_or(0, resnet2d::parameter_count),
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
            Architecture::Dilated => Net::Dilated(DilatedResNet::init(
                self.channels,
                self.depth,
                device,
                &mut rng,
            )),
            Architecture::Unet => {
                Net::Unet(UNet::init(self.channels, self.depth, device, &mut rng))
            }
            Architecture::Fno => Net::Fno(Fno::init(self.channels, self.depth, device, &mut rng)),
            Architecture::Resnet2d => {
                let features = resnet2d::features(self.channels, self.depth).unwrap_or(&[]);
                Net::Resnet2d(ResNet2d::init(features, device, &mut rng))
            }
        })
    }

    /// Forward floating-point operations for one sample of `resolution` points (the 2-D
    /// ResNet: `resolution` = the values of its 2-channel state, 2·N²):
    /// `2·MACs` of every conv / linear layer / DFT matmul plus bias adds, activations (one per
    /// value), skip adds, pooling, and (GCN) the edge-feature differences and the mean
    /// aggregation.
    pub fn flops_per_sample(&self, resolution: usize) -> f64 {
        let (c, d, n) = (self.channels as f64, self.depth as f64, resolution as f64);
        // One 3-tap conv ci → co over `points`: 2·3·ci·co MAC flops + co bias adds per point.
        let conv_at = |ci: f64, co: f64, points: f64| (6.0 * ci * co + co) * points;
        match self.architecture {
            Architecture::Resnet2d => resnet2d::features(self.channels, self.depth)
                .map_or(0.0, |f| resnet2d::flops_per_sample(f, resolution / 2)),
            Architecture::Resnet => {
                let conv = |ci: f64, co: f64| conv_at(ci, co, n);
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
            Architecture::Dilated => {
                // Per block: seven convs, six activations, the skip add.
                let block = 7.0 * conv_at(c, c, n) + 7.0 * c * n;
                conv_at(2.0, c, n) + d * block + conv_at(c, 1.0, n)
            }
            Architecture::Unet => {
                let double = |ci: f64, co: f64, points: f64| {
                    conv_at(ci, co, points) + conv_at(co, co, points) + 2.0 * co * points
                };
                let mut total = double(2.0, c, n) + conv_at(c, 1.0, n);
                for level in 1..=self.depth {
                    let (width, points) = (c * (1u64 << level) as f64, n / (1u64 << level) as f64);
                    // Pool (an add and a halving per output value), then the double conv.
                    total += width * points + double(width / 2.0, width, points);
                    // Decoder of level − 1: up-conv with activation, merge double conv.
                    let (up_width, up_points) = (width / 2.0, 2.0 * points);
                    total += conv_at(width, up_width, up_points)
                        + up_width * up_points
                        + double(2.0 * up_width, up_width, up_points);
                }
                total
            }
            Architecture::Fno => {
                let k = MODES.min(resolution.div_ceil(2)) as f64;
                let pointwise = |ci: f64, co: f64| (2.0 * ci * co + co) * n;
                // Forward DFT (2 matmuls N → K), complex mixing (4 matmuls C → C per mode and 2
                // adds), inverse DFT (2 matmuls K → N and an add).
                let spectral =
                    4.0 * n * k * c + (8.0 * c * c + 2.0 * c) * k + 4.0 * k * n * c + c * n;
                // Per layer: spectral + pointwise + their sum + GELU.
                let layer = spectral + pointwise(c, c) + 2.0 * c * n;
                pointwise(2.0, c) + d * layer + pointwise(c, c) + c * n + pointwise(c, 1.0)
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
    /// The dilated ResNet.
    Dilated(DilatedResNet),
    /// The U-Net.
    Unet(UNet),
    /// The Fourier neural operator.
    Fno(Fno),
    /// The 2-D ResNet (Kolmogorov flow).
    Resnet2d(ResNet2d),
}

impl Net {
    /// `u: [batch, N]` states, `scale: [batch, 1]` the constant channel `s = L/8` per sample
    /// → `[batch, N]` (the 2-D ResNet: `[batch, 3·N²]` velocity and pressure, `Re/1000`
    /// → the velocity correction `[batch, 2·N²]`). Inputs must be f32 on the network's device.
    pub fn forward(&self, u: Tensor<2>, scale: Tensor<2>) -> Tensor<2> {
        match self {
            Net::Resnet(net) => net.forward(u, scale),
            Net::Gcn(net) => net.forward(u, scale),
            Net::Dilated(net) => net.forward(u, scale),
            Net::Unet(net) => net.forward(u, scale),
            Net::Fno(net) => net.forward(u, scale),
            Net::Resnet2d(net) => net.forward(u, scale),
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
            Net::Dilated(_) => Architecture::Dilated,
            Net::Unet(_) => Architecture::Unet,
            Net::Fno(_) => Architecture::Fno,
            Net::Resnet2d(_) => Architecture::Resnet2d,
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

/// A tensor's values as f32, read synchronously (the networks' tests).
#[cfg(test)]
pub(crate) fn test_values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .expect("f32 data")
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
        for a in Architecture::ONE_D {
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
        assert_eq!(err.to_string(), "depth must be between 0 and 64, got 65");
        assert!(config(Architecture::Resnet, 256, 0).validate().is_ok());
        assert!(config(Architecture::Unet, 4, 4).validate().is_ok());
        let err = config(Architecture::Unet, 4, 5)
            .validate()
            .expect_err("48 points halve only 4 times");
        assert_eq!(err.to_string(), "depth must be between 0 and 4, got 5");
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

    /// Parameter tensors of `architecture` at depth `d` (weights and biases counted apart).
    fn tensor_count(architecture: Architecture, d: usize) -> usize {
        match architecture {
            Architecture::Resnet | Architecture::Gcn => 4 * d + 4,
            // Encoder, seven convs per block, decoder.
            Architecture::Dilated => 14 * d + 4,
            // L + 1 double convs down, L × (up conv + double conv), output.
            Architecture::Unet => 10 * d + 6,
            // Lift, per layer real + imag + pointwise weight and bias, two projections.
            Architecture::Fno => 4 * d + 6,
            Architecture::Resnet2d => unreachable!("the 2-D ResNet has its own sizes"),
        }
    }

    #[test]
    fn new_architectures_parameter_counts_match_formula() {
        let device = cpu();
        let sizes = [(1, 0), (1, 1), (3, 1), (4, 2), (5, 3), (2, 4), (16, 4)];
        for architecture in [Architecture::Dilated, Architecture::Unet, Architecture::Fno] {
            for (c, d) in sizes {
                let cfg = config(architecture, c, d);
                let net = cfg.init(&device, 1).expect("init");
                assert_eq!(
                    net.parameter_count(),
                    cfg.parameter_count(),
                    "{architecture} C = {c}, D = {d}"
                );
                assert_eq!(net.architecture(), architecture);
            }
        }
        // Hand-counted anchors: the formulas at C = 3, D = 1.
        // Dilated: 7·3 + 7·(27 + 3) + 10 = 241; U-Net: (44 − 8)·9 + 18·3 + 1 = 379;
        // FNO: 26·9 + 6·3 + 1 = 253.
        assert_eq!(config(Architecture::Dilated, 3, 1).parameter_count(), 241);
        assert_eq!(config(Architecture::Unet, 3, 1).parameter_count(), 379);
        assert_eq!(config(Architecture::Fno, 3, 1).parameter_count(), 253);
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
        for architecture in [Architecture::Dilated, Architecture::Unet, Architecture::Fno] {
            let small = config(architecture, 4, 2).flops_per_sample(48);
            let large = config(architecture, 16, 4).flops_per_sample(48);
            assert!(
                small > 0.0 && small.is_finite() && large > 4.0 * small,
                "{architecture}"
            );
        }
        // Dilated: 7 convs per block ⇒ ≈ 3.5 × the ResNet's FLOPs at the same C, D.
        let ratio = config(Architecture::Dilated, 16, 10).flops_per_sample(48)
            / config(Architecture::Resnet, 16, 10).flops_per_sample(48);
        assert!((3.3..3.7).contains(&ratio), "{ratio}");
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
        for architecture in Architecture::ONE_D {
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
            assert_eq!(weights(&a).len(), tensor_count(architecture, 2));
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
        for architecture in Architecture::ONE_D {
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
        for architecture in Architecture::ONE_D {
            let net = config(architecture, 6, 2).init(&device, 11).expect("init");
            let (u, s) = inputs(2, 16, &device);
            // The U-Net pools twice: equivariant to shifts by multiples of 4 only.
            let shifts: [isize; 3] = match architecture {
                Architecture::Unet => [4, 12, -8],
                _ => [1, 5, -3],
            };
            for shift in shifts {
                let shifted_out = net.forward(circular_shift(u.clone(), shift, 1), s.clone());
                let out_shifted = circular_shift(net.forward(u.clone(), s.clone()), shift, 1);
                let (a, b) = (values(shifted_out), values(out_shifted));
                let err = a
                    .iter()
                    .zip(&b)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f32::max);
                let scale = b.iter().fold(1.0f32, |m, v| m.max(v.abs()));
                assert!(
                    err < 1e-5 * scale,
                    "{} shift {shift}: {err}",
                    architecture.name()
                );
            }
        }
    }

    #[test]
    fn scale_channel_matters() {
        let device = cpu();
        for architecture in Architecture::ONE_D {
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
        for architecture in Architecture::ONE_D {
            let net = config(architecture, 4, 2).init(&device, 2).expect("init");
            let (u, s) = inputs(2, 12, &device);
            let loss = net.forward(u, s).powf_scalar(2.0).mean();
            let grads = loss.backward();
            let mut check = GradCheck {
                grads: &grads,
                checked: 0,
                nonzero: 0,
            };
            net.visit(&mut check);
            let tensors = tensor_count(architecture, 2);
            assert_eq!(check.checked, tensors, "{}", architecture.name());
            assert_eq!(check.nonzero, tensors, "{}", architecture.name());
        }
    }

    #[test]
    fn backward_through_input() {
        let device = cpu_autodiff();
        for architecture in Architecture::ONE_D {
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
