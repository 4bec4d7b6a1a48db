//! [`NetConfig`]: a network as config files, results, the URL and the CLI carry it
//! (`{"architecture": "...", "channels": C, "depth": D}`), read into the typed [`NetSpec`]; and
//! [`NetError`].

use serde::{Deserialize, Serialize};

use super::registry::{sizes_text, Architecture, Net, NetSpec};
use super::resnet2d::PaperSize;
use super::{InitRng, NetworkSize};
use burn::tensor::Device;

/// Architecture and size knobs of a correction network (the form every file stores).
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
    /// The paper's default: ResNet1D at its default size, C = 16, D = 10 (15,841 parameters).
    fn default() -> Self {
        Self::of(Architecture::Resnet)
    }
}

/// Everything that can go wrong when building a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// `channels` outside [`super::CHANNELS_RANGE`].
    #[error("channels must be between {min} and {max}, got {got}")]
    BadChannels {
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
        /// The rejected value.
        got: usize,
    },
    /// `depth` outside [`super::DEPTH_RANGE`] (or above [`Architecture::max_depth`]).
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
    #[error(
        "the 2-D ResNet comes in the paper's four sizes C × D = {}, got {channels}×{depth}",
        sizes_text(PaperSize::choices().unwrap_or_default())
    )]
    NotAPaperSize {
        /// The rejected `C`.
        channels: usize,
        /// The rejected `D`.
        depth: usize,
    },
    /// An ensemble of an architecture that has no member axis.
    #[error("the {0} network does not train as an ensemble (only resnet does); train its members one at a time (--ensemble off)")]
    NoEnsemble(super::Architecture),
    /// An ensemble of no members.
    #[error("an ensemble needs at least one member")]
    NoMembers,
}

impl NetConfig {
    /// `architecture` at its default size.
    pub fn of(architecture: Architecture) -> Self {
        let (channels, depth) = architecture.default_size();
        Self {
            architecture,
            channels,
            depth,
        }
    }

    /// Switched to `architecture`: a size left at the old architecture's default takes the new
    /// one's default (as choosing a system takes the system's defaults); a size set by hand is
    /// kept.
    pub fn with_architecture(self, architecture: Architecture) -> Self {
        if architecture == self.architecture {
            return self;
        }
        if (self.channels, self.depth) == self.architecture.default_size() {
            return Self::of(architecture);
        }
        Self {
            architecture,
            ..self
        }
    }

    /// The typed network: `channels ∈ 1..=256`, `depth ∈ 0..=64` (U-Net: `0..=4`), the 2-D
    /// ResNet one of the paper's sizes.
    pub fn spec(&self) -> Result<NetSpec, NetError> {
        self.architecture.spec(self.channels, self.depth)
    }

    /// Checks the size (see [`NetConfig::spec`]).
    pub fn validate(&self) -> Result<(), NetError> {
        self.spec().map(|_| ())
    }

    /// Exact parameter count of the built network (0 for an invalid size; see each
    /// architecture's [`super::Network::parameter_count`]).
    pub fn parameter_count(&self) -> usize {
        self.spec().map_or(0, NetSpec::parameter_count)
    }

    /// Builds the network on `device` with weights drawn deterministically from `seed`
    /// (PyTorch's default Conv1d/Linear init, `U(−1/√fan_in, 1/√fan_in)` for weights and biases).
    pub fn init(&self, device: &Device, seed: u64) -> Result<Net, NetError> {
        Ok(self.spec()?.build(device, &mut InitRng::new(seed)))
    }

    /// The default architecture at 4 channels × depth 1 on `device` from `seed`: the small
    /// network of the solver tests.
    #[cfg(test)]
    pub(crate) fn tiny(device: &Device, seed: u64) -> Net {
        NetConfig {
            channels: 4,
            depth: 1,
            ..NetConfig::default()
        }
        .init(device, seed)
        .expect("net")
    }

    /// Forward floating-point operations for one sample of `resolution` values (the 2-D
    /// ResNet: the values of its 2-channel state, 2·N²); 0 for an invalid size.
    pub fn flops_per_sample(&self, resolution: usize) -> f64 {
        self.spec()
            .map_or(0.0, |spec| spec.flops_per_sample(resolution))
    }

    /// f32 values kept for the backward pass per sample of `resolution` values; 0 for an
    /// invalid size.
    pub fn activation_floats_per_sample(&self, resolution: usize) -> f64 {
        self.spec()
            .map_or(0.0, |spec| spec.activation_floats_per_sample(resolution))
    }
}

impl TryFrom<NetConfig> for NetSpec {
    type Error = NetError;

    fn try_from(config: NetConfig) -> Result<Self, NetError> {
        config.spec()
    }
}

impl From<NetSpec> for NetConfig {
    fn from(spec: NetSpec) -> Self {
        let (channels, depth) = spec.knobs();
        Self {
            architecture: spec.architecture(),
            channels,
            depth,
        }
    }
}
