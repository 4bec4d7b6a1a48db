//! A periodic 1D U-Net with `L` levels and base width `C` (level `l` has `c_l = 2^l·C`
//! channels). Encoder: a double conv (2 → C) at full resolution, then per level an average pool
//! by 2 and a double conv `c_{l−1} → c_l`. Decoder, from the bottom up: nearest-neighbour
//! up-sampling by 2, a conv `c_{l+1} → c_l` and LeakyReLU, the encoder's skip of that level concatenated
//! (`2c_l` channels) and a double conv `2c_l → c_l`; finally a conv C → 1. A double conv is two
//! periodic 3-tap convolutions, each followed by a LeakyReLU. `N` must be divisible by `2^L`:
//! on the study's 48 points ([`MAX_LEVELS`] = 4) the bottom level has 3.
//! Parameters `(11·4^L − 8)C² + (7·2^L + 4)C + 1`.

use super::fused::conv::conv_layer;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::frame::FrameLayer;
use super::grid::{from_grid, to_grid};
use super::layers::conv1d::{conv_flops, PeriodicConv1d};
use super::network::{Facts, GridSize, Marker, Network};
use super::{InitRng, LEAKY_SLOPE};

/// Most levels on the study's grid: 48 = 2⁴·3 halves four times.
pub const MAX_LEVELS: usize = 4;

/// Two periodic convolutions `C_in → C_out → C_out`, each followed by a LeakyReLU.
#[derive(Module, Debug)]
pub struct DoubleConv {
    /// conv C_in → C_out.
    pub first: PeriodicConv1d,
    /// conv C_out → C_out.
    pub second: PeriodicConv1d,
}

impl DoubleConv {
    /// Draws `first` then `second`.
    pub fn init(
        channels_in: usize,
        channels_out: usize,
        device: &Device,
        rng: &mut InitRng,
    ) -> Self {
        Self {
            first: PeriodicConv1d::init(channels_in, channels_out, device, rng),
            second: PeriodicConv1d::init(channels_out, channels_out, device, rng),
        }
    }

    /// `[C_in, N, B] → [C_out, N, B]` (the grid layout); each conv with its activation one
    /// fused op where it applies ([`conv_layer`]).
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let h = conv_layer(x, &self.first, 1, Some(LEAKY_SLOPE));
        conv_layer(h, &self.second, 1, Some(LEAKY_SLOPE))
    }
}

/// One decoder level: up-sample, conv `2c → c`, concatenate the skip, double conv `2c → c`.
#[derive(Module, Debug)]
pub struct UpLevel {
    /// conv `c_{l+1} → c_l` after the up-sampling.
    pub up: PeriodicConv1d,
    /// double conv `2c_l → c_l` on `[up, skip]`.
    pub merge: DoubleConv,
}

/// The U-Net.
#[derive(Module, Debug)]
pub struct UNet {
    /// `L + 1` encoder double convs: level 0 (2 → C), then `c_{l−1} → c_l` after each pool.
    pub down: Vec<DoubleConv>,
    /// `L` decoder levels, bottom first (level `L − 1` … 0).
    pub up: Vec<UpLevel>,
    /// conv C → 1.
    pub output: PeriodicConv1d,
}

/// Average of neighbouring pairs: `[C, N, B] → [C, N/2, B]`.
fn pool(x: Tensor<3>) -> Tensor<3> {
    let [channels, n, batch] = x.dims();
    x.reshape([channels, n / 2, 2, batch])
        .mean_dim(2)
        .reshape([channels, n / 2, batch])
}

/// Each value twice: `[C, M, B] → [C, 2M, B]`.
fn upsample(x: Tensor<3>) -> Tensor<3> {
    let [channels, m, batch] = x.dims();
    x.reshape([channels, m, 1, batch])
        .expand([channels, m, 2, batch])
        .reshape([channels, 2 * m, batch])
}

impl UNet {
    /// Levels `L`.
    pub fn levels(&self) -> usize {
        self.up.len()
    }
}

impl Network for UNet {
    type Size = GridSize;

    const FACTS: Facts = Facts {
        title: "U-Net (periodic, halving up to 4 times)",
        size_knobs: "C channels at the top (doubling per level), D levels (≤ 4)",
        max_depth: MAX_LEVELS,
        default_size: (8, 2),
        // At 4 levels, as far as 48 points halve, 50k parameters leave only 4 channels at full
        // resolution: the grid keeps 2 levels.
        size_grid: [(1, 2), (3, 2), (8, 2), (16, 2)],
        state_dims: 1,
        marker: Marker::Diamond,
        apebench: Some("UNet;{C};{D};relu"),
    };

