//! The 2-D periodic ResNet of the paper's Kolmogorov-flow study, in its four sizes.
//!
//! Input: velocity `u, v`, pressure `p` and the constant channel `Re/1000` on an `N × N` grid
//! (4 channels). One residual block per entry `f` of the size's feature list:
//! `x ↦ LeakyReLU(skip(x) + conv₂(LeakyReLU(conv₁(x))))` with 3×3 periodic convolutions
//! (`C_in → f`, `f → f`) and `skip` a 1×1 convolution in every block (the official
//! `convResNet_2D_centered(…, conv_skips=True)`); then a 3×3 output convolution to the 2
//! velocity channels. Every convolution has a bias. The sizes are named by `(C, D)` = (first
//! width, blocks).
//!
//! Parameter counts: 32,376 / 115,810 / 461,250 / 1,084,610. The paper's 32,369 / 115,803 /
//! 461,235 / 1,084,595 (its checkpoint paths) come from `resnet_variable_count` in the official
//! `kolmogorov/helpers.py`, which counts 3 input and 3 output channels; the network it trains
//! takes 4 (u, v, p, Re/1000) and returns 2, i.e. `10·f₀ − 9·f_last − 1` = 7 (sizes 0, 1) or 15
//! (sizes 2, 3) parameters more: [`official_variable_count`] reproduces the paper's four.
//!
//! Two paths compute the same function. On the CPU backend in f32 under
//! [`super::fusion::Fusion::Block`] the network converts once to the grid layout `[C, N, N, B]`
//! ([`super::grid2d`]), runs each block as one fused op ([`crate::nets::fused::block2d`]: 2 gemms
//! forward, 4 backward, the skip inside the second) and the output convolution as another
//! ([`crate::nets::fused::conv2d`]), and converts back. Everywhere else (wgpu, WebGPU, f64, the other
//! fusion levels, checkpoints without skip convolutions) it runs the composite batch-first code
//! below (`[B, C, N, N]`, the reference).

use super::fused::block::fuses;
use super::fused::block2d::residual_block2d;
use super::fused::conv2d::conv2d_layer;
use super::fusion::leaky_relu;
use super::grid2d::{from_grid2d, to_grid2d};
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::layers::conv2d::PeriodicConv2d;
use super::network::{Facts, GridSize, Marker, Network, NetworkSize};
use super::{InitRng, NetError, DEPTH_RANGE, LEAKY_SLOPE};

/// Input channels: `u`, `v`, `p`, `Re/1000`.
pub const INPUT_CHANNELS: usize = 4;
/// Output channels: the velocity correction `(Δu, Δv)`.
pub const OUTPUT_CHANNELS: usize = 2;

/// The paper's four sizes (`kolm_train.py --feat_selector 0..3`): `(C, D, features per block)`,
/// about 32k, 0.1M, 0.5M and 1M parameters.
pub const PAPER_SIZES: [(usize, usize, &[usize]); 4] = [
    (8, 5, &[8, 20, 30, 20, 8]),
    (8, 7, &[8, 16, 32, 64, 32, 16, 8]),
    (16, 7, &[16, 32, 64, 128, 64, 32, 16]),
    (16, 9, &[16, 32, 64, 128, 128, 128, 64, 32, 16]),
];

/// One of the paper's four sizes, by `kolm_train.py --feat_selector` (the rows of
/// [`PAPER_SIZES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperSize {
    /// `--feat_selector 0` (≈ 32k parameters).
    Feat0,
    /// `--feat_selector 1` (≈ 0.1M).
    Feat1,
    /// `--feat_selector 2` (≈ 0.5M).
    Feat2,
    /// `--feat_selector 3` (≈ 1M).
    Feat3,
}

/// `(C, D)` of every row of [`PAPER_SIZES`].
const PAPER_KNOBS: [(usize, usize); 4] = {
    let mut knobs = [(0, 0); 4];
    let mut i = 0;
    while i < knobs.len() {
        knobs[i] = (PAPER_SIZES[i].0, PAPER_SIZES[i].1);
        i += 1;
    }
    knobs
};

impl PaperSize {
    /// The four, smallest first.
    pub const ALL: [PaperSize; 4] = [Self::Feat0, Self::Feat1, Self::Feat2, Self::Feat3];

    /// Its feature list (one width per block).
    pub fn features(self) -> &'static [usize] {
        PAPER_SIZES[self as usize].2
    }
}

