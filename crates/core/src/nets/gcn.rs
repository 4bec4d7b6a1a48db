//! Ring-graph network: every node `i` of the periodic grid is connected to itself and to its
//! neighbours `i ± 1`. A directional edge convolution computes, for each of the three neighbours
//! `j ∈ {i−1, i, i+1}`, the message `m_ij = W·[x_i, x_j − x_i, sign(i − j)] + b` (one `Linear` of
//! `2·C_in + 1` inputs) and averages the three messages. Same residual layout as the ResNet1D
//! (a [`ResidualFrame`] of [`EdgeConv`] and [`GcnBlock`]): input layer 2 → C, `D` blocks of two
//! edge convs with LeakyReLU and skip, output layer C → 1.
//! Parameters `4DC² + (4D + 8)C + 2` (an edge conv C_in → C_out has `(2·C_in + 2)·C_out`).
//!
//! Neighbours are gathered with one `select` over cached periodic indices (the grid layout of
//! [`super::grid`]); all three messages of all nodes go through a single matmul.
//!
//! Messages pass through LeakyReLU before the mean (EdgeConv's `h_Θ` is an MLP) in every layer
//! but the last of each block and the output layer. Why: with an affine message and a mean, a
//! layer equals `W·[x_i, mean_j(x_j) − x_i, mean_j sign(i − j)] + b` with `mean_j sign(i − j) = 0`,
//! so the sign column would never act (zero gradient) and the network would be mirror-symmetric,
//! which the KS dynamics (`u u_x`) are not. The activated message keeps the direction (see the
//! `distinguishes_left_from_right` test). Block layout: `x ↦ LeakyReLU(x + conv₂(conv₁*(x)))`
//! where `conv₁*` activates its messages (in place of the ResNet's LeakyReLU after conv₁).

use super::fusion::leaky_relu;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::frame::{FrameBlock, FrameLayer, ResidualFrame};
use super::fused::edge::edge_conv;
use super::init::weight_and_bias;
use super::layers::edge_conv::EdgeConv;
use super::network::{Facts, GridSize, Marker};
use super::{InitRng, DEPTH_RANGE, LEAKY_SLOPE};

impl EdgeConv {
    /// `[C_in, N, B] → [C_out, N, B]` (the grid layout): mean over `j ∈ {i−1, i, i+1}`
    /// (periodic) of `m_ij = W·[x_i, x_j − x_i, sign(i − j)] + b`, or of `LeakyReLU(m_ij)` when
    /// `activate_messages`. The edge features of every message are the columns of one
    /// `[2·C_in + 1, 3·N·B]` matrix (column `t·N·B + i·B + b`: neighbour offset `t − 1`), so all
    /// messages are one matmul.
    pub fn forward(&self, x: Tensor<3>, activate_messages: bool) -> Tensor<3> {
        edge_conv(x, self, activate_messages.then_some(LEAKY_SLOPE))
    }
}

impl FrameLayer for EdgeConv {
    /// PyTorch's default Linear init: weight then bias from `U(−1/√(2·C_in + 1), 1/√(2·C_in + 1))`.
    fn init(channels_in: usize, channels_out: usize, device: &Device, rng: &mut InitRng) -> Self {
        let features = 2 * channels_in + 1;
        let (weight, bias) = weight_and_bias(
            [features, channels_out],
            features,
            channels_out,
            device,
            rng,
        );
        Self { weight, bias }
    }

    /// `[2, N, B] → [C, N, B]`, messages activated.
    fn lift(&self, x: Tensor<3>) -> Tensor<3> {
        self.forward(x, true)
    }

    /// `[C, N, B] → [1, N, B]`, messages not activated.
    fn project(&self, x: Tensor<3>) -> Tensor<3> {
        self.forward(x, false)
    }

    /// 3 messages per node, each a Linear(2ci + 1 → co) with bias on `[x_i, x_j − x_i, sign]`
    /// (ci subtractions), then a mean over 3 (3·co).
    fn flops(ci: f64, co: f64, n: f64) -> f64 {
        3.0 * n * (2.0 * (2.0 * ci + 1.0) * co + co + ci) + 3.0 * co * n
    }
}

/// `x ↦ LeakyReLU(x + conv₂(LeakyReLU(conv₁(x))))` with edge convs, `[C, N, B]` → same.
#[derive(Module, Debug)]
pub struct GcnBlock {
    /// First edge conv C → C.
    pub conv1: EdgeConv,
    /// Second edge conv C → C.
    pub conv2: EdgeConv,
}

impl FrameBlock for GcnBlock {
    type Layer = EdgeConv;

    const FACTS: Facts = Facts {
        title: "ring graph network (GCN)",
        size_knobs: "C node features, D residual blocks",
        max_depth: *DEPTH_RANGE.end(),
        // The paper's GCN: 11,010 parameters.
        default_size: (16, 10),
        size_grid: [(4, 2), (8, 4), (16, 6), (32, 8)],
        state_dims: 1,
        marker: Marker::Triangle,
        apebench: None,
    };

