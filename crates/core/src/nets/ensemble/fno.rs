//! The FNO's member axis: `K` [`Fno`]s of one size, every weight stacked as `[K, …]`, on
//! `[K, C, B·N]` (per member channels first, then sample and point): a pointwise layer is one
//! batched matmul `[K, C_out, C_in] × [K, C_in, B·N]`, a spectral convolution the same real DFT
//! matmuls as alone and one batched complex mixing over members × modes (composite ops on every
//! backend).

use burn::module::{Module, Param};
use burn::tensor::activation::gelu;
use burn::tensor::Tensor;

use super::stack::{part, stacked};
use crate::counted::matmul;
use crate::nets::fno::{dft_matrices, Fno, FourierLayer, Pointwise, SpectralConv, MODES};

/// `K` pointwise layers ([`Pointwise`]): `[K, C_in, B·N] → [K, C_out, B·N]`.
#[derive(Module, Debug)]
pub struct EnsemblePointwise {
    /// `[K, C_out, C_in]`.
    pub weight: Param<Tensor<3>>,
    /// `[K, C_out]`.
    pub bias: Param<Tensor<2>>,
}

impl EnsemblePointwise {
    fn stack(layers: &[&Pointwise]) -> Self {
        Self {
            weight: stacked(layers.iter().map(|l| l.weight.val()).collect()),
            bias: stacked(layers.iter().map(|l| l.bias.val()).collect()),
        }
    }

    fn member(&self, k: usize) -> Pointwise {
        Pointwise {
            weight: part(&self.weight, k),
            bias: part(&self.bias, k),
        }
    }

    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [members, channels_out, _] = self.weight.dims();
        matmul(self.weight.val(), x) + self.bias.val().reshape([members, channels_out, 1])
    }
}

/// `K` spectral convolutions ([`SpectralConv`]): `[K, C, B·N] → [K, C, B·N]`.
#[derive(Module, Debug)]
pub struct EnsembleSpectral {
    /// Real parts `[K, MODES, C_in, C_out]`.
    pub real: Param<Tensor<4>>,
    /// Imaginary parts `[K, MODES, C_in, C_out]`.
    pub imag: Param<Tensor<4>>,
}

impl EnsembleSpectral {
    fn stack(convs: &[&SpectralConv]) -> Self {
        Self {
            real: stacked(convs.iter().map(|c| c.real.val()).collect()),
            imag: stacked(convs.iter().map(|c| c.imag.val()).collect()),
        }
    }

    fn member(&self, k: usize) -> SpectralConv {
        SpectralConv {
            real: part(&self.real, k),
            imag: part(&self.imag, k),
        }
    }

    /// The members' `x·F` per channel and sample, `[X_re, X_im]` times each member's complex
    /// weights mode by mode (one batched matmul over members × modes), the inverse DFT;
    /// `batch` samples of `n` points.
    fn forward(&self, x: Tensor<3>, batch: usize, n: usize) -> Tensor<3> {
        let [members, channels, _] = x.dims();
        let modes = MODES.min(n.div_ceil(2));
        let device = x.device();
        let [f_re, f_im, g_re, g_im] =
            dft_matrices(n, modes).map(|data| Tensor::<2>::from_data(data, &device));
        let rows = x.reshape([members * channels * batch, n]);
        // [K·C·B, modes] → [K·modes, B, C].
        let spectrum = |f: Tensor<2>| {
            matmul(rows.clone(), f)
                .reshape([members, channels, batch, modes])
                .permute([0, 3, 2, 1])
                .reshape([members * modes, batch, channels])
        };
        let (x_re, x_im) = (spectrum(f_re), spectrum(f_im));
        let weights = |w: &Param<Tensor<4>>| {
            w.val()
                .narrow(1, 0, modes)
                .reshape([members * modes, channels, channels])
        };
        let (w_re, w_im) = (weights(&self.real), weights(&self.imag));
        let out_re = matmul(x_re.clone(), w_re.clone()) - matmul(x_im.clone(), w_im.clone());
        let out_im = matmul(x_re, w_im) + matmul(x_im, w_re);
        // [K·modes, B, C] → [K·C·B, modes].
        let back = |t: Tensor<3>| {
            t.reshape([members, modes, batch, channels])
                .permute([0, 3, 2, 1])
                .reshape([members * channels * batch, modes])
        };
        (matmul(back(out_re), g_re) + matmul(back(out_im), g_im)).reshape([
            members,
            channels,
            batch * n,
        ])
    }
}

