//! The networks' shared tests: sizes, parameter counts, FLOPs, seeds, shapes, symmetry and
//! gradients of every architecture.

use super::*;
use crate::backend::{cpu, cpu_autodiff};
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, TensorData};

const PAPER_SIZES: [(usize, usize, usize); 3] =
    [(16, 10, 15_841), (26, 8, 33_125), (52, 12, 196_457)];

pub(crate) use super::test_values as values;

fn config(architecture: Architecture, channels: usize, depth: usize) -> NetConfig {
    NetConfig {
        architecture,
        channels,
        depth,
    }
}

/// A `[batch, N]` state batch and its `[batch, 1]` scales.
pub(crate) fn inputs(batch: usize, n: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let u: Vec<f32> = (0..batch * n)
        .map(|i| ((i as f32) * 0.37).sin() + 0.3 * ((i as f32) * 1.3).cos())
        .collect();
    let s: Vec<f32> = (0..batch).map(|b| 0.9 + 0.1 * b as f32).collect();
    (
        Tensor::<2>::from_data(TensorData::new(u, [batch, n]), device),
        Tensor::<2>::from_data(TensorData::new(s, [batch, 1]), device),
    )
}

#[test]
fn names_round_trip() {
    for a in Architecture::ONE_D {
        assert_eq!(a.name().parse::<Architecture>(), Ok(a));
        let json = serde_json::to_string(&a).expect("serialize");
        assert_eq!(json, format!("\"{}\"", a.name()));
    }
    assert!("cnn".parse::<Architecture>().is_err());
    let c = NetConfig::default();
    let back: NetConfig =
        serde_json::from_str(&serde_json::to_string(&c).expect("serialize")).expect("parse");
    assert_eq!(back, c);
}

#[test]
fn validates_sizes() {
    assert!(NetConfig::default().validate().is_ok());
    let err = config(Architecture::Resnet, 0, 3)
        .validate()
        .expect_err("C = 0");
    assert_eq!(err.to_string(), "channels must be between 1 and 256, got 0");
    assert!(config(Architecture::Gcn, 257, 3).validate().is_err());
    let err = config(Architecture::Gcn, 8, 65)
        .validate()
        .expect_err("D = 65");
    assert_eq!(err.to_string(), "depth must be between 0 and 64, got 65");
    assert!(config(Architecture::Resnet, 256, 0).validate().is_ok());
    assert!(config(Architecture::Unet, 4, 4).validate().is_ok());
    let err = config(Architecture::Unet, 4, 5)
        .validate()
        .expect_err("48 points halve only 4 times");
    assert_eq!(err.to_string(), "depth must be between 0 and 4, got 5");
    assert!(config(Architecture::Resnet, 0, 1).init(&cpu(), 0).is_err());
}

#[test]
fn paper_parameter_counts() {
    let device = cpu();
    for (c, d, expected) in PAPER_SIZES {
        let cfg = config(Architecture::Resnet, c, d);
        assert_eq!(cfg.parameter_count(), expected);
        let net = cfg.init(&device, 1).expect("init");
        assert_eq!(net.parameter_count(), expected);
        assert_eq!(net.architecture(), Architecture::Resnet);
    }
}

#[test]
fn gcn_parameter_counts_match_formula() {
    let device = cpu();
    for (c, d) in [(16, 10), (26, 8), (52, 12), (1, 0), (3, 1)] {
        let cfg = config(Architecture::Gcn, c, d);
        let net = cfg.init(&device, 1).expect("init");
        assert_eq!(
            net.parameter_count(),
            cfg.parameter_count(),
            "C = {c}, D = {d}"
        );
        assert_eq!(net.architecture(), Architecture::Gcn);
    }
    assert_eq!(config(Architecture::Gcn, 16, 10).parameter_count(), 11_010);
    // Small ResNets too (D = 0 has no blocks).
    for (c, d) in [(1, 0), (3, 1)] {
        let cfg = config(Architecture::Resnet, c, d);
        let net = cfg.init(&device, 1).expect("init");
        assert_eq!(net.parameter_count(), cfg.parameter_count());
    }
}