    /// Draws `conv1` then `conv2`.
    fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self {
        Self {
            conv1: EdgeConv::init(channels, channels, device, rng),
            conv2: EdgeConv::init(channels, channels, device, rng),
        }
    }

    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let h = self.conv1.forward(x.clone(), true);
        leaky_relu(x + self.conv2.forward(h, false), LEAKY_SLOPE)
    }

    /// `4DC² + (4D + 8)C + 2`.
    fn parameter_count(size: GridSize) -> usize {
        let (c, d) = (size.channels, size.depth);
        4 * d * c * c + (4 * d + 8) * c + 2
    }

    /// Two edge convs, the skip add and the activation.
    fn flops(c: f64, n: f64) -> f64 {
        2.0 * EdgeConv::flops(c, c, n) + 3.0 * c * n
    }

    /// `(28C + 6)·D·N + (13C + 25)·N`: per edge convolution the three edge features
    /// `[x_i, x_j − x_i, sign]`, the messages before and after the activation and their mean.
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        (28.0 * c + 6.0) * d * n + (13.0 * c + 25.0) * n
    }
}

/// The ring-graph network.
pub type Gcn = ResidualFrame<EdgeConv, GcnBlock>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{cpu, cpu_autodiff};
    use crate::nets::layers::edge_conv::NEIGHBOUR_OFFSETS;
    use burn::tensor::TensorData;

    use crate::nets::test_values as values;

    #[test]
    fn edge_conv_matches_per_node_loop() {
        let device = cpu();
        let (b, n, ci, co) = (2, 5, 2, 3);
        let mut rng = InitRng::new(4);
        let conv = EdgeConv::init(ci, co, &device, &mut rng);
        let x: Vec<f32> = (0..b * n * ci)
            .map(|i| ((i * 7 % 5) as f32) - 2.0)
            .collect();
        let input = Tensor::<3>::from_data(TensorData::new(x.clone(), [b, n, ci]), &device)
            .permute([2, 1, 0]);
        let got = values(conv.forward(input.clone(), false).permute([2, 1, 0]));
        let activated = values(conv.forward(input, true).permute([2, 1, 0]));
        let w = values(conv.weight.val());
        let bias = values(conv.bias.val());
        let at = |bi: usize, i: usize, c: usize| x[(bi * n + i) * ci + c];
        for bi in 0..b {
            for i in 0..n {
                for o in 0..co {
                    let (mut sum, mut activated_sum) = (0.0, 0.0);
                    for offset in NEIGHBOUR_OFFSETS {
                        let j = (i as isize + offset).rem_euclid(n as isize) as usize;
                        let mut m = bias[o];
                        for c in 0..ci {
                            m += w[c * co + o] * at(bi, i, c);
                            m += w[(ci + c) * co + o] * (at(bi, j, c) - at(bi, i, c));
                        }
                        m += w[2 * ci * co + o] * (-offset as f32);
                        sum += m;
                        activated_sum += if m >= 0.0 { m } else { LEAKY_SLOPE as f32 * m };
                    }
                    let expected = sum / 3.0;
                    let value = got[(bi * n + i) * co + o];
                    assert!((value - expected).abs() < 1e-5, "{value} vs {expected}");
                    let value = activated[(bi * n + i) * co + o];
                    assert!((value - activated_sum / 3.0).abs() < 1e-5);
                }
            }
        }
    }

    #[test]
    fn distinguishes_left_from_right() {
        // With activated messages, mirroring the input does not just mirror the output, and the
        // sign row of the input layer gets a gradient (see the module docs).
        let device = cpu_autodiff();
        let mut rng = InitRng::new(6);
        let net = Gcn::init(4, 1, &device, &mut rng);
        let n = 9;
        let u: Vec<f32> = (0..n)
            .map(|i| (i as f32 * 0.9).sin() + 0.1 * i as f32)
            .collect();
        let mirrored: Vec<f32> = u.iter().rev().copied().collect();
        let run = |u: Vec<f32>| {
            net.forward(
                Tensor::<2>::from_data(TensorData::new(u, [1, n]), &device),
                Tensor::<2>::from_data(TensorData::new(vec![1.1f32], [1, 1]), &device),
            )
        };
        let out = values(run(u.clone()).without_autodiff());
        let out_mirrored = values(run(mirrored).without_autodiff());
        let asymmetry = (0..n)
            .map(|i| (out[i] - out_mirrored[n - 1 - i]).abs())
            .fold(0.0f32, f32::max);
        assert!(asymmetry > 1e-4, "mirror-symmetric: {asymmetry}");
        let grads = run(u).powf_scalar(2.0).sum().backward();
        let grad = values(net.input.weight.val().grad(&grads).expect("gradient"));
        let width = 4; // C_out of the input layer.
        let sign_row = &grad[2 * 2 * width..];
        assert!(sign_row.iter().any(|g| g.abs() > 1e-6), "{sign_row:?}");
        assert!(grad[..2 * 2 * width].iter().any(|g| g.abs() > 1e-4));
    }
}