impl NetworkSize for PaperSize {
    /// Channels and depth in range, then one of [`PAPER_SIZES`].
    fn from_knobs(channels: usize, depth: usize, max_depth: usize) -> Result<Self, NetError> {
        GridSize::from_knobs(channels, depth, max_depth)?;
        Self::ALL
            .into_iter()
            .find(|size| size.knobs() == (channels, depth))
            .ok_or(NetError::NotAPaperSize { channels, depth })
    }

    fn knobs(self) -> (usize, usize) {
        PAPER_KNOBS[self as usize]
    }

    fn choices() -> Option<&'static [(usize, usize)]> {
        Some(&PAPER_KNOBS)
    }
}

/// `(C_in, C_out)` of every block of `features`, starting from the input channels.
fn block_widths(features: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    std::iter::once(INPUT_CHANNELS)
        .chain(features.iter().copied())
        .zip(features.iter().copied())
}

/// The official `resnet_variable_count(features)` (`kolmogorov/helpers.py`): 3 input and 3
/// output channels, a biased 1×1 skip conv per block; the number in the paper's checkpoint paths.
pub fn official_variable_count(features: &[usize]) -> usize {
    let mut count = 10 * 3 * features[0] + 3 * features[0] + 9 * features[0] * features[0];
    for pair in features.windows(2) {
        count += 10 * pair[0] * pair[1] + 3 * pair[1] + 9 * pair[1] * pair[1];
    }
    count + 9 * 3 * features[features.len() - 1] + 3
}

/// Exact parameter count of the network with `features`.
pub fn parameter_count(features: &[usize]) -> usize {
    let conv = |ci: usize, co: usize, taps: usize| taps * ci * co + co;
    let blocks: usize = block_widths(features)
        .map(|(ci, co)| conv(ci, co, 9) + conv(co, co, 9) + conv(ci, co, 1))
        .sum();
    let last = features.last().copied().unwrap_or(INPUT_CHANNELS);
    blocks + conv(last, OUTPUT_CHANNELS, 9)
}

/// Forward FLOPs for one sample on `points` grid points: `2·MACs + bias` of every convolution,
/// two activations and a skip add per value of each block.
pub fn flops_per_sample(features: &[usize], points: usize) -> f64 {
    let p = points as f64;
    let conv = |ci: usize, co: usize, taps: usize| ((2 * taps * ci * co + co) as f64) * p;
    let blocks: f64 = block_widths(features)
        .map(|(ci, co)| conv(ci, co, 9) + conv(co, co, 9) + conv(ci, co, 1) + 3.0 * co as f64 * p)
        .sum();
    let last = features.last().copied().unwrap_or(INPUT_CHANNELS);
    blocks + conv(last, OUTPUT_CHANNELS, 9)
}

/// Floats of the intermediate tensors autodiff keeps for one sample on `points` grid points:
/// per block the two stacked 3×3 tap inputs (`9·C_in`, `9·C_out`), the two conv outputs, the
/// inner activation, the skip conv (`C_in + C_out`), the sum and the outer activation; the
/// output conv's taps and output. That is the composite path's; the fused path
/// ([`crate::nets::fused::block2d`]) keeps `10·C_in + 12·C_out` per block, `3·C_out` fewer.
pub fn activation_floats_per_sample(features: &[usize], points: usize) -> f64 {
    let blocks: usize = block_widths(features)
        .map(|(ci, co)| 9 * ci + 9 * co + 5 * co + ci + co)
        .sum();
    let last = features.last().copied().unwrap_or(INPUT_CHANNELS);
    ((INPUT_CHANNELS + blocks + 9 * last + OUTPUT_CHANNELS) * points) as f64
}

/// One residual block `C_in → C_out` (see the module docs).
#[derive(Module, Debug)]
pub struct Block2d {
    /// 3×3 conv `C_in → C_out`.
    pub conv1: PeriodicConv2d,
    /// 3×3 conv `C_out → C_out`.
    pub conv2: PeriodicConv2d,
    /// 1×1 conv `C_in → C_out` (in every block; `None` only in checkpoints of the older
    /// identity-skip layout).
    pub skip: Option<PeriodicConv2d>,
}

