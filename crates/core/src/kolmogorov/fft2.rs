//! The 2-D complex FFT of an N×N row-major array (rustfft, rows then columns), f64.

use std::sync::Arc;

use num_complex::Complex64;
use rustfft::{Fft, FftPlanner};

/// Forward and inverse 2-D FFTs of size N×N. Forward is unnormalised
/// (`X[ky][kx] = Σ x[i][j] e^{−2πi(ky·i + kx·j)/N}`); inverse includes `1/N²`.
pub struct Fft2 {
    n: usize,
    forward: Arc<dyn Fft<f64>>,
    inverse: Arc<dyn Fft<f64>>,
}

impl std::fmt::Debug for Fft2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fft2").field("n", &self.n).finish()
    }
}

impl Clone for Fft2 {
    fn clone(&self) -> Self {
        Self {
            n: self.n,
            forward: Arc::clone(&self.forward),
            inverse: Arc::clone(&self.inverse),
        }
    }
}

impl Fft2 {
    /// Plans both directions for N×N.
    pub fn new(n: usize) -> Self {
        let mut planner = FftPlanner::new();
        Self {
            n,
            forward: planner.plan_fft_forward(n),
            inverse: planner.plan_fft_inverse(n),
        }
    }

    /// The side N.
    pub fn n(&self) -> usize {
        self.n
    }

    fn transpose(&self, data: &mut [Complex64]) {
        let n = self.n;
        for i in 0..n {
            for j in i + 1..n {
                data.swap(i * n + j, j * n + i);
            }
        }
    }

    fn both_axes(&self, fft: &Arc<dyn Fft<f64>>, data: &mut [Complex64]) {
        fft.process(data);
        self.transpose(data);
        fft.process(data);
        self.transpose(data);
    }

    /// In-place forward transform of `[N²]` values.
    pub fn forward(&self, data: &mut [Complex64]) {
        self.both_axes(&self.forward, data);
    }

    /// In-place inverse transform of `[N²]` values, normalised by `1/N²`.
    pub fn inverse(&self, data: &mut [Complex64]) {
        self.both_axes(&self.inverse, data);
        let scale = 1.0 / (self.n * self.n) as f64;
        for z in data.iter_mut() {
            *z *= scale;
        }
    }

    /// The forward transform of a real field `[N²]`.
    pub fn forward_real(&self, values: &[f64]) -> Vec<Complex64> {
        let mut data: Vec<Complex64> = values.iter().map(|&v| Complex64::new(v, 0.0)).collect();
        self.forward(&mut data);
        data
    }

    /// The real part of the inverse transform of `spectrum` `[N²]`.
    pub fn inverse_real(&self, spectrum: &[Complex64]) -> Vec<f64> {
        let mut data = spectrum.to_vec();
        self.inverse(&mut data);
        data.iter().map(|z| z.re).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_mode_lands_in_its_bin_and_round_trips() {
        let n = 8;
        let h = std::f64::consts::TAU / n as f64;
        // cos(2x + 3y): bins (ky, kx) = (3, 2) and (−3, −2), each N²/2.
        let field: Vec<f64> = (0..n * n)
            .map(|idx| (2.0 * (idx % n) as f64 * h + 3.0 * (idx / n) as f64 * h).cos())
            .collect();
        let fft = Fft2::new(n);
        let spectrum = fft.forward_real(&field);
        let half = (n * n) as f64 / 2.0;
        assert!((spectrum[3 * n + 2].re - half).abs() < 1e-12);
        assert!((spectrum[5 * n + 6].re - half).abs() < 1e-12);
        let total: f64 = spectrum.iter().map(|z| z.norm()).sum();
        assert!((total - 2.0 * half).abs() < 1e-10);
        let back = fft.inverse_real(&spectrum);
        for (a, b) in back.iter().zip(&field) {
            assert!((a - b).abs() < 1e-14);
        }
    }
}