    /// Draws the layers in forward order (encoder top-down, decoder bottom-up, output), weight
    /// before bias.
    fn build(size: GridSize, device: &Device, rng: &mut InitRng) -> Self {
        let (channels, levels) = (size.channels, size.depth);
        let width = |level: usize| channels << level;
        let mut down = vec![DoubleConv::init(2, channels, device, rng)];
        for level in 1..=levels {
            down.push(DoubleConv::init(
                width(level - 1),
                width(level),
                device,
                rng,
            ));
        }
        let up = (0..levels)
            .rev()
            .map(|level| UpLevel {
                up: PeriodicConv1d::init(width(level + 1), width(level), device, rng),
                merge: DoubleConv::init(2 * width(level), width(level), device, rng),
            })
            .collect();
        let output = PeriodicConv1d::init(channels, 1, device, rng);
        Self { down, up, output }
    }

    /// `u: [batch, N]`, `parameter: [batch, 1]` → `[batch, N]`. Panics unless `2^L` divides `N`.
    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        let n = u.dims()[1];
        assert!(
            n.is_multiple_of(1 << self.levels()),
            "a U-Net of {} levels needs N divisible by {}, got {n}",
            self.levels(),
            1 << self.levels()
        );
        let mut skips = Vec::with_capacity(self.levels());
        let mut x = self.down[0].forward(to_grid(u, parameter));
        for conv in &self.down[1..] {
            skips.push(x.clone());
            x = conv.forward(pool(x));
        }
        for level in &self.up {
            let skip = skips.pop().expect("one skip per level");
            let up = conv_layer(upsample(x), &level.up, 1, Some(LEAKY_SLOPE));
            x = level.merge.forward(Tensor::cat(vec![up, skip], 0));
        }
        from_grid(conv_layer(x, &self.output, 1, None))
    }

    /// `(11·4^L − 8)C² + (7·2^L + 4)C + 1`.
    fn parameter_count(size: GridSize) -> usize {
        let (c, d) = (size.channels, size.depth);
        (11 * (1 << (2 * d)) - 8) * c * c + (7 * (1 << d) + 4) * c + 1
    }

    /// Per level the pooling (an add and a halving per output value) and the double conv, per
    /// decoder level the up-conv with its activation and the merging double conv.
    fn flops_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, n) = (size.channels as f64, resolution as f64);
        let double = |ci: f64, co: f64, points: f64| {
            conv_flops(ci, co, points) + conv_flops(co, co, points) + 2.0 * co * points
        };
        let mut total = double(2.0, c, n) + conv_flops(c, 1.0, n);
        for level in 1..=size.depth {
            let (width, points) = (c * (1u64 << level) as f64, n / (1u64 << level) as f64);
            total += width * points + double(width / 2.0, width, points);
            let (up_width, up_points) = (width / 2.0, 2.0 * points);
            total += conv_flops(width, up_width, up_points)
                + up_width * up_points
                + double(2.0 * up_width, up_width, up_points);
        }
        total
    }

    /// `(21D + 8)·C·N + 3N`: every level holds `C·N` values per tensor, six per encoder double
    /// conv, fifteen per decoder level with the up-sampling and the concatenation.
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        (21.0 * d + 8.0) * c * n + 3.0 * n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use burn::tensor::TensorData;

    use crate::nets::test_values as values;

    #[test]
    fn pool_and_upsample_by_hand() {
        let device = cpu();
        let x = Tensor::<3>::from_data(
            TensorData::new(vec![1.0f32, 3.0, 5.0, 9.0, -2.0, 2.0], [1, 6, 1]),
            &device,
        );
        assert_eq!(values(pool(x.clone())), vec![2.0, 7.0, 0.0]);
        assert_eq!(
            values(upsample(pool(x))),
            vec![2.0, 2.0, 7.0, 7.0, 0.0, 0.0]
        );
    }

    #[test]
    fn levels_reach_three_points_on_48() {
        let device = cpu();
        let net = UNet::build(
            GridSize {
                channels: 2,
                depth: MAX_LEVELS,
            },
            &device,
            &mut InitRng::new(1),
        );
        assert_eq!(net.levels(), 4);
        assert_eq!(48 >> MAX_LEVELS, 3);
        let u = Tensor::<2>::ones([2, 48], &device);
        let s = Tensor::<2>::ones([2, 1], &device);
        assert_eq!(net.forward(u, s).dims(), [2, 48]);
        // The bottom level has C·2^L channels.
        assert_eq!(net.down[4].second.weight.dims(), [32, 32, 3]);
    }

    #[test]
    #[should_panic(expected = "needs N divisible by 16")]
    fn refuses_a_grid_it_cannot_halve() {
        let device = cpu();
        let net = UNet::build(
            GridSize {
                channels: 2,
                depth: 4,
            },
            &device,
            &mut InitRng::new(1),
        );
        let _ = net.forward(
            Tensor::<2>::ones([1, 40], &device),
            Tensor::<2>::ones([1, 1], &device),
        );
    }
}
