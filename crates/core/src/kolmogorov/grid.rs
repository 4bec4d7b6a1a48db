//! The periodic N×N grid on [0, 2π]² and its layouts.
//!
//! Arrays are indexed `[row i = y][column j = x]`, row-major flat `i·N + j`; grid points are
//! `x_j = j·h`, `y_i = i·h` with `h = 2π/N`. Vorticity lives at the grid points. The staggered
//! (MAC) layout puts `u` at `(x_j, y_i + h/2)`, `v` at `(x_j + h/2, y_i)` and the pressure at the
//! cell centres `(x_j + h/2, y_i + h/2)`.

use std::f64::consts::TAU;

/// Grid spacing `h = 2π/N`.
pub fn spacing(n: usize) -> f64 {
    TAU / n as f64
}

/// The integer wavenumber of FFT index `index` (numpy's `fftfreq(N)·N`): `0, 1, …, N/2−1,
/// −N/2, …, −1`.
pub fn wavenumber(index: usize, n: usize) -> f64 {
    if index < n.div_ceil(2) {
        index as f64
    } else {
        index as f64 - n as f64
    }
}

/// Eigenvalue of the periodic 5-point Laplacian for the mode `(k_y, k_x)` (integer wavenumbers,
/// any sign): `−(4/h²)(sin²(π k_x/N) + sin²(π k_y/N))`, in 1/length².
pub fn laplacian_eigenvalue(ky: f64, kx: f64, n: usize) -> f64 {
    let h = spacing(n);
    let s = |k: f64| (std::f64::consts::PI * k / n as f64).sin().powi(2);
    -4.0 / (h * h) * (s(kx) + s(ky))
}

/// `values` sampled at the grid points: `f(x_j, y_i)` at `i·N + j`; shape `[N²]`.
pub fn sample(n: usize, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let h = spacing(n);
    (0..n * n)
        .map(|index| f((index % n) as f64 * h, (index / n) as f64 * h))
        .collect()
}

/// The mean of a field.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The root mean square of a field.
pub fn rms(values: &[f64]) -> f64 {
    (values.iter().map(|v| v * v).sum::<f64>() / values.len().max(1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wavenumbers_and_eigenvalues() {
        let ks: Vec<f64> = (0..8).map(|i| wavenumber(i, 8)).collect();
        assert_eq!(ks, [0.0, 1.0, 2.0, 3.0, -4.0, -3.0, -2.0, -1.0]);
        // Low modes: the eigenvalue tends to −|k|².
        let lambda = laplacian_eigenvalue(1.0, 2.0, 256);
        assert!((lambda + 5.0).abs() < 1e-3, "{lambda}");
        let field = sample(4, |x, y| x + 10.0 * y);
        assert!((field[4 + 1] - (spacing(4) + 10.0 * spacing(4))).abs() < 1e-15);
    }
}
