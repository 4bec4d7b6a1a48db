//! A 1D Fourier neural operator (Li et al. 2021): lifting (pointwise 2 → C), `D` Fourier layers
//! `x ↦ GELU(K(x) + Wx + b)` (no GELU after the last), projection (pointwise C → C, GELU,
//! pointwise C → 1). `K` is the spectral convolution over the lowest [`MODES`] modes: a real
//! DFT, a complex `C × C` matrix per mode, and the inverse DFT — three matmuls with real
//! DFT matrices built for the grid as burn tensors, so it runs on every device and burn
//! differentiates it. Parameters `(2·MODES + 1)·D·C² + C² + (D + 5)C + 1`
//! (= `(25D + 1)C² + (D + 5)C + 1`).

use std::f64::consts::PI;

use burn::module::{Module, Param};
use burn::tensor::activation::gelu;
use burn::tensor::{Device, Tensor, TensorData};

use super::frame::on_grid;
use super::init::{uniform_param, weight_and_bias};
use super::network::{Facts, GridSize, Marker, Network};
use super::{InitRng, DEPTH_RANGE};
use crate::counted::matmul;

/// Fourier modes kept by every spectral convolution (the grid's 48 points have 24 below
/// Nyquist).
pub const MODES: usize = 12;

/// A per-point linear map `[batch, C_in, N] → [batch, C_out, N]` (a width-1 convolution).
#[derive(Module, Debug)]
pub struct Pointwise {
    /// `[C_out, C_in]`.
    pub weight: Param<Tensor<2>>,
    /// `[C_out]`.
    pub bias: Param<Tensor<1>>,
}

impl Pointwise {
    /// PyTorch's default init: weight then bias from `U(−1/√C_in, 1/√C_in)`.
    pub fn init(
        channels_in: usize,
        channels_out: usize,
        device: &Device,
        rng: &mut InitRng,
    ) -> Self {
        let shape = [channels_out, channels_in];
        let (weight, bias) = weight_and_bias(shape, channels_in, channels_out, device, rng);
        Self { weight, bias }
    }

    /// `[batch, C_in, N] → [batch, C_out, N]`.
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [channels_out, channels_in] = self.weight.dims();
        matmul(self.weight.val().reshape([1, channels_out, channels_in]), x)
            + self.bias.val().reshape([1, channels_out, 1])
    }
}

/// The real DFT matrices of `n` points for the lowest `modes` modes (all below Nyquist):
/// forward `[N, K]` (real part `cos`, imaginary part `−sin`) and inverse `[K, N]` (weights
/// `1/N` for mode 0, `2/N` above), so that `x ↦ x·F` is the truncated DFT and
/// `(X_re, X_im) ↦ X_re·G_re + X_im·G_im` the real inverse of a spectrum zero above `K`.
/// Returns `(F_re, F_im, G_re, G_im)` as row-major host data.
pub fn dft_matrices(n: usize, modes: usize) -> [TensorData; 4] {
    let angle = |k: usize, j: usize| 2.0 * PI * ((k * j) % n) as f64 / n as f64;
    let forward = |f: &dyn Fn(f64) -> f64| {
        let values: Vec<f32> = (0..n)
            .flat_map(|j| (0..modes).map(move |k| (j, k)))
            .map(|(j, k)| f(angle(k, j)) as f32)
            .collect();
        TensorData::new(values, [n, modes])
    };
    let inverse = |f: &dyn Fn(f64) -> f64| {
        let values: Vec<f32> = (0..modes)
            .flat_map(|k| (0..n).map(move |j| (k, j)))
            .map(|(k, j)| {
                let weight = if k == 0 { 1.0 } else { 2.0 } / n as f64;
                (weight * f(angle(k, j))) as f32
            })
            .collect();
        TensorData::new(values, [modes, n])
    };
    [
        forward(&f64::cos),
        forward(&|a: f64| -a.sin()),
        inverse(&f64::cos),
        inverse(&|a: f64| -a.sin()),
    ]
}

/// Spectral convolution over the lowest [`MODES`] modes (fewer on a grid with fewer below
/// Nyquist): `[batch, C, N] → [batch, C, N]`.
#[derive(Module, Debug)]
pub struct SpectralConv {
    /// Real parts `[MODES, C_in, C_out]`.
    pub real: Param<Tensor<3>>,
    /// Imaginary parts `[MODES, C_in, C_out]`.
    pub imag: Param<Tensor<3>>,
}

