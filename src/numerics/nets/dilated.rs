//! Dilated ResNet ("Dil-ResNet" of the learned-simulator literature, Stachenfeld et al. 2022):
//! encoder conv(2 → C), `D` blocks, decoder conv(C → 1). A block is seven periodic 3-tap
//! convolutions C → C with dilations [`DILATIONS`] = 1, 2, 4, 8, 4, 2, 1, a LeakyReLU after
//! each but the last, and a skip around the block. The dilations widen the receptive field of
//! one block to 45 points (the grid has 48). Parameters `21DC² + (7D + 10)C + 1`.

use burn::module::Module;
use burn::tensor::activation::leaky_relu;
use burn::tensor::{Device, Tensor};

use super::resnet1d::PeriodicConv1d;
use super::{stack_inputs, InitRng, LEAKY_SLOPE};

/// The dilations of one block's convolutions, out and back.
pub const DILATIONS: [usize; 7] = [1, 2, 4, 8, 4, 2, 1];

/// `x ↦ x + conv₇(σ(… σ(conv₁(x))))` with conv `i` dilated by `DILATIONS[i]`,
/// `[batch, C, N] → [batch, C, N]`.
#[derive(Module, Debug)]
pub struct DilatedBlock {
    /// One conv C → C per entry of [`DILATIONS`].
    pub convs: Vec<PeriodicConv1d>,
}

impl DilatedBlock {
    /// Draws the convolutions in order.
    pub fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self {
        Self {
            convs: DILATIONS
                .iter()
                .map(|_| PeriodicConv1d::init(channels, channels, device, rng))
                .collect(),
        }
    }

    /// `[batch, C, N] → [batch, C, N]`.
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let last = self.convs.len() - 1;
        let h = self.convs.iter().zip(DILATIONS).enumerate().fold(
            x.clone(),
            |h, (i, (conv, dilation))| {
                let h = conv.forward_dilated(h, dilation);
                if i < last {
                    leaky_relu(h, LEAKY_SLOPE)
                } else {
                    h
                }
            },
        );
        x + h
    }
}

/// The dilated ResNet.
#[derive(Module, Debug)]
pub struct DilatedResNet {
    /// conv 2 → C (channels u, s).
    pub input: PeriodicConv1d,
    /// `D` dilated blocks.
    pub blocks: Vec<DilatedBlock>,
    /// conv C → 1.
    pub output: PeriodicConv1d,
}

impl DilatedResNet {
    /// Draws the layers in forward order (encoder, blocks, decoder), weight before bias.
    pub fn init(channels: usize, depth: usize, device: &Device, rng: &mut InitRng) -> Self {
        let input = PeriodicConv1d::init(2, channels, device, rng);
        let blocks = (0..depth)
            .map(|_| DilatedBlock::init(channels, device, rng))
            .collect();
        let output = PeriodicConv1d::init(channels, 1, device, rng);
        Self {
            input,
            blocks,
            output,
        }
    }

    /// `u: [batch, N]`, `scale: [batch, 1]` → `[batch, N]`.
    pub fn forward(&self, u: Tensor<2>, scale: Tensor<2>) -> Tensor<2> {
        let [batch, n] = u.dims();
        let x = self.input.forward(stack_inputs(u, scale));
        let x = self.blocks.iter().fold(x, |x, block| block.forward(x));
        self.output.forward(x).reshape([batch, n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend::cpu;
    use burn::module::Param;
    use burn::tensor::TensorData;

    use crate::numerics::nets::test_values as values;

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
        let input = Tensor::<3>::from_data(TensorData::new(x.clone(), [1, 1, n]), &device);
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
