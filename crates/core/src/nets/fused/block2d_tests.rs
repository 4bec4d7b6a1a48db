//! The 2-D ResNet's fused ops ([`super::block2d`], [`super::conv2d`]) against its composite
//! code: one block and the output convolution on a non-square grid, and the whole network in
//! each of the paper's four sizes, in values and in the gradients of the input and of every
//! parameter.

use burn::tensor::Tensor;

use super::block2d::*;
use super::tests::{values_and_gradients, with_fusion};
use crate::backend::{cpu, cpu_autodiff};
use crate::nets::fused::conv2d::{conv2d_layer, FUSED_CONVS_2D};
use crate::nets::fusion::Fusion;
use crate::nets::layers::conv2d::PeriodicConv2d;
use crate::nets::network::{Network, NetworkSize};
use crate::nets::resnet2d::{Block2d, PaperSize, ResNet2d};
use crate::nets::tests::inputs;
use crate::nets::InitRng;
use burn::module::Module;
use burn::tensor::{Device, TensorData};

/// Largest difference allowed between fused and composite, relative to the largest magnitude
/// of the compared tensor: f32 sums in another order (measured: at most 6.2e-7 in the four
/// sizes).
const TOLERANCE: f32 = 1e-5;

/// `got` within [`TOLERANCE`] of `want`, tensor by tensor; the largest relative difference.
fn assert_close(got: &[Vec<f32>], want: &[Vec<f32>], what: &str) -> f32 {
    assert_eq!(got.len(), want.len(), "{what}: tensors");
    let mut worst = 0.0f32;
    for (index, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.len(), w.len(), "{what}: tensor {index}");
        let scale = w.iter().fold(f32::MIN_POSITIVE, |m, v| m.max(v.abs()));
        for (a, b) in g.iter().zip(w) {
            let relative = (a - b).abs() / scale;
            assert!(relative <= TOLERANCE, "{what}, tensor {index}: {a} vs {b}");
            worst = worst.max(relative);
        }
    }
    worst
}

/// A `[B, C, H, W]` input of distinct smooth values, tracked.
fn field(dims: [usize; 4], device: &Device) -> Tensor<4> {
    let count = dims.iter().product();
    let v: Vec<f32> = (0..count)
        .map(|i| ((i as f32) * 0.61).sin() + 0.2 * ((i as f32) * 1.7).cos())
        .collect();
    Tensor::<4>::from_data(TensorData::new(v, dims), device).require_grad()
}

/// Output, input gradient and `module`'s parameter gradients of `f` on `x: [B, C, H, W]`, the
/// loss a weighted sum so that every output value has its own gradient.
fn run_batch_first<M: Module>(
    module: &M,
    x: Tensor<4>,
    f: impl FnOnce(Tensor<4>) -> Tensor<4>,
) -> Vec<Vec<f32>> {
    let out = f(x.clone());
    let weights = out.clone().detach().cos();
    let grads = (out.clone() * weights).sum().backward();
    values_and_gradients(out, x, &grads, module)
}

/// `[B, C, H, W]` ⇄ the grid layout `[C, H, W, B]`.
fn to_grid(x: Tensor<4>) -> Tensor<4> {
    x.permute([1, 2, 3, 0])
}

fn from_grid(x: Tensor<4>) -> Tensor<4> {
    x.permute([3, 0, 1, 2])
}

#[test]
fn one_block_fused_equals_composite_on_a_non_square_grid() {
    let device = cpu_autodiff();
    let block = Block2d::init(3, 5, &device, &mut InitRng::new(11));
    let dims = [2, 3, 4, 5];
    let reference = run_batch_first(&block, field(dims, &device), |x| block.forward(x));
    let skip = block.skip.as_ref().expect("skip conv");
    let fused = run_batch_first(&block, field(dims, &device), |x| {
        from_grid(residual_block2d(
            to_grid(x),
            &block.conv1,
            &block.conv2,
            skip,
        ))
    });
    assert_close(&fused, &reference, "block");
}

#[test]
fn output_conv_fused_equals_composite_on_a_non_square_grid() {
    let device = cpu_autodiff();
    let conv = PeriodicConv2d::init(4, 2, 3, &device, &mut InitRng::new(12));
    let dims = [3, 4, 5, 3];
    let reference = run_batch_first(&conv, field(dims, &device), |x| conv.forward(x));
    let fused = run_batch_first(&conv, field(dims, &device), |x| {
        from_grid(conv2d_layer(to_grid(x), &conv))
    });
    assert_close(&fused, &reference, "output conv");
}

/// Output, input gradient and parameter gradients of `net` on 2 samples on an `n × n` grid.
fn network_outputs(net: &ResNet2d, n: usize, device: &Device) -> Vec<Vec<f32>> {
    let (u, s) = inputs(2, 3 * n * n, device);
    let u = u.require_grad();
    let out = net.forward(u.clone(), s);
    let weights = out.clone().detach().sin();
    let grads = (out.clone() * weights).sum().backward();
    values_and_gradients(out, u, &grads, net)
}

#[test]
fn every_paper_size_fused_equals_composite_in_values_and_gradients() {
    let device = cpu_autodiff();
    for size in PaperSize::ALL {
        let net = ResNet2d::build(size, &device, &mut InitRng::new(5));
        let n = if size.knobs().0 > 8 { 6 } else { 8 };
        let run = |level| with_fusion(level, || network_outputs(&net, n, &device));
        let reference = run(Fusion::Composite);
        let fused = run(Fusion::Block);
        // Output, input gradient, then three convolutions per block and the output's.
        assert_eq!(fused.len(), 2 + 2 * (3 * size.features().len() + 1));
        let worst = assert_close(&fused, &reference, &format!("{size:?}"));
        println!("{size:?}: largest relative difference {worst:e}");
    }
}

/// One fused op per block and one for the output convolution under [`Fusion::Block`], on the
/// CPU with and without autodiff; none under [`Fusion::Composite`] or without skip convs. The
/// forward's gemm calls: `2D + 1` fused, `B·(3D + 1)` composite (one per sample and conv).
#[test]
fn the_network_takes_the_fused_path_on_the_cpu() {
    use crate::counted::gemm_calls;
    let calls = || {
        let blocks = FUSED_BLOCKS_2D.with(std::cell::Cell::get);
        (blocks, FUSED_CONVS_2D.with(std::cell::Cell::get))
    };
    let blocks = PaperSize::Feat0.features().len();
    for device in [cpu(), cpu_autodiff()] {
        let net = ResNet2d::build(PaperSize::Feat0, &device, &mut InitRng::new(2));
        let (u, s) = inputs(2, 3 * 36, &device);
        let (before, gemms) = (calls(), gemm_calls());
        with_fusion(Fusion::Composite, || net.forward(u.clone(), s.clone()));
        assert_eq!(calls(), before, "composite");
        assert_eq!(
            gemm_calls() - gemms,
            2 * (3 * blocks as u64 + 1),
            "composite gemms"
        );
        let gemms = gemm_calls();
        with_fusion(Fusion::Block, || net.forward(u.clone(), s.clone()));
        assert_eq!(calls(), (before.0 + blocks, before.1 + 1), "fused");
        assert_eq!(gemm_calls() - gemms, 2 * blocks as u64 + 1, "fused gemms");
        // A checkpoint of the identity-skip layout (C → C blocks).
        let mut net = ResNet2d::init(&[4, 4], &device, &mut InitRng::new(2));
        net.blocks[1].skip = None;
        let before = calls();
        with_fusion(Fusion::Block, || net.forward(u.clone(), s.clone()));
        assert_eq!(calls(), before, "no skip convs");
    }
}