/// Parameter tensors of `architecture` at depth `d` (weights and biases counted apart).
/// Parameter tensors of `architecture` at depth `d`, counted by hand (`None` where no count
/// was written: the architecture's own tests cover it).
fn tensor_count(architecture: Architecture, d: usize) -> Option<usize> {
    Some(match architecture {
        Architecture::Resnet | Architecture::Gcn => 4 * d + 4,
        // Encoder, seven convs per block, decoder.
        Architecture::Dilated => 14 * d + 4,
        // L + 1 double convs down, L × (up conv + double conv), output.
        Architecture::Unet => 10 * d + 6,
        // Lift, per layer real + imag + pointwise weight and bias, two projections.
        Architecture::Fno => 4 * d + 6,
        _ => return None,
    })
}

#[test]
fn new_architectures_parameter_counts_match_formula() {
    let device = cpu();
    let sizes = [(1, 0), (1, 1), (3, 1), (4, 2), (5, 3), (2, 4), (16, 4)];
    for architecture in [Architecture::Dilated, Architecture::Unet, Architecture::Fno] {
        for (c, d) in sizes {
            let cfg = config(architecture, c, d);
            let net = cfg.init(&device, 1).expect("init");
            assert_eq!(
                net.parameter_count(),
                cfg.parameter_count(),
                "{architecture} C = {c}, D = {d}"
            );
            assert_eq!(net.architecture(), architecture);
        }
    }
    // Hand-counted anchors: the formulas at C = 3, D = 1.
    // Dilated: 7·3 + 7·(27 + 3) + 10 = 241; U-Net: (44 − 8)·9 + 18·3 + 1 = 379;
    // FNO: 26·9 + 6·3 + 1 = 253.
    assert_eq!(config(Architecture::Dilated, 3, 1).parameter_count(), 241);
    assert_eq!(config(Architecture::Unet, 3, 1).parameter_count(), 379);
    assert_eq!(config(Architecture::Fno, 3, 1).parameter_count(), 253);
}

#[test]
fn flops_grow_with_size() {
    let small = config(Architecture::Resnet, 16, 10).flops_per_sample(48);
    // Dominated by 2·MACs: 20 convs of 3·16·16 taps per point ≈ 2·3·256·20·48.
    let macs = 3.0 * 256.0 * 20.0 * 48.0;
    assert!(small > 2.0 * macs && small < 2.2 * macs, "{small}");
    assert!(config(Architecture::Resnet, 52, 12).flops_per_sample(48) > small);
    let gcn = config(Architecture::Gcn, 16, 10).flops_per_sample(48);
    assert!(gcn > 0.0 && gcn.is_finite());
    assert_eq!(config(Architecture::Gcn, 16, 10).flops_per_sample(0), 0.0);
    for architecture in [Architecture::Dilated, Architecture::Unet, Architecture::Fno] {
        let small = config(architecture, 4, 2).flops_per_sample(48);
        let large = config(architecture, 16, 4).flops_per_sample(48);
        assert!(
            small > 0.0 && small.is_finite() && large > 4.0 * small,
            "{architecture}"
        );
    }
    // Dilated: 7 convs per block ⇒ ≈ 3.5 × the ResNet's FLOPs at the same C, D.
    let ratio = config(Architecture::Dilated, 16, 10).flops_per_sample(48)
        / config(Architecture::Resnet, 16, 10).flops_per_sample(48);
    assert!((3.3..3.7).contains(&ratio), "{ratio}");
}

#[test]
fn init_rng_is_fixed() {
    // Regression: the stream must never change (saved runs depend on it).
    let mut rng = InitRng::new(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    let mut a = InitRng::new(42);
    let draws = a.uniform_vec(1000, 0.5);
    assert!(draws.iter().all(|v| (-0.5..0.5).contains(v)));
    let mean = draws.iter().sum::<f32>() / 1000.0;
    assert!(mean.abs() < 0.05, "{mean}");
}

/// Every float parameter's values, in visiting order.
struct Collect(Vec<Vec<f32>>);

impl burn::module::ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(values(param.val().without_autodiff()));
    }
}

