//! The correction networks, all periodic like the data: the paper's ResNet1D, a ring-graph
//! network, a dilated ResNet, a U-Net and a Fourier neural operator (1-D: KS), and the 2-D
//! ResNet of the Kolmogorov-flow study.
//!
//! Each implements [`Network`]: it maps a batch of states `u: [batch, values]` plus a
//! per-sample constant channel (KS: `s = L/8`; Kolmogorov: `Re/1000`) `[batch, 1]` to
//! `[batch, values]`, and gives its parameter count, FLOPs and activation memory in closed form.
//! The 1-D residual networks share one [`ResidualFrame`] (input layer → blocks → output layer).
//! [`registry`] lists the architectures once; [`NetConfig`] is a network as files carry it,
//! [`NetSpec`] the typed form. Weights are f32 and are drawn on the host from a portable
//! SplitMix64 stream ([`InitRng`]), so the same seed gives bit-identical weights on every device
//! and platform (native and wasm32 alike).

pub mod config;
pub mod dilated;
pub mod ensemble;
pub mod export;
pub mod fno;
pub mod frame;
pub mod fused;
pub mod fusion;
pub mod gcn;
pub mod grid;
pub mod grid2d;
pub mod init;
pub mod layers;
pub mod network;
pub mod padding;
pub mod registry;
pub mod resnet1d;
pub mod resnet2d;
pub mod unet;

#[cfg(test)]
mod fingerprint;
#[cfg(test)]
mod tests;

pub use config::{NetConfig, NetError};
pub use dilated::{DilatedBlock, DilatedResNet, DILATIONS};
pub use ensemble::Ensemble;
pub use fno::{Fno, FourierLayer, Pointwise, SpectralConv, MODES};
pub use frame::{FrameBlock, FrameLayer, ResidualFrame};
pub use gcn::{Gcn, GcnBlock};
pub use init::InitRng;
pub use layers::conv1d::PeriodicConv1d;
pub use layers::conv2d::PeriodicConv2d;
pub use layers::edge_conv::EdgeConv;
pub use network::{Facts, Forward, GridSize, Marker, Network, NetworkSize};
pub use padding::{circular_pad, circular_shift};
pub use registry::{Architecture, Net, NetSpec};
pub use resnet1d::{ResNet1d, ResidualBlock};
pub use resnet2d::{Block2d, PaperSize, ResNet2d};
pub use unet::{DoubleConv, UNet, UpLevel, MAX_LEVELS};

/// PyTorch's default LeakyReLU slope.
pub const LEAKY_SLOPE: f64 = 0.01;
/// Accepted channel counts `C`.
pub const CHANNELS_RANGE: std::ops::RangeInclusive<usize> = 1..=256;
/// Accepted depths `D` (residual blocks; U-Net levels, at most [`MAX_LEVELS`]; FNO layers).
pub const DEPTH_RANGE: std::ops::RangeInclusive<usize> = 0..=64;

impl Net {
    /// Number of scalar parameters actually held (via [`burn::module::Module::num_params`]).
    pub fn parameter_count(&self) -> usize {
        burn::module::Module::num_params(self)
    }
}

/// A tensor's values as f32, read synchronously (the networks' tests).
#[cfg(test)]
pub(crate) fn test_values<const D: usize>(t: burn::tensor::Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .expect("f32 data")
}