impl SpectralConv {
    /// Real then imaginary parts from `U(−1/C, 1/C)`.
    pub fn init(channels: usize, device: &Device, rng: &mut InitRng) -> Self {
        let bound = 1.0 / channels as f32;
        let shape = [MODES, channels, channels];
        Self {
            real: uniform_param(shape, bound, device, rng),
            imag: uniform_param(shape, bound, device, rng),
        }
    }

    /// `[batch, C, N] → [batch, C, N]`: `x·F` per channel, `[X_re, X_im]` times the complex
    /// weights mode by mode (one batched matmul over modes), the inverse DFT.
    pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [batch, channels, n] = x.dims();
        let modes = MODES.min(n.div_ceil(2));
        let device = x.device();
        let [f_re, f_im, g_re, g_im] =
            dft_matrices(n, modes).map(|data| Tensor::<2>::from_data(data, &device));
        let rows = x.reshape([batch * channels, n]);
        // [batch·C, K] → [K, batch, C].
        let spectrum = |f: Tensor<2>| {
            matmul(rows.clone(), f)
                .reshape([batch, channels, modes])
                .permute([2, 0, 1])
        };
        let (x_re, x_im) = (spectrum(f_re), spectrum(f_im));
        let w_re = self.real.val().narrow(0, 0, modes);
        let w_im = self.imag.val().narrow(0, 0, modes);
        let out_re = matmul(x_re.clone(), w_re.clone()) - matmul(x_im.clone(), w_im.clone());
        let out_im = matmul(x_re, w_im) + matmul(x_im, w_re);
        // [K, batch, C] → [batch·C, K].
        let back = |t: Tensor<3>| t.permute([1, 2, 0]).reshape([batch * channels, modes]);
        (matmul(back(out_re), g_re) + matmul(back(out_im), g_im)).reshape([batch, channels, n])
    }
}

/// `x ↦ K(x) + Wx + b` (the activation is applied by the caller).
#[derive(Module, Debug)]
pub struct FourierLayer {
    /// The spectral path.
    pub spectral: SpectralConv,
    /// The pointwise path.
    pub pointwise: Pointwise,
}

/// The Fourier neural operator.
#[derive(Module, Debug)]
pub struct Fno {
    /// Lifting 2 → C (channels u, s).
    pub lift: Pointwise,
    /// `D` Fourier layers.
    pub layers: Vec<FourierLayer>,
    /// Projection C → C (then GELU).
    pub project: Pointwise,
    /// Projection C → 1.
    pub output: Pointwise,
}

impl Network for Fno {
    type Size = GridSize;

    const FACTS: Facts = Facts {
        title: "Fourier neural operator (12 modes)",
        size_knobs: "C channels, D Fourier layers (12 modes)",
        max_depth: *DEPTH_RANGE.end(),
        default_size: (12, 3),
        size_grid: [(3, 1), (6, 2), (12, 3), (24, 4)],
        state_dims: 1,
        marker: Marker::Cross,
        apebench: Some("FNO;12;{C};{D};gelu"),
    };

    /// Draws the layers in forward order (lift, layers with spectral before pointwise,
    /// projection), weight before bias.
    fn build(size: GridSize, device: &Device, rng: &mut InitRng) -> Self {
        let (channels, depth) = (size.channels, size.depth);
        let lift = Pointwise::init(2, channels, device, rng);
        let layers = (0..depth)
            .map(|_| FourierLayer {
                spectral: SpectralConv::init(channels, device, rng),
                pointwise: Pointwise::init(channels, channels, device, rng),
            })
            .collect();
        let project = Pointwise::init(channels, channels, device, rng);
        let output = Pointwise::init(channels, 1, device, rng);
        Self {
            lift,
            layers,
            project,
            output,
        }
    }

    /// `u: [batch, N]`, `parameter: [batch, 1]` → `[batch, N]`.
    fn forward(&self, u: Tensor<2>, parameter: Tensor<2>) -> Tensor<2> {
        on_grid(u, parameter, |x| {
            let mut x = self.lift.forward(x);
            for (i, layer) in self.layers.iter().enumerate() {
                x = layer.spectral.forward(x.clone()) + layer.pointwise.forward(x);
                if i + 1 < self.layers.len() {
                    x = gelu(x);
                }
            }
            self.output.forward(gelu(self.project.forward(x)))
        })
    }

