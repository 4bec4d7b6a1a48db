//! The U-Net's member axis: `K` [`UNet`]s of one size, each convolution's weights stacked as
//! `[K, C_out, C_in, 3]` ([`EnsembleConv`]), on `[K, C, N, B]`: pooling, up-sampling and the
//! skips' concatenation per member, one batched matmul per convolution for all members
//! (composite ops on every backend).

use burn::module::Module;
use burn::tensor::Tensor;

use super::layer::EnsembleConv;
use crate::nets::fusion::leaky_relu;
use crate::nets::unet::{DoubleConv, UNet, UpLevel};
use crate::nets::LEAKY_SLOPE;

/// `K` double convs: two convolutions, each followed by a LeakyReLU ([`DoubleConv`]).
#[derive(Module, Debug)]
pub struct EnsembleDoubleConv {
    /// conv C_in → C_out of every member.
    pub first: EnsembleConv,
    /// conv C_out → C_out of every member.
    pub second: EnsembleConv,
}

impl EnsembleDoubleConv {
    fn stack(convs: &[&DoubleConv]) -> Self {
        Self {
            first: EnsembleConv::stack(&convs.iter().map(|c| &c.first).collect::<Vec<_>>()),
            second: EnsembleConv::stack(&convs.iter().map(|c| &c.second).collect::<Vec<_>>()),
        }
    }

    fn member(&self, k: usize) -> DoubleConv {
        DoubleConv {
            first: self.first.member(k),
            second: self.second.member(k),
        }
    }

    /// `[K, C_in, N, B] → [K, C_out, N, B]`.
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let h = leaky_relu(self.first.forward(x), LEAKY_SLOPE);
        leaky_relu(self.second.forward(h), LEAKY_SLOPE)
    }
}

/// `K` decoder levels ([`UpLevel`]).
#[derive(Module, Debug)]
pub struct EnsembleUpLevel {
    /// conv `c_{l+1} → c_l` after the up-sampling, of every member.
    pub up: EnsembleConv,
    /// double conv `2c_l → c_l` on `[up, skip]`, of every member.
    pub merge: EnsembleDoubleConv,
}

/// `K` U-Nets of one size, trained together.
#[derive(Module, Debug)]
pub struct UNetEnsemble {
    /// `L + 1` encoder double convs.
    pub down: Vec<EnsembleDoubleConv>,
    /// `L` decoder levels, bottom first.
    pub up: Vec<EnsembleUpLevel>,
    /// conv C → 1 of every member.
    pub output: EnsembleConv,
}

/// Average of neighbouring pairs: `[K, C, N, B] → [K, C, N/2, B]`.
fn pool(x: Tensor<4>) -> Tensor<4> {
    let [members, channels, n, batch] = x.dims();
    x.reshape([members, channels, n / 2, 2, batch])
        .mean_dim(3)
        .reshape([members, channels, n / 2, batch])
}

/// Each value twice: `[K, C, M, B] → [K, C, 2M, B]`.
fn upsample(x: Tensor<4>) -> Tensor<4> {
    let [members, channels, m, batch] = x.dims();
    x.reshape([members, channels, m, 1, batch])
        .expand([members, channels, m, 2, batch])
        .reshape([members, channels, 2 * m, batch])
}

impl UNetEnsemble {
    /// `nets` (one size) as the members, in order.
    pub(super) fn stack(nets: &[&UNet]) -> Self {
        let levels = nets.first().map_or(0, |net| net.up.len());
        let down = (0..=levels)
            .map(|l| {
                EnsembleDoubleConv::stack(&nets.iter().map(|n| &n.down[l]).collect::<Vec<_>>())
            })
            .collect();
        let up = (0..levels)
            .map(|l| EnsembleUpLevel {
                up: EnsembleConv::stack(&nets.iter().map(|n| &n.up[l].up).collect::<Vec<_>>()),
                merge: EnsembleDoubleConv::stack(
                    &nets.iter().map(|n| &n.up[l].merge).collect::<Vec<_>>(),
                ),
            })
            .collect();
        let output = EnsembleConv::stack(&nets.iter().map(|n| &n.output).collect::<Vec<_>>());
        Self { down, up, output }
    }

    /// Number of members `K`.
    pub(super) fn members(&self) -> usize {
        self.output.weight.dims()[0]
    }

    /// Member `k` as its own U-Net (a copy of its current weights).
    pub(super) fn member(&self, k: usize) -> UNet {
        UNet {
            down: self.down.iter().map(|d| d.member(k)).collect(),
            up: self
                .up
                .iter()
                .map(|level| UpLevel {
                    up: level.up.member(k),
                    merge: level.merge.member(k),
                })
                .collect(),
            output: self.output.member(k),
        }
    }

    /// `[K, 2, N, B] → [K, 1, N, B]`, as [`UNet`]'s forward member by member. Panics unless
    /// `2^L` divides `N` (the network alone says so too).
    pub(super) fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let n = x.dims()[2];
        assert!(
            n.is_multiple_of(1 << self.up.len()),
            "a U-Net of {} levels needs N divisible by {}, got {n}",
            self.up.len(),
            1 << self.up.len()
        );
        let mut skips = Vec::with_capacity(self.up.len());
        let mut x = self.down[0].forward(x);
        for conv in &self.down[1..] {
            skips.push(x.clone());
            x = conv.forward(pool(x));
        }
        for level in &self.up {
            let skip = skips.pop().expect("one skip per level");
            let up = leaky_relu(level.up.forward(upsample(x)), LEAKY_SLOPE);
            x = level.merge.forward(Tensor::cat(vec![up, skip], 1));
        }
        self.output.forward(x)
    }
}