fn weights(net: &Net) -> Vec<Vec<f32>> {
    let mut collect = Collect(Vec::new());
    net.visit(&mut collect);
    collect.0
}

#[test]
fn same_seed_same_net_different_seed_different_net() {
    let device = cpu();
    for architecture in Architecture::ONE_D {
        let cfg = config(architecture, 4, 2);
        let (u, s) = inputs(2, 12, &device);
        let a = cfg.init(&device, 7).expect("init");
        let b = cfg.init(&device, 7).expect("init");
        let c = cfg.init(&device, 8).expect("init");
        // Weights on the autodiff device are identical too.
        let d = cfg.init(&cpu_autodiff(), 7).expect("init");
        assert_eq!(weights(&a), weights(&b));
        assert_eq!(weights(&a), weights(&d));
        assert_ne!(weights(&a), weights(&c));
        if let Some(count) = tensor_count(architecture, 2) {
            assert_eq!(weights(&a).len(), count);
        }
        let out = |net: &Net| values(net.forward(u.clone(), s.clone()));
        assert_eq!(out(&a), out(&b));
        assert_ne!(out(&a), out(&c));
        let d_out = values(
            d.forward(u.clone().autodiff(), s.clone().autodiff())
                .without_autodiff(),
        );
        assert_eq!(out(&a), d_out);
    }
}

#[test]
fn forward_shapes() {
    let device = cpu();
    for architecture in Architecture::ONE_D {
        for (batch, n) in [(1, 8), (3, 48)] {
            let net = config(architecture, 5, 1).init(&device, 3).expect("init");
            let (u, s) = inputs(batch, n, &device);
            let out = net.forward(u, s);
            assert_eq!(out.dims(), [batch, n]);
            assert!(values(out).iter().all(|v| v.is_finite()));
        }
    }
}

#[test]
fn translation_equivariance() {
    let device = cpu();
    for architecture in Architecture::ONE_D {
        let net = config(architecture, 6, 2).init(&device, 11).expect("init");
        let (u, s) = inputs(2, 16, &device);
        // The U-Net pools twice: equivariant to shifts by multiples of 4 only.
        let shifts: [isize; 3] = match architecture {
            Architecture::Unet => [4, 12, -8],
            _ => [1, 5, -3],
        };
        for shift in shifts {
            let shifted_out = net.forward(circular_shift(u.clone(), shift, 1), s.clone());
            let out_shifted = circular_shift(net.forward(u.clone(), s.clone()), shift, 1);
            let (a, b) = (values(shifted_out), values(out_shifted));
            let err = a
                .iter()
                .zip(&b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max);
            let scale = b.iter().fold(1.0f32, |m, v| m.max(v.abs()));
            assert!(
                err < 1e-5 * scale,
                "{} shift {shift}: {err}",
                architecture.name()
            );
        }
    }
}

#[test]
fn scale_channel_matters() {
    let device = cpu();
    for architecture in Architecture::ONE_D {
        let net = config(architecture, 4, 1).init(&device, 5).expect("init");
        let (u, s) = inputs(1, 8, &device);
        let a = values(net.forward(u.clone(), s.clone()));
        let b = values(net.forward(u, s.add_scalar(0.5)));
        assert_ne!(a, b);
    }
}

/// Checks every float parameter's gradient: present, finite; counts non-zero ones.
struct GradCheck<'a> {
    grads: &'a burn::tensor::Gradients,
    checked: usize,
    nonzero: usize,
}

impl burn::module::ModuleVisitor for GradCheck<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let grad = param.val().grad(self.grads).expect("parameter gradient");
        assert_eq!(grad.dims(), param.val().dims());
        let g = values(grad);
        assert!(g.iter().all(|v| v.is_finite()));
        self.checked += 1;
        self.nonzero += usize::from(g.iter().any(|v| *v != 0.0));
    }
}