    /// `(25D + 1)C² + (D + 5)C + 1`.
    fn parameter_count(size: GridSize) -> usize {
        let (c, d) = (size.channels, size.depth);
        ((2 * MODES + 1) * d + 1) * c * c + (d + 5) * c + 1
    }

    /// Per layer the forward DFT (2 matmuls N → K), the complex mixing (4 matmuls C → C per
    /// mode and 2 adds), the inverse DFT (2 matmuls K → N and an add), the pointwise path, their
    /// sum and the GELU; lift and the two projections around them.
    fn flops_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        let k = MODES.min(resolution.div_ceil(2)) as f64;
        let pointwise = |ci: f64, co: f64| (2.0 * ci * co + co) * n;
        let spectral = 4.0 * n * k * c + (8.0 * c * c + 2.0 * c) * k + 4.0 * k * n * c + c * n;
        let layer = spectral + pointwise(c, c) + 2.0 * c * n;
        pointwise(2.0, c) + d * layer + pointwise(c, c) + c * n + pointwise(c, 1.0)
    }

    /// `(6D + 4)·C·N + 6·D·K·C + 3N`: per layer the inverse DFT's two parts, the pointwise
    /// path, the sum and the GELU, and the spectra.
    fn activation_floats_per_sample(size: GridSize, resolution: usize) -> f64 {
        let (c, d, n) = (size.channels as f64, size.depth as f64, resolution as f64);
        let k = MODES.min(resolution.div_ceil(2)) as f64;
        (6.0 * d + 4.0) * c * n + 6.0 * d * k * c + 3.0 * n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;

    use crate::nets::test_values as values;

    /// A spectral conv whose weights are `w` (complex, one per mode) on the diagonal.
    fn diagonal(channels: usize, w: &[(f32, f32)], device: &Device) -> SpectralConv {
        let mut re = vec![0.0f32; MODES * channels * channels];
        let mut im = re.clone();
        for (k, (a, b)) in w.iter().enumerate() {
            for c in 0..channels {
                re[(k * channels + c) * channels + c] = *a;
                im[(k * channels + c) * channels + c] = *b;
            }
        }
        let param = |v: Vec<f32>| {
            Param::from_tensor(Tensor::<3>::from_data(
                TensorData::new(v, [MODES, channels, channels]),
                device,
            ))
        };
        SpectralConv {
            real: param(re),
            imag: param(im),
        }
    }

    #[test]
    fn identity_weights_low_pass_and_derivative() {
        let device = cpu();
        let n = 48;
        let x: Vec<f32> = (0..n)
            .map(|j| {
                let a = 2.0 * std::f32::consts::PI * j as f32 / n as f32;
                0.5 + (3.0 * a).cos() - 0.25 * (5.0 * a).sin() + 0.7 * (20.0 * a).cos()
            })
            .collect();
        let input = Tensor::<3>::from_data(TensorData::new(x.clone(), [1, 1, n]), &device);
        // Weight 1 on every kept mode: the low-pass filter (mode 20 ≥ MODES is dropped).
        let low = values(diagonal(1, &[(1.0, 0.0); MODES], &device).forward(input.clone()));
        for (j, v) in low.iter().enumerate() {
            let want = x[j] - 0.7 * (2.0 * std::f32::consts::PI * 20.0 * j as f32 / n as f32).cos();
            assert!((v - want).abs() < 1e-4, "point {j}: {v} vs {want}");
        }
        // Weight i·k (in units of 2π/N): the derivative of the kept part.
        let ik: Vec<(f32, f32)> = (0..MODES).map(|k| (0.0, k as f32)).collect();
        let derivative = values(diagonal(1, &ik, &device).forward(input));
        for (j, v) in derivative.iter().enumerate() {
            let a = 2.0 * std::f32::consts::PI * j as f32 / n as f32;
            let want = -3.0 * (3.0 * a).sin() - 1.25 * (5.0 * a).cos();
            assert!((v - want).abs() < 1e-4, "point {j}: {v} vs {want}");
        }
    }

    #[test]
    fn fewer_modes_on_a_small_grid() {
        let device = cpu();
        let net = Fno::build(
            GridSize {
                channels: 3,
                depth: 2,
            },
            &device,
            &mut InitRng::new(2),
        );
        let u = Tensor::<2>::ones([2, 8], &device);
        let s = Tensor::<2>::ones([2, 1], &device);
        let out = values(net.forward(u, s));
        assert_eq!(out.len(), 16);
        assert!(out.iter().all(|v| v.is_finite()));
    }
}
