//! Dilated ResNet ("Dil-ResNet" of the learned-simulator literature, Stachenfeld et al. 2022):
//! encoder conv(2 → C), `D` blocks, decoder conv(C → 1) — a [`ResidualFrame`] of
//! [`PeriodicConv1d`] and [`DilatedBlock`]. A block is seven periodic 3-tap convolutions C → C
//! with dilations [`DILATIONS`] = 1, 2, 4, 8, 4, 2, 1, a LeakyReLU after each but the last, and
//! a skip around the block. The dilations widen the receptive field of one block to 45 points
//! (the grid has 48). Parameters `21DC² + (7D + 10)C + 1`.

use super::fused::conv::conv_layer;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::frame::{FrameBlock, FrameLayer, ResidualFrame};
use super::layers::conv1d::{conv_flops, PeriodicConv1d};
use super::network::{Facts, GridSize, Marker};
use super::{InitRng, DEPTH_RANGE, LEAKY_SLOPE};

/// The dilations of one block's convolutions, out and back.
pub const DILATIONS: [usize; 7] = [1, 2, 4, 8, 4, 2, 1];

/// `x ↦ x + conv₇(σ(… σ(conv₁(x))))` with conv `i` dilated by `DILATIONS[i]`,
/// `[C, N, B] → [C, N, B]`.
#[derive(Module, Debug)]
pub struct DilatedBlock {
    /// One conv C → C per entry of [`DILATIONS`].
    pub convs: Vec<PeriodicConv1d>,
}

impl FrameBlock for DilatedBlock {
    type Layer = PeriodicConv1d;

    const FACTS: Facts = Facts {
        title: "dilated ResNet (dilations 1, 2, 4, 8, 4, 2, 1)",
        size_knobs: "C channels, D dilated blocks of 7 convolutions",
        max_depth: *DEPTH_RANGE.end(),
        default_size: (12, 3),
        size_grid: [(3, 1), (6, 2), (12, 3), (24, 4)],
        state_dims: 1,
        marker: Marker::Square,
        apebench: Some("Dil;4;{C};{D};relu"),
    };

    /// Draws the convolutions in order.
    fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self {
        Self {
            convs: DILATIONS
                .iter()
                .map(|_| PeriodicConv1d::init(channels, channels, device, rng))
                .collect(),
        }
    }

    /// Each convolution with its activation is one fused op where it applies ([`conv_layer`]).
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let last = self.convs.len() - 1;
        let h = self.convs.iter().zip(DILATIONS).enumerate().fold(
            x.clone(),
            |h, (i, (conv, dilation))| {
                let slope = (i < last).then_some(LEAKY_SLOPE);
                conv_layer(h, conv, dilation, slope)
            },
        );
        x + h
    }

    /// `21DC² + (7D + 10)C + 1`.
    fn parameter_count(size: GridSize) -> usize {
        let (c, d) = (size.channels, size.depth);
        21 * d * c * c + (7 * d + 10) * c + 1
    }

    /// Seven convs, six activations and the skip add.
    fn flops(c: f64, n: f64) -> f64 {
        7.0 * conv_flops(c, c, n) + 7.0 * c * n
    }

    /// `(21D + 3)·C·N + 3N`: per conv its padded input, output and activation, per block the
    /// skip sum.
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        (21.0 * d + 3.0) * c * n + 3.0 * n
    }
}

/// The dilated ResNet.
pub type DilatedResNet = ResidualFrame<PeriodicConv1d, DilatedBlock>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use burn::module::Param;
    use burn::tensor::TensorData;

    use crate::nets::test_values as values;

    #[test]
    fn dilated_taps_read_points_dilation_apart_periodically() {
        let device = cpu();
        let conv = PeriodicConv1d {
            weight: Param::from_tensor(Tensor::<3>::from_data(
                TensorData::new(vec![1.0f32, 10.0, 100.0], [1, 1, 3]),
                &device,
            )),
            bias: Param::from_tensor(Tensor::<1>::zeros([1], &device)),
        };
        let x: Vec<f32> = (0..10).map(|i| i as f32).collect();
        let n = x.len();
        let input = Tensor::<3>::from_data(TensorData::new(x.clone(), [1, n, 1]), &device);
        for dilation in [1, 4, 8, 13] {
            let got = values(conv.forward_dilated(input.clone(), dilation));
            for i in 0..n {
                let at = |offset: isize| x[(i as isize + offset).rem_euclid(n as isize) as usize];
                let d = dilation as isize;
                let want = at(-d) + 10.0 * at(0) + 100.0 * at(d);
                assert_eq!(got[i], want, "dilation {dilation}, point {i}");
            }
        }
    }

    #[test]
    fn one_block_sees_45_points() {
        // Receptive field of a block: 1 + 2·Σ dilations.
        assert_eq!(1 + 2 * DILATIONS.iter().sum::<usize>(), 45);
        // A perturbation at point 0 of a 64-point grid reaches no point farther than that.
        let device = cpu();
        let net = DilatedResNet::init(3, 1, &device, &mut InitRng::new(4));
        let n = 64;
        let base = Tensor::<2>::zeros([1, n], &device);
        let mut bumped = vec![0.0f32; n];
        bumped[0] = 1.0;
        let bumped = Tensor::<2>::from_data(TensorData::new(bumped, [1, n]), &device);
        let s = Tensor::<2>::ones([1, 1], &device);
        let a = values(net.forward(base, s.clone()));
        let b = values(net.forward(bumped, s));
        // Encoder and decoder add one point each side: at most 22 + 2 = 24 away.
        let changed: Vec<usize> = (0..n).filter(|&i| a[i] != b[i]).collect();
        let farthest = changed.iter().map(|&i| i.min(n - i)).max();
        assert!(matches!(farthest, Some(22..=24)), "{changed:?}");
    }
}
