//! Spectral coefficients of ETD1 and ETDRK4 for `u_t = ν u_xx − ½ ∂x(u²)` and the real N×N
//! matrices of ETD1, built in f64.
//!
//! With the linear symbol `L̂ = −νk²` and the dealiased nonlinear factor `−½ik·m(k)` (`m` the
//! 2/3 mask), ETD1 is `û' = e^{L̂h} û − ½ik·m·φ₁(L̂)·FFT(u²)`; as real circulant matrices
//! `u' = E u + P (u²)` with `E ↔ e^{L̂h}`, `P ↔ −½ik·m·φ₁`. The Kassam–Trefethen ETDRK4
//! coefficients and the circulant construction are KS's
//! ([`crate::ks::operators`]), called with Burgers' symbol.

use num_complex::Complex64;

use super::grid::Grid;
use crate::etd::{phi1, Etdrk4Coefficients};
use crate::matrices::real_operator;

/// The dealiased nonlinear factor `−½ik·m(k)` per mode (`N̂(u) = factor ⊙ FFT(u²)`); `[N]`.
pub fn nonlinear_factor(grid: &Grid) -> Vec<Complex64> {
    grid.wavenumbers()
        .iter()
        .zip(grid.dealias_mask())
        .map(|(&k, mask)| Complex64::new(0.0, -0.5 * k * mask))
        .collect()
}

/// ETD1's spectral coefficients for viscosity `ν` and step `h`; each `[N]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Etd1Coefficients {
    /// `e^{−νk²h}`.
    pub exp: Vec<f64>,
    /// `φ₁ = (e^{−νk²h} − 1)/(−νk²)`, `= h` at `k = 0`.
    pub phi1: Vec<f64>,
}

impl Etd1Coefficients {
    /// Coefficients on `grid`.
    pub fn new(grid: &Grid, viscosity: f64, h: f64) -> Self {
        let symbol = grid.viscous_symbol(viscosity);
        Self {
            exp: symbol.iter().map(|l| (l * h).exp()).collect(),
            phi1: symbol.iter().map(|&l| phi1(l, h)).collect(),
        }
    }
}

/// ETDRK4's coefficients for viscosity `ν` and sub-step `h` on `grid`.
pub fn etdrk4_coefficients(grid: &Grid, viscosity: f64, h: f64) -> Etdrk4Coefficients {
    Etdrk4Coefficients::from_symbol(&grid.viscous_symbol(viscosity), h)
}

/// The real matrices of one ETD1 step, row-major `[N, N]`, f64.
#[derive(Debug, Clone, PartialEq)]
pub struct Etd1Matrices {
    /// Resolution `N`.
    pub resolution: usize,
    /// `E ↔ e^{−νk²h}`.
    pub exp: Vec<f64>,
    /// `P ↔ −½ik·m(k)·φ₁`.
    pub nonlinear: Vec<f64>,
}

impl Etd1Matrices {
    /// Builds `E` and `P` on `grid` for viscosity `ν` and step `h`.
    pub fn new(grid: &Grid, viscosity: f64, h: f64) -> Self {
        let coefficients = Etd1Coefficients::new(grid, viscosity, h);
        let exp: Vec<Complex64> = coefficients
            .exp
            .iter()
            .map(|&v| Complex64::new(v, 0.0))
            .collect();
        let nonlinear: Vec<Complex64> = nonlinear_factor(grid)
            .iter()
            .zip(&coefficients.phi1)
            .map(|(&f, &p)| f * p)
            .collect();
        Self {
            resolution: grid.resolution,
            exp: real_operator(&exp),
            nonlinear: real_operator(&nonlinear),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `P` applied to `u²` is `−½ ∂x(u²)` times φ₁ on the kept modes: for `u = sin x`,
    /// `u² = ½(1 − cos 2x)`, so `−½ ∂x(u²) = −½ sin 2x` and `P u² = −½ sin 2x · φ₁(−4ν)`.
    #[test]
    fn nonlinear_matrix_differentiates_the_square() {
        let grid = Grid::new(16).expect("grid");
        let (nu, h) = (0.1, 0.3);
        let matrices = Etd1Matrices::new(&grid, nu, h);
        let x = grid.points();
        let square: Vec<f64> = x.iter().map(|x| x.sin().powi(2)).collect();
        let factor = phi1(-4.0 * nu, h);
        for (r, &xr) in x.iter().enumerate() {
            let got: f64 = (0..16)
                .map(|c| matrices.nonlinear[r * 16 + c] * square[c])
                .sum();
            let want = -0.5 * (2.0 * xr).sin() * factor;
            assert!((got - want).abs() < 1e-14, "row {r}: {got} vs {want}");
        }
        // E keeps the mean and damps cos 3x by e^{−9νh}.
        let u: Vec<f64> = x.iter().map(|x| 1.0 + (3.0 * x).cos()).collect();
        for (r, &xr) in x.iter().enumerate() {
            let got: f64 = (0..16).map(|c| matrices.exp[r * 16 + c] * u[c]).sum();
            let want = 1.0 + (3.0 * xr).cos() * (-9.0 * nu * h).exp();
            assert!((got - want).abs() < 1e-14);
        }
    }
}
