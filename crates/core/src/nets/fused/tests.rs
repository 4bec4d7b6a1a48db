//! The fused ops against burn's composite: by hand, and through every architecture's values and
//! gradients.

use burn::tensor::TensorData;

use crate::backend::{cpu, cpu_autodiff};
use crate::nets::fusion::*;
use crate::nets::tests::{inputs, values};
use crate::nets::{Architecture, Net, NetConfig, LEAKY_SLOPE};
use burn::module::{Module, Param};
use burn::tensor::{Device, Gradients, Tensor};

/// Runs `f` with `level` of fusion on this thread, then restores it.
pub(crate) fn with_fusion<T>(level: Fusion, f: impl FnOnce() -> T) -> T {
    let before = fusion();
    set_fusion(level);
    let out = f();
    set_fusion(before);
    out
}

fn tensor(v: Vec<f32>, device: &Device) -> Tensor<1> {
    let n = v.len();
    Tensor::from_data(TensorData::new(v, [n]), device)
}

#[test]
fn leaky_relu_by_hand_forward_and_backward() {
    let x = vec![-2.0f32, -0.5, 0.0, 0.25, 3.0];
    let weights = vec![1.0f32, 2.0, 3.0, 4.0, 5.0];
    let slope = LEAKY_SLOPE as f32;
    let expected: Vec<f32> = x
        .iter()
        .map(|&v| if v < 0.0 { slope * v } else { v })
        .collect();
    // Inference (burn-flex direct) and autodiff.
    assert_eq!(
        values(leaky_relu(tensor(x.clone(), &cpu()), LEAKY_SLOPE)),
        expected
    );
    let device = cpu_autodiff();
    let input = tensor(x.clone(), &device).require_grad();
    let out = leaky_relu(input.clone(), LEAKY_SLOPE);
    assert_eq!(values(out.clone()), expected);
    let grads = (out * tensor(weights.clone(), &device)).sum().backward();
    let got = values(input.grad(&grads).expect("input gradient"));
    let want: Vec<f32> = x
        .iter()
        .zip(&weights)
        .map(|(&v, &w)| if v < 0.0 { slope * w } else { w })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn leaky_relu_equals_composite_bit_for_bit() {
    let device = cpu_autodiff();
    let n = 257;
    let x: Vec<f32> = (0..n).map(|i| ((i as f32) * 0.731).sin() * 3.0).collect();
    let w: Vec<f32> = (0..n).map(|i| ((i as f32) * 1.37).cos()).collect();
    let run = |level: Fusion| {
        with_fusion(level, || {
            let input = tensor(x.clone(), &device).require_grad();
            // Used twice, a non-contiguous view in between: the gradients accumulate.
            let out =
                leaky_relu(input.clone(), LEAKY_SLOPE) + leaky_relu(input.clone() * -1.5, 0.2);
            let out = out.reshape([1, n]).transpose().reshape([n]);
            let grads = (out.clone() * tensor(w.clone(), &device)).sum().backward();
            (values(out), values(input.grad(&grads).expect("gradient")))
        })
    };
    assert_eq!(run(Fusion::Activation), run(Fusion::Composite));
}

/// Every float parameter's gradient, in visiting order.
struct Grads<'a> {
    grads: &'a Gradients,
    all: Vec<Vec<f32>>,
}

impl burn::module::ModuleVisitor for Grads<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.all
            .push(values(param.val().grad(self.grads).expect("gradient")));
    }
}

/// `out`'s values, `input`'s gradient and every float parameter's gradient of `module` (in
/// visiting order) from `grads`.
pub(crate) fn values_and_gradients<const D: usize, const E: usize>(
    out: Tensor<D>,
    input: Tensor<E>,
    grads: &Gradients,
    module: &impl Module,
) -> Vec<Vec<f32>> {
    let mut all = vec![
        values(out),
        values(input.grad(grads).expect("input gradient")),
    ];
    let mut visit = Grads {
        grads,
        all: Vec::new(),
    };
    module.visit(&mut visit);
    all.extend(visit.all);
    all
}

/// Output, input gradient and parameter gradients of `net` on a small batch, two applications
/// as in unrolled training.
fn outputs_and_gradients(net: &Net, architecture: Architecture, device: &Device) -> Vec<Vec<f32>> {
    let (batch, n) = (2, 16);
    let (u, s) = match architecture.facts().state_dims {
        // The 2-D ResNet: u, v, p on an 8 × 8 grid; its output is the 2 velocity fields.
        2 => {
            let (u, s) = inputs(batch, 3 * 64, device);
            (u, s)
        }
        _ => inputs(batch, n, device),
    };
    let u = u.require_grad();
    let out = net.forward(u.clone(), s.clone());
    let out = match architecture.facts().state_dims {
        2 => out,
        _ => net.forward(out, s),
    };
    let loss = out.clone().powf_scalar(2.0).mean();
    values_and_gradients(out, u, &loss.backward(), net)
}

