//! Fingerprints of every architecture's initial weights and output for a fixed seed: the draw
//! order from `InitRng` and the forward maps are pinned (saved runs depend on them).

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::{Tensor, TensorData};

use super::{Architecture, NetConfig};
use crate::backend::cpu;

/// FNV-1a over the bits of every float parameter (visiting order) and of the output.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, values: Vec<f32>) {
        for v in values {
            for byte in v.to_bits().to_le_bytes() {
                self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
}

impl ModuleVisitor for Fnv {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.add(super::test_values(param.val()));
    }
}

fn fingerprint(architecture: Architecture) -> (u64, u64) {
    let device = cpu();
    let (channels, depth, values) = match architecture {
        Architecture::Resnet2d => (8, 5, 3 * 8 * 8),
        _ => (5, 2, 16),
    };
    let config = NetConfig {
        architecture,
        channels,
        depth,
    };
    let net = config.init(&device, 7).expect("init");
    let mut weights = Fnv(0xcbf2_9ce4_8422_2325);
    net.visit(&mut weights);
    let u: Vec<f32> = (0..2 * values).map(|i| ((i as f32) * 0.37).sin()).collect();
    let u = Tensor::<2>::from_data(TensorData::new(u, [2, values]), &device);
    let s = Tensor::<2>::from_data(TensorData::new(vec![0.9f32, 1.1], [2, 1]), &device);
    let mut output = Fnv(0xcbf2_9ce4_8422_2325);
    output.add(super::test_values(net.forward(u, s)));
    (weights.0, output.0)
}

/// `(architecture, weights, output)` as drawn and computed before the networks shared the
/// [`super::Network`] trait and the residual frame; the outputs of the four convolving 1-D
/// networks as computed in the grid layout ([`super::grid`]: another summation order, outputs
/// within 1.2e-7 of the batch-first layout's); the 2-D ResNet's as computed by its fused path
/// ([`crate::nets::fusion::block2d`]: another summation order, within 1e-6 of its composite's relative
/// to the largest value).
const PINNED: [(Architecture, u64, u64); 6] = [
    (
        Architecture::Resnet,
        0x5c20_a95f_174c_b718,
        0xf58d_26ab_14b6_363f,
    ),
    (
        Architecture::Gcn,
        0xc53b_9b15_3e43_a4b5,
        0x99ca_f09c_2dc0_3e7a,
    ),
    (
        Architecture::Dilated,
        0xe00b_7129_cdd4_a97c,
        0x080b_562a_9773_ac42,
    ),
    (
        Architecture::Unet,
        0x0f23_03f6_b5da_0c4b,
        0xa829_2df2_361c_6013,
    ),
    (
        Architecture::Fno,
        0xb418_fa7f_f968_c2d5,
        0x586e_7ee1_ac5d_f924,
    ),
    (
        Architecture::Resnet2d,
        0x4889_797f_0f08_7385,
        0xc776_2b32_98cc_0a6b,
    ),
];

#[test]
fn weights_and_outputs_are_pinned() {
    for (architecture, weights, output) in PINNED {
        assert_eq!(
            fingerprint(architecture),
            (weights, output),
            "{architecture}"
        );
    }
}
