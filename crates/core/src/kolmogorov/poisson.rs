//! The exact periodic Poisson solve of the 5-point Laplacian on the device: real Fourier basis
//! matrices as matmuls (burn has no FFT; cf. [`crate::nets::fno`]).
//!
//! `Q` `[N, N]` is the orthonormal real Fourier basis (columns `1/√N`, `√(2/N)·cos(k·x)`,
//! `√(2/N)·sin(k·x)` for `k = 1..N/2−1`, `(−1)^j/√N`). Every product of a row and a column basis
//! function is an eigenfunction of the periodic 5-point Laplacian, so
//! `Δ_h⁻¹ X = Q (M ⊙ (Qᵀ X Q)) Qᵀ` with `M[r][c] = 1/λ(k_r, k_c)` and `M[0][0] = 0` (the mean
//! mode is dropped): four N×N matmuls per field, differentiable by autodiff.

use std::f64::consts::TAU;

use burn::tensor::{Device, Tensor, TensorData};

use super::grid::laplacian_eigenvalue;
use crate::counted::matmul;
use crate::types::Precision;

/// The wavenumber of basis column `c` of [`basis`] (N even).
fn basis_wavenumber(c: usize) -> f64 {
    c.div_ceil(2) as f64
}

/// The orthonormal real Fourier basis `Q` `[N, N]` (N even), row-major: `Q[j][c]` = basis
/// function `c` at point `j`.
pub fn basis(n: usize) -> Vec<f64> {
    let mut q = vec![0.0; n * n];
    let (unit, pair) = ((1.0 / n as f64).sqrt(), (2.0 / n as f64).sqrt());
    for j in 0..n {
        for c in 0..n {
            let k = basis_wavenumber(c);
            let angle = TAU * ((k as usize * j) % n) as f64 / n as f64;
            q[j * n + c] = if c == 0 {
                unit
            } else if c == n - 1 {
                unit * angle.cos()
            } else if c % 2 == 1 {
                pair * angle.cos()
            } else {
                pair * angle.sin()
            };
        }
    }
    q
}

/// `M[r][c] = 1/λ(k_r, k_c)` (`0` at `[0][0]`) `[N, N]`, row-major.
pub fn inverse_eigenvalues(n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|m| {
            let (r, c) = (m / n, m % n);
            if m == 0 {
                0.0
            } else {
                1.0 / laplacian_eigenvalue(basis_wavenumber(r), basis_wavenumber(c), n)
            }
        })
        .collect()
}

/// The solver's constants on one device and precision. Cheap to clone.
#[derive(Debug, Clone)]
pub struct PoissonSolver {
    /// `Q` `[1, 1, N, N]`.
    q: Tensor<4>,
    /// `Qᵀ` `[1, 1, N, N]`.
    q_t: Tensor<4>,
    /// `M` `[1, 1, N, N]`.
    inverse_eigenvalues: Tensor<4>,
}

/// A `[1, 1, N, N]` constant from row-major f64 values.
pub fn constant(values: Vec<f64>, n: usize, device: &Device, precision: Precision) -> Tensor<4> {
    Tensor::<4>::from_data(
        TensorData::new(values, [1, 1, n, n]),
        (device, precision.dtype()),
    )
}

impl PoissonSolver {
    /// Builds `Q`, `Qᵀ` and `M` in f64 and uploads them (N even).
    pub fn new(n: usize, device: &Device, precision: Precision) -> Self {
        let q = basis(n);
        let q_t: Vec<f64> = (0..n * n).map(|m| q[(m % n) * n + m / n]).collect();
        Self {
            q: constant(q, n, device, precision),
            q_t: constant(q_t, n, device, precision),
            inverse_eigenvalues: constant(inverse_eigenvalues(n), n, device, precision),
        }
    }

    /// `Δ_h⁻¹ rhs` with the mean mode set to zero: `[B, C, N, N] → [B, C, N, N]`.
    pub fn solve(&self, rhs: Tensor<4>) -> Tensor<4> {
        let coefficients = matmul(matmul(self.q_t.clone(), rhs), self.q.clone());
        let scaled = matmul(
            self.q.clone(),
            coefficients * self.inverse_eigenvalues.clone(),
        );
        matmul(scaled, self.q_t.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;

    #[test]
    fn basis_is_orthonormal() {
        let n = 8;
        let q = basis(n);
        for a in 0..n {
            for b in 0..n {
                let dot: f64 = (0..n).map(|j| q[j * n + a] * q[j * n + b]).sum();
                let want = if a == b { 1.0 } else { 0.0 };
                assert!((dot - want).abs() < 1e-14, "{a} {b}: {dot}");
            }
        }
    }

    #[test]
    fn solve_inverts_the_five_point_laplacian() {
        let n = 8;
        let h = TAU / n as f64;
        let device = backend::cpu();
        let solver = PoissonSolver::new(n, &device, Precision::F64);
        let rhs: Vec<f64> = (0..n * n)
            .map(|m| ((m * 37) % 11) as f64 - 5.0 + 0.1 * m as f64)
            .collect();
        let mean = rhs.iter().sum::<f64>() / (n * n) as f64;
        let phi: Vec<f64> = solver
            .solve(constant(rhs.clone(), n, &device, Precision::F64))
            .into_data()
            .convert::<f64>()
            .try_to_vec::<f64>()
            .expect("read");
        let at = |i: usize, j: usize| phi[(i % n) * n + j % n];
        for i in 0..n {
            for j in 0..n {
                let lap = (at(i + 1, j) + at(i + n - 1, j) + at(i, j + 1) + at(i, j + n - 1)
                    - 4.0 * at(i, j))
                    / (h * h);
                assert!((lap - (rhs[i * n + j] - mean)).abs() < 1e-12, "{i} {j}");
            }
        }
        assert!(phi.iter().sum::<f64>().abs() < 1e-12);
    }
}
