//! Weight initialisation: the portable [`InitRng`] stream and the parameter set-up of every
//! convolution and linear layer (PyTorch's default `U(−1/√fan_in, 1/√fan_in)`, weight before
//! bias), written once.

use burn::module::Param;
use burn::tensor::{Device, Tensor, TensorData};

/// Portable deterministic generator for weight init: SplitMix64 (Steele, Lea & Flood 2014).
///
/// Chosen over `rand::rngs::SmallRng`, whose algorithm differs between 64-bit (Xoshiro256++) and
/// 32-bit targets (Xoshiro128++, i.e. wasm32): the same seed must give the same weights in the
/// browser and natively.
#[derive(Debug, Clone)]
pub struct InitRng {
    state: u64,
}

impl InitRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[−bound, bound)` from 24 random bits (exact f32 arithmetic up to the final
    /// product, so identical on every platform).
    pub fn uniform(&mut self, bound: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32);
        (2.0 * unit - 1.0) * bound
    }

    /// `count` draws of [`InitRng::uniform`].
    pub fn uniform_vec(&mut self, count: usize, bound: f32) -> Vec<f32> {
        (0..count).map(|_| self.uniform(bound)).collect()
    }
}

/// PyTorch's default bound `1/√fan_in` for Conv1d / Linear weights and biases.
pub(crate) fn init_bound(fan_in: usize) -> f32 {
    (1.0 / (fan_in.max(1) as f64).sqrt()) as f32
}

/// A parameter of `shape` drawn from `U(−bound, bound)`, row-major.
pub(crate) fn uniform_param<const D: usize>(
    shape: [usize; D],
    bound: f32,
    device: &Device,
    rng: &mut InitRng,
) -> Param<Tensor<D>> {
    let values = rng.uniform_vec(shape.iter().product(), bound);
    Param::from_tensor(Tensor::<D>::from_data(
        TensorData::new(values, shape),
        device,
    ))
}

/// A layer's weight of `shape` and its bias of `channels_out`, both drawn (weight first) from
/// PyTorch's default `U(−1/√fan_in, 1/√fan_in)`.
pub(crate) fn weight_and_bias<const D: usize>(
    shape: [usize; D],
    fan_in: usize,
    channels_out: usize,
    device: &Device,
    rng: &mut InitRng,
) -> (Param<Tensor<D>>, Param<Tensor<1>>) {
    let bound = init_bound(fan_in);
    let weight = uniform_param(shape, bound, device, rng);
    (weight, uniform_param([channels_out], bound, device, rng))
}