#[test]
fn every_architecture_fused_equals_composite_in_values_and_gradients_at_each_level() {
    let device = cpu_autodiff();
    for architecture in Architecture::ALL {
        let (channels, depth) = match architecture.facts().state_dims {
            2 => architecture.default_size(),
            _ => (5, 2),
        };
        let config = NetConfig {
            architecture,
            channels,
            depth,
        };
        let net = config.init(&device, 4).expect("init");
        let run = |level| with_fusion(level, || outputs_and_gradients(&net, architecture, &device));
        let reference = run(Fusion::Composite);
        for level in [Fusion::Activation, Fusion::Block] {
            let fused = run(level);
            assert_eq!(fused.len(), reference.len(), "{architecture}");
            for (got, want) in fused.iter().zip(&reference) {
                assert_eq!(got.len(), want.len(), "{architecture}");
                for (g, w) in got.iter().zip(want) {
                    assert!(
                        (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                        "{architecture}, {}: {g} vs {w}",
                        level.name()
                    );
                }
            }
        }
    }
}

/// `architecture` (`depth` blocks or levels, 3 to 4 channels on `n` points) runs `expected`
/// fused ops per forward under [`Fusion::Block`] and none under [`Fusion::Composite`], on the
/// CPU with and without autodiff, and computes what the composite does; `calls` reads the ops'
/// counter.
fn assert_fused_path(
    architecture: Architecture,
    depth: usize,
    n: usize,
    calls: fn() -> usize,
    expected: usize,
) {
    for device in [cpu(), cpu_autodiff()] {
        let config = NetConfig {
            architecture,
            channels: 4,
            depth,
        };
        let net = config.init(&device, 8).expect("init");
        let (u, s) = inputs(3, n, &device);
        let run = |level| with_fusion(level, || values(net.forward(u.clone(), s.clone())));
        let before = calls();
        let reference = run(Fusion::Composite);
        assert_eq!(calls(), before, "{architecture}: composite");
        let fused = run(Fusion::Block);
        assert_eq!(calls(), before + expected, "{architecture}: fused ops");
        for (g, w) in fused.iter().zip(&reference) {
            assert!(
                (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                "{architecture}: {g} vs {w}"
            );
        }
    }
}

#[test]
fn every_fused_network_takes_the_fused_path_on_the_cpu_with_and_without_autodiff() {
    use crate::nets::dilated::DILATIONS;
    use crate::nets::fused::block::FUSED_CALLS;
    use crate::nets::fused::conv::FUSED_CONVS;
    use crate::nets::fused::edge::FUSED_EDGES;
    let blocks = || FUSED_CALLS.with(std::cell::Cell::get);
    let convs = || FUSED_CONVS.with(std::cell::Cell::get);
    let edges = || FUSED_EDGES.with(std::cell::Cell::get);
    // One per residual block.
    assert_fused_path(Architecture::Resnet, 3, 12, blocks, 3);
    // One per convolution of each block.
    assert_fused_path(Architecture::Dilated, 2, 20, convs, 2 * DILATIONS.len());
    // The input layer, two per block, the output layer.
    assert_fused_path(Architecture::Gcn, 2, 10, edges, 1 + 2 * 2 + 1);
    // Encoder: 1 + L double convs; decoder: per level the up-conv and a double conv; output.
    let levels = 2;
    assert_fused_path(
        Architecture::Unet,
        levels,
        16,
        convs,
        2 * (1 + levels) + 3 * levels + 1,
    );
}

/// The taps at a dilation past the grid's size wrap around like `periodic_taps`' indices.
#[test]
fn fused_taps_read_what_the_grid_indices_select() {
    use crate::nets::fused::block::taps;
    use crate::nets::grid::tap_indices;
    let (c, n, b) = (2, 5, 3);
    let x: Vec<f32> = (0..c * n * b).map(|i| i as f32).collect();
    for dilation in [1, 2, 4, 7, 13] {
        let indices: Vec<i64> = tap_indices(n, b, dilation, &cpu())
            .into_data()
            .convert::<i64>()
            .try_into_vec::<i64>()
            .expect("ints");
        let got = taps(&x, [c, n, b], dilation);
        for channel in 0..c {
            for (k, &index) in indices.iter().enumerate() {
                let (tap, column) = (k / (n * b), k % (n * b));
                let want = x[channel * n * b + index as usize];
                assert_eq!(
                    got[(channel * 3 + tap) * n * b + column],
                    want,
                    "dilation {dilation}"
                );
            }
        }
    }
}
