//! The [`Network`] trait every architecture implements, its size types ([`GridSize`] for the
//! 1-D grid networks; the 2-D ResNet's [`super::resnet2d::PaperSize`]) and the facts the form,
//! the presets and the charts read ([`Facts`]).

use std::fmt;

use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::{InitRng, NetError, CHANNELS_RANGE, DEPTH_RANGE};

/// A correction network: built from its size with weights drawn from [`InitRng`] in forward
/// order, it maps a batch of states and the per-sample parameter channel to a batch of states.
/// Its closed-form parameter count, FLOPs and activation memory need no instance (the cost
/// model counts them before anything is built).
pub trait Network: Module + Sized {
    /// How its size is given (`C × D` on a grid, or one of fixed sizes).
    type Size: NetworkSize;

    /// Title, size knobs, default size, grid of the `sizes` preset, chart marker.
    const FACTS: Facts;

    /// Builds the network, drawing every weight before its bias, layers in forward order.
    fn build(size: Self::Size, device: &Device, rng: &mut InitRng) -> Self;

    /// `u: [batch, values]` states, `parameter: [batch, 1]` the per-sample constant channel
    /// → `[batch, values]` (the 2-D ResNet: `[batch, 3·N²]` velocity and pressure →
    /// `[batch, 2·N²]` velocity). Inputs are f32 on the network's device.
    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2>;

    /// Exact number of scalar parameters of the built network.
    fn parameter_count(size: Self::Size) -> usize;

    /// Forward floating-point operations for one sample of `resolution` state values:
    /// `2·MACs` of every conv / linear layer / DFT matmul plus bias adds, activations, skip adds.
    fn flops_per_sample(size: Self::Size, resolution: usize) -> f64;

    /// f32 values autodiff keeps per sample of `resolution` values for the backward pass (the
    /// memory estimate of [`crate::study::cells::cost`]).
    fn activation_floats_per_sample(size: Self::Size, resolution: usize) -> f64;
}

/// What a hybrid step calls: a map of a batch of states and their per-sample parameter
/// channel to states, `u: [batch, values]`, `parameter: [batch, 1]` → `[batch, values]` — one
/// [`super::Net`], or an ensemble's [`super::Ensemble`] (the batch member-major).
pub trait Forward {
    /// The map (see [`Network::forward`]).
    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2>;
}

/// A network's size: read from and written as the knobs `C` (channels) and `D` (depth), as the
/// config files and the URL carry it.
pub trait NetworkSize: Copy + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The size of knobs `channels`, `depth` (at most `max_depth`), or why there is none.
    fn from_knobs(channels: usize, depth: usize, max_depth: usize) -> Result<Self, NetError>;

    /// `(C, D)`.
    fn knobs(self) -> (usize, usize);

    /// The only sizes there are, where the size is one of a fixed list (else every `C × D`).
    fn choices() -> Option<&'static [(usize, usize)]> {
        None
    }
}

/// `C` channels and `D` blocks / levels / layers of a 1-D grid network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridSize {
    /// Hidden channels / node features `C`.
    pub channels: usize,
    /// Residual blocks, levels or layers `D`.
    pub depth: usize,
}

impl NetworkSize for GridSize {
    /// Checks `channels ∈` [`CHANNELS_RANGE`] and `depth ∈ 0..=max_depth`.
    fn from_knobs(channels: usize, depth: usize, max_depth: usize) -> Result<Self, NetError> {
        if !CHANNELS_RANGE.contains(&channels) {
            return Err(NetError::BadChannels {
                min: *CHANNELS_RANGE.start(),
                max: *CHANNELS_RANGE.end(),
                got: channels,
            });
        }
        if !(*DEPTH_RANGE.start()..=max_depth).contains(&depth) {
            return Err(NetError::BadDepth {
                min: *DEPTH_RANGE.start(),
                max: max_depth,
                got: depth,
            });
        }
        Ok(Self { channels, depth })
    }

    fn knobs(self) -> (usize, usize) {
        (self.channels, self.depth)
    }
}

/// What the page, the presets and the charts say about an architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// The form's menu entry.
    pub title: &'static str,
    /// What `C` and `D` mean (form, help); fixed sizes are listed after it.
    pub size_knobs: &'static str,
    /// Largest accepted depth `D`.
    pub max_depth: usize,
    /// `(C, D)` taken when the architecture is chosen without a size.
    pub default_size: (usize, usize),
    /// The `sizes` preset's four `(C, D)`, smallest first.
    pub size_grid: [(usize, usize); 4],
    /// Dimensions of the state it works on (1: KS; 2: Kolmogorov flow).
    pub state_dims: usize,
    /// Its marker in the error-vs-parameters chart.
    pub marker: Marker,
    /// The nearest APEBench network string, `{C}` and `{D}` standing for its size (`None`:
    /// APEBench has none).
    pub apebench: Option<&'static str>,
}

/// A chart marker shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled triangle.
    Triangle,
    /// A filled square.
    Square,
    /// A filled diamond.
    Diamond,
    /// A cross.
    Cross,
    /// An open circle.
    Ring,
}