#[test]
fn parameter_gradients_exist_and_are_finite() {
    let device = cpu_autodiff();
    for architecture in Architecture::ONE_D {
        let net = config(architecture, 4, 2).init(&device, 2).expect("init");
        let (u, s) = inputs(2, 12, &device);
        let loss = net.forward(u, s).powf_scalar(2.0).mean();
        let grads = loss.backward();
        let mut check = GradCheck {
            grads: &grads,
            checked: 0,
            nonzero: 0,
        };
        net.visit(&mut check);
        // Every parameter tensor gets a gradient (the hand count, where written, agrees).
        assert_eq!(check.nonzero, check.checked, "{}", architecture.name());
        if let Some(tensors) = tensor_count(architecture, 2) {
            assert_eq!(check.checked, tensors, "{}", architecture.name());
        }
    }
}

#[test]
fn backward_through_input() {
    let device = cpu_autodiff();
    for architecture in Architecture::ONE_D {
        let net = config(architecture, 4, 1).init(&device, 9).expect("init");
        let (u, s) = inputs(1, 8, &device);
        let u = u.require_grad();
        // Two applications, as in unrolled training.
        let out = net.forward(net.forward(u.clone(), s.clone()), s);
        let grads = out.sum().backward();
        let g = values(u.grad(&grads).expect("input gradient"));
        assert_eq!(g.len(), 8);
        assert!(g.iter().all(|v| v.is_finite()));
        assert!(g.iter().any(|v| *v != 0.0));
    }
}

#[test]
fn spec_reads_and_writes_the_old_json() {
    for json in [
        r#"{"architecture":"resnet","channels":16,"depth":10}"#,
        r#"{"architecture":"unet","channels":8,"depth":2}"#,
        r#"{"architecture":"resnet2d","channels":16,"depth":9}"#,
    ] {
        let spec: NetSpec = serde_json::from_str(json).expect("parse");
        assert_eq!(serde_json::to_string(&spec).expect("serialize"), json);
        let config: NetConfig = serde_json::from_str(json).expect("parse");
        assert_eq!(config.spec(), Ok(spec));
        assert_eq!(NetConfig::from(spec), config);
    }
    let err =
        serde_json::from_str::<NetSpec>(r#"{"architecture":"resnet2d","channels":16,"depth":10}"#)
            .expect_err("not a paper size");
    assert!(
        err.to_string()
            .contains("four sizes C × D = 8×5, 8×7, 16×7, 16×9, got 16×10"),
        "{err}"
    );
    assert_eq!(
        config(Architecture::Resnet2d, 8, 7).spec(),
        Ok(NetSpec::Resnet2d(PaperSize::Feat1))
    );
}

#[test]
fn every_registry_entry_is_consistent() {
    assert_eq!(
        Architecture::ONE_D.len() + Architecture::TWO_D.len(),
        Architecture::ALL.len()
    );
    assert_eq!(Architecture::TWO_D, [Architecture::Resnet2d]);
    for architecture in Architecture::ALL {
        let (c, d) = architecture.default_size();
        let default = NetConfig::of(architecture);
        assert_eq!((default.channels, default.depth), (c, d));
        assert!(default.validate().is_ok(), "{architecture}");
        for (c, d) in architecture.facts().size_grid {
            assert!(
                config(architecture, c, d).validate().is_ok(),
                "{architecture}"
            );
        }
        assert!(!architecture.title().is_empty());
        assert_eq!(architecture.facts().max_depth, architecture.max_depth());
    }
    assert_eq!(
        Architecture::Resnet2d.size_knobs(),
        "the paper's sizes C × D: 8×5, 8×7, 16×7, 16×9"
    );
    assert_eq!(NetConfig::default(), config(Architecture::Resnet, 16, 10));
}

#[test]
fn switching_architecture_takes_its_default_size_unless_set_by_hand() {
    let paper = NetConfig::default();
    assert_eq!(
        paper.with_architecture(Architecture::Unet),
        NetConfig::of(Architecture::Unet)
    );
    assert!(paper
        .with_architecture(Architecture::Unet)
        .validate()
        .is_ok());
    let by_hand = config(Architecture::Resnet, 4, 3);
    assert_eq!(
        by_hand.with_architecture(Architecture::Unet),
        config(Architecture::Unet, 4, 3)
    );
    assert_eq!(paper.with_architecture(Architecture::Resnet), paper);
}
