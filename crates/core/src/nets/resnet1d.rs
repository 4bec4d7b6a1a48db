//! The paper's periodic ResNet1D: input conv(2 → C), `D` residual blocks
//! [conv C→C → LeakyReLU → conv C→C, + skip → LeakyReLU], output conv(C → 1) — a
//! [`ResidualFrame`] of [`PeriodicConv1d`] and [`ResidualBlock`]. Every conv has kernel 3, bias
//! and circular padding 1. Parameters `6DC² + (2D + 10)C + 1`.

use super::fused::block::residual_block;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::frame::{FrameBlock, FrameLayer, ResidualFrame};
use super::layers::conv1d::{conv_flops, PeriodicConv1d};
use super::network::{Facts, GridSize, Marker};
use super::{InitRng, DEPTH_RANGE, LEAKY_SLOPE};

/// `x ↦ LeakyReLU(x + conv₂(LeakyReLU(conv₁(x))))`, `[C, N, B] → [C, N, B]`.
#[derive(Module, Debug)]
pub struct ResidualBlock {
    /// First conv C → C.
    pub conv1: PeriodicConv1d,
    /// Second conv C → C.
    pub conv2: PeriodicConv1d,
}

impl FrameBlock for ResidualBlock {
    type Layer = PeriodicConv1d;

    const FACTS: Facts = Facts {
        title: "ResNet1D (periodic convolutions)",
        size_knobs: "C channels, D residual blocks",
        max_depth: *DEPTH_RANGE.end(),
        // The paper's: 15,841 parameters.
        default_size: (16, 10),
        size_grid: [(4, 2), (8, 4), (16, 6), (32, 8)],
        state_dims: 1,
        marker: Marker::Circle,
        apebench: Some("Res;{C};{D};relu"),
    };

    /// Draws `conv1` then `conv2`.
    fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self {
        Self {
            conv1: PeriodicConv1d::init(channels, channels, device, rng),
            conv2: PeriodicConv1d::init(channels, channels, device, rng),
        }
    }

    /// One fused op on the CPU backend ([`residual_block`]), the composite elsewhere.
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        residual_block(x, &self.conv1, &self.conv2, LEAKY_SLOPE)
    }

    /// `6DC² + (2D + 10)C + 1`.
    fn parameter_count(size: GridSize) -> usize {
        let (c, d) = (size.channels, size.depth);
        6 * d * c * c + (2 * d + 10) * c + 1
    }

    /// Two convs, the inner LeakyReLU, the skip add and the outer LeakyReLU.
    fn flops(c: f64, n: f64) -> f64 {
        2.0 * conv_flops(c, c, n) + 3.0 * c * n
    }

    /// `(7D + 3)·C·N + 3N`: per block two padded inputs, two conv outputs, the inner
    /// activation, the skip sum and the outer activation; stem and head around them.
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        (7.0 * d + 3.0) * c * n + 3.0 * n
    }
}