impl Block2d {
    /// Draws `conv1`, `conv2`, then `skip`.
    pub fn init(
        channels_in: usize,
        channels_out: usize,
        device: &Device,
        rng: &mut InitRng,
    ) -> Self {
        let conv1 = PeriodicConv2d::init(channels_in, channels_out, 3, device, rng);
        let conv2 = PeriodicConv2d::init(channels_out, channels_out, 3, device, rng);
        let skip = Some(PeriodicConv2d::init(
            channels_in,
            channels_out,
            1,
            device,
            rng,
        ));
        Self { conv1, conv2, skip }
    }

    /// `[batch, C_in, N, N] → [batch, C_out, N, N]`.
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let h = leaky_relu(self.conv1.forward(x.clone()), LEAKY_SLOPE);
        let skip = match &self.skip {
            Some(conv) => conv.forward(x),
            None => x,
        };
        leaky_relu(skip + self.conv2.forward(h), LEAKY_SLOPE)
    }
}

/// The 2-D ResNet.
#[derive(Module, Debug)]
pub struct ResNet2d {
    /// One block per feature width.
    pub blocks: Vec<Block2d>,
    /// 3×3 conv to the two velocity channels.
    pub output: PeriodicConv2d,
}

impl ResNet2d {
    /// Draws the blocks in order, then the output conv.
    pub fn init(features: &[usize], device: &Device, rng: &mut InitRng) -> Self {
        let blocks = block_widths(features)
            .map(|(ci, co)| Block2d::init(ci, co, device, rng))
            .collect();
        let last = features.last().copied().unwrap_or(INPUT_CHANNELS);
        let output = PeriodicConv2d::init(last, OUTPUT_CHANNELS, 3, device, rng);
        Self { blocks, output }
    }

    /// Every block's skip convolution, if every block has one.
    fn skips(&self) -> Option<Vec<&PeriodicConv2d>> {
        self.blocks
            .iter()
            .map(|block| block.skip.as_ref())
            .collect()
    }

    /// The fused path of [`Network::forward`] (see the module docs): `state: [B, 3·N²]`,
    /// `parameter: [B, 1]` → `[B, 2·N²]` through the grid layout `[C, N, N, B]`.
    fn forward_fused(
        &self,
        state: Tensor<2>,
        parameter: Tensor<2>,
        n: usize,
        skips: &[&PeriodicConv2d],
    ) -> Tensor<2> {
        let x = to_grid2d(state, parameter, n);
        let x = self.blocks.iter().zip(skips).fold(x, |x, (block, skip)| {
            residual_block2d(x, &block.conv1, &block.conv2, skip)
        });
        from_grid2d(conv2d_layer(x, &self.output))
    }
}

impl Network for ResNet2d {
    type Size = PaperSize;

    const FACTS: Facts = Facts {
        title: "2-D ResNet (Kolmogorov flow; the paper's four sizes)",
        size_knobs: "the paper's sizes C × D",
        max_depth: *DEPTH_RANGE.end(),
        default_size: PAPER_KNOBS[0],
        size_grid: PAPER_KNOBS,
        state_dims: 2,
        marker: Marker::Ring,
        apebench: None,
    };

    fn build(size: PaperSize, device: &Device, rng: &mut InitRng) -> Self {
        Self::init(size.features(), device, rng)
    }

    /// `state: [batch, 3·N²]` (u, v, p, each `N × N` row-major), `parameter: [batch, 1]`
    /// (`Re/1000`) → the velocity correction `[batch, 2·N²]`: the fused path where it applies,
    /// else the composite (module docs).
    fn forward(&self, state: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        let [batch, values] = state.dims();
        let n = grid_side(values / 3);
        let first = self
            .blocks
            .first()
            .map_or(&self.output, |block| &block.conv1);
        if let Some(skips) = self.skips() {
            if fuses(&state, &first.weight.val(), &self.output.weight.val()) {
                return self.forward_fused(state, parameter, n, &skips);
            }
        }
        let fields = state.reshape([batch, 3, n, n]);
        let constant = parameter.reshape([batch, 1, 1, 1]).expand([batch, 1, n, n]);
        let x = Tensor::cat(vec![fields, constant], 1);
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        self.output
            .forward(x)
            .reshape([batch, OUTPUT_CHANNELS * n * n])
    }

    fn parameter_count(size: PaperSize) -> usize {
        parameter_count(size.features())
    }

    /// `resolution` = the values of its 2-channel state, 2·N².
    fn flops_per_sample(size: PaperSize, resolution: usize) -> f64 {
        flops_per_sample(size.features(), resolution / 2)
    }

