//! The frame the 1-D residual networks share: the inputs stacked as two channels (`u` and the
//! parameter) in the grid layout `[C, N, B]` ([`super::grid`]), an input layer 2 → C, `D`
//! blocks C → C, an output layer C → 1 ([`ResidualFrame`], generic over the layer and the
//! block), and `on_grid` (batch-first `[B, C, N]`) for the FNO.

use burn::module::{Module, ModuleDisplay};
use burn::tensor::{Device, Tensor};

use super::grid::{from_grid, to_grid};
use super::network::{Facts, GridSize, Network};
use super::InitRng;

/// The input and output layer of a [`ResidualFrame`].
pub trait FrameLayer: Module + ModuleDisplay + std::fmt::Debug {
    /// A layer `channels_in → channels_out`, weight drawn before bias.
    fn init(channels_in: usize, channels_out: usize, device: &Device, rng: &mut InitRng) -> Self;

    /// The input layer on the stacked inputs in the grid layout `[2, N, B]` → `[C, N, B]`.
    fn lift(&self, x: Tensor<3>) -> Tensor<3>;

    /// The output layer `[C, N, B]` → `[1, N, B]`.
    fn project(&self, x: Tensor<3>) -> Tensor<3>;

    /// Forward FLOPs of a layer `channels_in → channels_out` over `points` points.
    fn flops(channels_in: f64, channels_out: f64, points: f64) -> f64;
}

/// One block of a [`ResidualFrame`]: `C → C` in the layout of its layers. It also gives the
/// whole network's facts and closed forms (the [`Network`] of its frame).
pub trait FrameBlock: Module + ModuleDisplay + std::fmt::Debug {
    /// The input and output layer around the blocks.
    type Layer: FrameLayer;

    /// The network's facts ([`Network::FACTS`]).
    const FACTS: Facts;

    /// A block of `channels`, its layers drawn in forward order.
    fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self;

    /// `[C, N, B] → [C, N, B]` (the grid layout, [`super::grid`]).
    fn forward(&self, x: Tensor<3>) -> Tensor<3>;

    /// The network's [`Network::parameter_count`].
    fn parameter_count(size: GridSize) -> usize;

    /// Forward FLOPs of one block of `channels` over `points` points.
    fn flops(channels: f64, points: f64) -> f64;

    /// The network's [`Network::activation_floats_per_sample`].
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64;
}

/// Input layer 2 → C, `D` blocks, output layer C → 1.
#[derive(Module, Debug)]
pub struct ResidualFrame<L: FrameLayer, B: FrameBlock> {
    /// Layer 2 → C (channels u, parameter).
    pub input: L,
    /// `D` blocks.
    pub blocks: Vec<B>,
    /// Layer C → 1.
    pub output: L,
}

impl<L: FrameLayer, B: FrameBlock> ResidualFrame<L, B> {
    /// Draws the layers in forward order (input, blocks, output), weight before bias.
    pub fn init(channels: usize, depth: usize, device: &Device, rng: &mut InitRng) -> Self {
        let input = L::init(2, channels, device, rng);
        let blocks = (0..depth).map(|_| B::init(channels, device, rng)).collect();
        let output = L::init(channels, 1, device, rng);
        Self {
            input,
            blocks,
            output,
        }
    }

    /// `u: [batch, N]`, `parameter: [batch, 1]` → `[batch, N]`. No activation after the input
    /// layer (as in the paper's layout).
    pub fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        let x = self.input.lift(to_grid(u, parameter));
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        from_grid(self.output.project(x))
    }
}

impl<B: FrameBlock> Network for ResidualFrame<B::Layer, B> {
    type Size = GridSize;

    const FACTS: Facts = B::FACTS;

    fn build(size: GridSize, device: &Device, rng: &mut InitRng) -> Self {
        Self::init(size.channels, size.depth, device, rng)
    }

    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        ResidualFrame::forward(self, u, parameter)
    }

    fn parameter_count(size: GridSize) -> usize {
        B::parameter_count(size)
    }

    /// Input layer, `D` blocks, output layer.
    fn flops_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        B::Layer::flops(2.0, c, n) + d * B::flops(c, n) + B::Layer::flops(c, 1.0, n)
    }

    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        B::activation_floats_per_sample(size, resolution)
    }
}

/// `body` applied to the inputs stacked as node features, its `N` outputs as `[batch, N]`:
/// `u: [batch, N]`, `parameter: [batch, 1]` → `body([batch, 2, N])` → `[batch, N]`.
pub(crate) fn on_grid(
    u: Tensor<2>,
    parameter: Tensor<2>,
    body: impl FnOnce(Tensor<3>) -> Tensor<3>,
) -> Tensor<2> {
    let [batch, n] = u.dims();
    body(stack_inputs(u, parameter)).reshape([batch, n])
}

/// Stacks the network inputs as node features: `u: [batch, N]`, `parameter: [batch, 1]` →
/// `[batch, 2, N]` (channel 0 = u, channel 1 = the parameter broadcast over N).
pub(crate) fn stack_inputs(u: Tensor<2>, parameter: Tensor<2>) -> Tensor<3> {
    let [batch, n] = u.dims();
    let u = u.reshape([batch, 1, n]);
    let s = parameter.reshape([batch, 1, 1]).expand([batch, 1, n]);
    Tensor::cat(vec![u, s], 1)
}