/// The paper's ResNet1D.
pub type ResNet1d = ResidualFrame<PeriodicConv1d, ResidualBlock>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use crate::nets::fusion::leaky_relu;
    use crate::nets::layers::conv1d::KERNEL;
    use burn::module::Param;
    use burn::tensor::TensorData;

    use crate::nets::test_values as values;

    #[test]
    fn hand_built_net_matches_hand_computation() {
        // C = 1, D = 0: out = w_o ⋆ (w_i ⋆ [u, s] + b_i) + b_o with periodic 3-tap stencils.
        let device = cpu();
        let conv = |w: Vec<f32>, shape: [usize; 3], b: f32| PeriodicConv1d {
            weight: Param::from_tensor(Tensor::<3>::from_data(TensorData::new(w, shape), &device)),
            bias: Param::from_tensor(Tensor::<1>::from_data(
                TensorData::new(vec![b], [1]),
                &device,
            )),
        };
        let net = ResNet1d {
            input: conv(vec![1.0, -2.0, 0.5, 0.0, 1.0, 0.0], [1, 2, 3], 0.25),
            blocks: Vec::new(),
            output: conv(vec![0.0, 2.0, 1.0], [1, 1, 3], -1.0),
        };
        let u = [1.0f32, 2.0, 3.0, 4.0, 5.0];
        let s = 1.5f32;
        let n = u.len();
        let hidden: Vec<f32> = (0..n)
            .map(|i| u[(i + n - 1) % n] - 2.0 * u[i] + 0.5 * u[(i + 1) % n] + s + 0.25)
            .collect();
        let expected: Vec<f32> = (0..n)
            .map(|i| 2.0 * hidden[i] + hidden[(i + 1) % n] - 1.0)
            .collect();
        let out = net.forward(
            Tensor::<2>::from_data(TensorData::new(u.to_vec(), [1, n]), &device),
            Tensor::<2>::from_data(TensorData::new(vec![s], [1, 1]), &device),
        );
        let got = values(out);
        for (g, e) in got.iter().zip(&expected) {
            assert!((g - e).abs() < 1e-5, "{got:?} vs {expected:?}");
        }
    }

    /// [`PeriodicConv1d::forward`] on batch-first `[batch, C_in, N]` → `[batch, C_out, N]`.
    fn forward_batch_first(conv: &PeriodicConv1d, x: Tensor<3>) -> Tensor<3> {
        conv.forward(x.permute([1, 2, 0])).permute([2, 0, 1])
    }

    /// The same map through burn's `conv1d` (batch-first): the reference.
    fn forward_conv1d(conv: &PeriodicConv1d, x: Tensor<3>) -> Tensor<3> {
        use crate::nets::padding::circular_pad;
        use burn::tensor::module::conv1d;
        use burn::tensor::ops::ConvOptions;
        conv1d(
            circular_pad(x, KERNEL / 2),
            conv.weight.val(),
            Some(conv.bias.val()),
            ConvOptions::new([1], [0], [1], 1),
        )
    }

    #[test]
    fn matmul_form_equals_conv1d_in_value_and_gradient() {
        use crate::backend::cpu_autodiff;
        let device = cpu_autodiff();
        let mut rng = InitRng::new(11);
        let conv = PeriodicConv1d::init(5, 7, &device, &mut rng);
        let x = Tensor::<3>::from_data(
            TensorData::new(rng.uniform_vec(3 * 5 * 9, 1.0), [3, 5, 9]),
            &device,
        )
        .require_grad();
        let weights = Tensor::<3>::from_data(
            TensorData::new(rng.uniform_vec(3 * 7 * 9, 1.0), [3, 7, 9]),
            &device,
        );
        let gradients = |out: Tensor<3>| {
            let mut grads = (out * weights.clone()).sum().backward();
            let gx = x.grad_remove(&mut grads).expect("x gradient");
            let gw = conv
                .weight
                .val()
                .grad_remove(&mut grads)
                .expect("weight gradient");
            let gb = conv
                .bias
                .val()
                .grad_remove(&mut grads)
                .expect("bias gradient");
            (gx, gw, gb)
        };
        let close = |a: Vec<f32>, b: Vec<f32>| {
            assert_eq!(a.len(), b.len());
            for (p, q) in a.iter().zip(&b) {
                assert!((p - q).abs() < 1e-5 * (1.0 + q.abs()), "{p} vs {q}");
            }
        };
        close(
            values(forward_batch_first(&conv, x.clone())),
            values(forward_conv1d(&conv, x.clone())),
        );
        let (gx, gw, gb) = gradients(forward_batch_first(&conv, x.clone()));
        let (rx, rw, rb) = gradients(forward_conv1d(&conv, x.clone()));
        close(values(gx), values(rx));
        close(values(gw), values(rw));
        close(values(gb), values(rb));
    }

    /// The whole ResNet1D batch-first through `conv1d` (the layout before the grid layout).
    fn reference_forward(net: &ResNet1d, u: Tensor<2>, s: Tensor<2>) -> Tensor<2> {
        let [batch, n] = u.dims();
        let x = forward_conv1d(&net.input, crate::nets::frame::stack_inputs(u, s));
        let x = net.blocks.iter().fold(x, |x, block| {
            let h = leaky_relu(forward_conv1d(&block.conv1, x.clone()), LEAKY_SLOPE);
            leaky_relu(x + forward_conv1d(&block.conv2, h), LEAKY_SLOPE)
        });
        forward_conv1d(&net.output, x).reshape([batch, n])
    }

    #[test]
    fn grid_layout_equals_batch_first_conv1d_in_value_and_gradient() {
        use crate::backend::cpu_autodiff;
        let device = cpu_autodiff();
        let mut rng = InitRng::new(5);
        let net = ResNet1d::init(6, 2, &device, &mut rng);
        let (batch, n) = (4, 12);
        let u = Tensor::<2>::from_data(
            TensorData::new(rng.uniform_vec(batch * n, 1.0), [batch, n]),
            &device,
        )
        .require_grad();
        let s = Tensor::<2>::from_data(
            TensorData::new(rng.uniform_vec(batch, 1.0), [batch, 1]),
            &device,
        );
        let weights = Tensor::<2>::from_data(
            TensorData::new(rng.uniform_vec(batch * n, 1.0), [batch, n]),
            &device,
        );
        let run = |out: Tensor<2>| {
            let mut grads = (out.clone() * weights.clone()).sum().backward();
            let mut all = values(out);
            all.extend(values(u.grad_remove(&mut grads).expect("u")));
            for conv in [&net.input, &net.blocks[1].conv1, &net.output] {
                all.extend(values(
                    conv.weight.val().grad_remove(&mut grads).expect("w"),
                ));
                all.extend(values(conv.bias.val().grad_remove(&mut grads).expect("b")));
            }
            all
        };
        let got = run(net.forward(u.clone(), s.clone()));
        let want = run(reference_forward(&net, u.clone(), s.clone()));
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-5 * (1.0 + w.abs()), "{g} vs {w}");
        }
    }

    #[test]
    fn init_bounds_follow_pytorch() {
        let device = cpu();
        let mut rng = InitRng::new(3);
        let conv = PeriodicConv1d::init(16, 16, &device, &mut rng);
        let bound = 1.0 / 48f32.sqrt();
        let w = values(conv.weight.val());
        assert_eq!(w.len(), 16 * 16 * 3);
        assert!(w.iter().all(|v| v.abs() <= bound));
        // Spread over the whole interval.
        assert!(w.iter().cloned().fold(0.0, f32::max) > 0.9 * bound);
        assert!(values(conv.bias.val()).iter().all(|v| v.abs() <= bound));
    }
}