    /// `resolution` = the values of its 2-channel state, 2·N².
    fn activation_floats_per_sample(size: PaperSize, resolution: usize) -> f64 {
        activation_floats_per_sample(size.features(), resolution / 2)
    }
}

/// The side `N` of a square grid of `points` points (`N = √points`, rounded).
fn grid_side(points: usize) -> usize {
    (points as f64).sqrt().round() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use burn::tensor::TensorData;

    use crate::nets::test_values as values;

    #[test]
    fn parameter_counts_of_the_paper_sizes() {
        let counts: Vec<usize> = PAPER_SIZES
            .iter()
            .map(|(_, _, f)| parameter_count(f))
            .collect();
        assert_eq!(counts, vec![32_376, 115_810, 461_250, 1_084_610]);
        // The paper's four, from the official helper's 3-in/3-out count.
        let official: Vec<usize> = PAPER_SIZES
            .iter()
            .map(|(_, _, f)| official_variable_count(f))
            .collect();
        assert_eq!(official, vec![32_369, 115_803, 461_235, 1_084_595]);
        for (size, (ours, paper)) in PAPER_SIZES.iter().zip(counts.iter().zip(&official)) {
            let (first, last) = (size.2[0], size.2[size.2.len() - 1]);
            assert_eq!(ours - paper, 10 * first - 9 * last - 1);
        }
        for index in [0, 3] {
            let mut rng = InitRng::new(1);
            let net = ResNet2d::init(PAPER_SIZES[index].2, &cpu(), &mut rng);
            assert_eq!(net.num_params(), counts[index]);
        }
    }

    /// A 3×3 conv against a direct periodic sum, on a 4 × 5 grid with random weights.
    #[test]
    fn convolution_is_the_periodic_cross_correlation() {
        let device = cpu();
        let mut rng = InitRng::new(7);
        let conv = PeriodicConv2d::init(2, 3, 3, &device, &mut rng);
        let (rows, columns) = (4usize, 5usize);
        let input: Vec<f32> = (0..2 * rows * columns)
            .map(|i| ((i * 37 % 11) as f32) - 5.0)
            .collect();
        let x = Tensor::<4>::from_data(
            TensorData::new(input.clone(), [1, 2, rows, columns]),
            &device,
        );
        let got = values(conv.forward(x));
        let weight = values(conv.weight.val());
        let bias = values(conv.bias.val());
        for o in 0..3 {
            for i in 0..rows {
                for j in 0..columns {
                    let mut want = bias[o];
                    for c in 0..2 {
                        for a in 0..3 {
                            for b in 0..3 {
                                let r = (i + rows + a - 1) % rows;
                                let s = (j + columns + b - 1) % columns;
                                want += weight[((o * 2 + c) * 3 + a) * 3 + b]
                                    * input[(c * rows + r) * columns + s];
                            }
                        }
                    }
                    let value = got[(o * rows + i) * columns + j];
                    assert!(
                        (value - want).abs() < 1e-4,
                        "({o},{i},{j}): {value} vs {want}"
                    );
                }
            }
        }
    }

    /// Shifting the input periodically shifts the output the same way (translation equivariance
    /// of a periodic network), and the output has the velocity shape.
    #[test]
    fn network_is_periodic_and_shaped() {
        let device = cpu();
        let mut rng = InitRng::new(3);
        let net = ResNet2d::init(PAPER_SIZES[0].2, &device, &mut rng);
        let n = 8;
        let state: Vec<f32> = (0..3 * n * n)
            .map(|i| ((i * 13 % 17) as f32) / 17.0 - 0.5)
            .collect();
        let x = Tensor::<2>::from_data(TensorData::new(state, [1, 3 * n * n]), &device);
        let re = Tensor::<2>::from_data(TensorData::new(vec![0.6f32], [1, 1]), &device);
        let out = net.forward(x.clone(), re.clone());
        assert_eq!(out.dims(), [1, 2 * n * n]);
        let shift = |t: Tensor<2>, channels: usize| {
            super::super::circular_shift(t.reshape([1, channels, n, n]), 1, 3)
                .reshape([1, channels * n * n])
        };
        let shifted = values(net.forward(shift(x, 3), re));
        let want = values(shift(out, 2));
        for (a, b) in shifted.iter().zip(&want) {
            assert!((a - b).abs() < 1e-5);
        }
    }
}