/// `K` Fourier layers ([`FourierLayer`]).
#[derive(Module, Debug)]
pub struct EnsembleFourierLayer {
    /// The spectral paths.
    pub spectral: EnsembleSpectral,
    /// The pointwise paths.
    pub pointwise: EnsemblePointwise,
}

/// `K` FNOs of one size, trained together.
#[derive(Module, Debug)]
pub struct FnoEnsemble {
    /// Liftings 2 → C.
    pub lift: EnsemblePointwise,
    /// `D` Fourier layers.
    pub layers: Vec<EnsembleFourierLayer>,
    /// Projections C → C.
    pub project: EnsemblePointwise,
    /// Projections C → 1.
    pub output: EnsemblePointwise,
}

impl FnoEnsemble {
    /// `nets` (one size) as the members, in order.
    pub(super) fn stack(nets: &[&Fno]) -> Self {
        let pointwise = |pick: &dyn Fn(&Fno) -> &Pointwise| {
            EnsemblePointwise::stack(&nets.iter().map(|n| pick(n)).collect::<Vec<_>>())
        };
        let depth = nets.first().map_or(0, |net| net.layers.len());
        let layers = (0..depth)
            .map(|d| EnsembleFourierLayer {
                spectral: EnsembleSpectral::stack(
                    &nets
                        .iter()
                        .map(|n| &n.layers[d].spectral)
                        .collect::<Vec<_>>(),
                ),
                pointwise: EnsemblePointwise::stack(
                    &nets
                        .iter()
                        .map(|n| &n.layers[d].pointwise)
                        .collect::<Vec<_>>(),
                ),
            })
            .collect();
        Self {
            lift: pointwise(&|n| &n.lift),
            layers,
            project: pointwise(&|n| &n.project),
            output: pointwise(&|n| &n.output),
        }
    }

    /// Number of members `K`.
    pub(super) fn members(&self) -> usize {
        self.output.weight.dims()[0]
    }

    /// Member `k` as its own FNO (a copy of its current weights).
    pub(super) fn member(&self, k: usize) -> Fno {
        Fno {
            lift: self.lift.member(k),
            layers: self
                .layers
                .iter()
                .map(|layer| FourierLayer {
                    spectral: layer.spectral.member(k),
                    pointwise: layer.pointwise.member(k),
                })
                .collect(),
            project: self.project.member(k),
            output: self.output.member(k),
        }
    }

    /// `[K, 2, N, B] → [K, 1, N, B]` (the grid layout of the other ensembles), as [`Fno`]'s
    /// forward member by member.
    pub(super) fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let [members, _, n, batch] = x.dims();
        // [K, C, N, B] → [K, C, B·N] and back.
        let samples_first = |x: Tensor<4>| {
            let [members, channels, n, batch] = x.dims();
            x.swap_dims(2, 3).reshape([members, channels, batch * n])
        };
        let mut x = self.lift.forward(samples_first(x));
        for (i, layer) in self.layers.iter().enumerate() {
            x = layer.spectral.forward(x.clone(), batch, n) + layer.pointwise.forward(x);
            if i + 1 < self.layers.len() {
                x = gelu(x);
            }
        }
        self.output
            .forward(gelu(self.project.forward(x)))
            .reshape([members, 1, batch, n])
            .swap_dims(2, 3)
    }
}
