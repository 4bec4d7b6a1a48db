//! Spectral coefficients of the schemes and their real N×N matrix form, built in f64.
//!
//! Every linear spectral operator `u ↦ Re IFFT(m ⊙ FFT(u))` is a real circulant matrix
//! `M[r][c] = g[(r − c) mod N]` with `g = Re IFFT(m)`. With them
//! ETD1 is `u' = E u + P₁ (u²)` and ETRK2 is `a = E u + P₁ (u²)`, `u' = a + P₂ (a² − u²)`, where
//! `E ↔ e^{L̂h}`, `P₁ ↔ −½ik·φ₁`, `P₂ ↔ −½ik·φ₂`.

use num_complex::Complex64;

use super::grid::Grid;
pub use crate::etd::{phi1, phi2, Etdrk4Coefficients, CONTOUR_POINTS};
pub use crate::matrices::{real_operator, transpose};

/// The nonlinear factor `−½·ik` per wavenumber (`N̂(u) = −½ ik FFT(u²)`, docs/src/study.md); shape `[N]`.
pub fn nonlinear_factor(grid: &Grid) -> Vec<Complex64> {
    grid.wavenumbers()
        .iter()
        .map(|&k| Complex64::new(0.0, -0.5 * k))
        .collect()
}

/// Spectral coefficients of ETD1 / ETRK2 for one sub-step `h`; each `[N]`.
#[derive(Debug, Clone, PartialEq)]
pub struct EtdCoefficients {
    /// `e^{L̂h}`.
    pub exp: Vec<f64>,
    /// `φ₁`.
    pub phi1: Vec<f64>,
    /// `φ₂`.
    pub phi2: Vec<f64>,
}

impl EtdCoefficients {
    /// Coefficients for `grid` and sub-step `h`.
    pub fn new(grid: &Grid, h: f64) -> Self {
        let symbol = grid.linear_symbol();
        Self {
            exp: symbol.iter().map(|l| (l * h).exp()).collect(),
            phi1: symbol.iter().map(|&l| phi1(l, h)).collect(),
            phi2: symbol.iter().map(|&l| phi2(l, h)).collect(),
        }
    }
}

/// The real operator matrices of ETD1 / ETRK2, row-major `[N, N]`, f64.
#[derive(Debug, Clone, PartialEq)]
pub struct EtdMatrices {
    /// Resolution `N`.
    pub resolution: usize,
    /// `E ↔ e^{L̂h}`.
    pub exp: Vec<f64>,
    /// `P₁ ↔ −½ik·φ₁`.
    pub nonlinear1: Vec<f64>,
    /// `P₂ ↔ −½ik·φ₂`.
    pub nonlinear2: Vec<f64>,
}

impl EtdMatrices {
    /// Builds `E`, `P₁`, `P₂` for `grid` and sub-step `h`.
    pub fn new(grid: &Grid, h: f64) -> Self {
        let coefficients = EtdCoefficients::new(grid, h);
        let factor = nonlinear_factor(grid);
        let real = |values: &[f64]| -> Vec<Complex64> {
            values.iter().map(|&v| Complex64::new(v, 0.0)).collect()
        };
        let times_factor = |values: &[f64]| -> Vec<Complex64> {
            values.iter().zip(&factor).map(|(&v, &f)| f * v).collect()
        };
        Self {
            resolution: grid.resolution,
            exp: real_operator(&real(&coefficients.exp)),
            nonlinear1: real_operator(&times_factor(&coefficients.phi1)),
            nonlinear2: real_operator(&times_factor(&coefficients.phi2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phi_limits_at_zero_and_continuity() {
        let h = 0.5;
        assert_eq!(phi1(0.0, h), h);
        assert_eq!(phi2(0.0, h), h / 2.0);
        assert!((phi1(1e-9, h) - h).abs() < 1e-9);
        assert!((phi2(1e-9, h) - h / 2.0).abs() < 1e-9);
        // Series and formula agree at the switch-over.
        let l = 0.999e-3 / h;
        let formula = ((l * h).exp_m1() - l * h) / (h * l * l);
        assert!((phi2(l, h) - formula).abs() < 1e-9);
        assert!((phi1(-72.0, h) - ((-36.0f64).exp() - 1.0) / -72.0).abs() < 1e-15);
    }

    #[test]
    fn contour_coefficients_match_direct_formulas_where_stable() {
        let grid = Grid::new(48, 8.0).expect("grid");
        let h = 0.5;
        let c = Etdrk4Coefficients::from_symbol(&grid.linear_symbol(), h);
        for (j, l) in grid.linear_symbol().iter().enumerate() {
            let z = l * h;
            if z.abs() < 1.0 {
                continue;
            }
            let q = h * ((z / 2.0).exp() - 1.0) / z;
            let f1 = h * (-4.0 - z + z.exp() * (4.0 - 3.0 * z + z * z)) / z.powi(3);
            let f2 = h * (2.0 + z + z.exp() * (z - 2.0)) / z.powi(3);
            let f3 = h * (-4.0 - 3.0 * z - z * z + z.exp() * (4.0 - z)) / z.powi(3);
            for (got, want) in [(c.q[j], q), (c.f1[j], f1), (c.f2[j], f2), (c.f3[j], f3)] {
                assert!((got - want).abs() < 1e-10, "mode {j}: {got} vs {want}");
            }
        }
        // At L̂ = 0: Q = h/2, f₁ = h/6, f₂ = h/6, f₃ = h/6.
        assert!((c.q[0] - h / 2.0).abs() < 1e-13);
        for f in [c.f1[0], c.f2[0], c.f3[0]] {
            assert!((f - h / 6.0).abs() < 1e-13);
        }
    }

    #[test]
    fn identity_multiplier_gives_identity_matrix() {
        let matrix = real_operator(&[Complex64::new(1.0, 0.0); 8]);
        for r in 0..8 {
            for c in 0..8 {
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((matrix[r * 8 + c] - want).abs() < 1e-15);
            }
        }
    }
}
