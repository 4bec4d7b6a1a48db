//! The periodic grid on `[0, 2π)`: points `x_j = 2π·j/N`, integer wavenumbers `k` (`∂x ↦ ik`)
//! and the 2/3-rule mask of the nonlinear term.

use super::error::BurgersError;

/// Smallest supported resolution.
pub const MIN_RESOLUTION: usize = 8;

/// A periodic grid of `resolution` points on `[0, 2π)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Number of points `N` (≥ [`MIN_RESOLUTION`]).
    pub resolution: usize,
}

impl Grid {
    /// A validated grid.
    pub fn new(resolution: usize) -> Result<Self, BurgersError> {
        if resolution < MIN_RESOLUTION {
            return Err(BurgersError::ResolutionTooSmall {
                min: MIN_RESOLUTION,
                got: resolution,
            });
        }
        Ok(Self { resolution })
    }

    /// Grid spacing `2π/N`.
    pub fn spacing(&self) -> f64 {
        std::f64::consts::TAU / self.resolution as f64
    }

    /// Points `x_j = 2π·j/N`, `j = 0..N`; shape `[N]`.
    pub fn points(&self) -> Vec<f64> {
        (0..self.resolution)
            .map(|j| self.spacing() * j as f64)
            .collect()
    }

    /// Integer wavenumbers in FFT order `[0, 1, …, ⌈N/2⌉−1, −⌊N/2⌋, …, −1]`; shape `[N]`.
    pub fn wavenumbers(&self) -> Vec<f64> {
        crate::spectral1d::fft_modes(self.resolution)
    }

    /// The 2/3 rule: `1` where `3|k| < N` (the products of two such modes alias onto none of
    /// them), `0` elsewhere (the Nyquist mode included); shape `[N]`.
    pub fn dealias_mask(&self) -> Vec<f64> {
        let n = self.resolution as f64;
        self.wavenumbers()
            .iter()
            .map(|k| if 3.0 * k.abs() < n { 1.0 } else { 0.0 })
            .collect()
    }

    /// Linear symbol `L̂ = −ν k²` of the viscous term; shape `[N]`.
    pub fn viscous_symbol(&self, viscosity: f64) -> Vec<f64> {
        self.wavenumbers()
            .iter()
            .map(|k| -viscosity * k * k)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wavenumbers_mask_and_points() {
        let grid = Grid::new(12).expect("grid");
        let k = grid.wavenumbers();
        assert_eq!(
            k,
            vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0]
        );
        let kept: Vec<f64> = k
            .iter()
            .zip(grid.dealias_mask())
            .filter(|(_, m)| *m == 1.0)
            .map(|(k, _)| *k)
            .collect();
        assert_eq!(kept, vec![0.0, 1.0, 2.0, 3.0, -3.0, -2.0, -1.0]);
        let study = Grid::new(48).expect("grid");
        assert_eq!(study.dealias_mask().iter().sum::<f64>(), 31.0, "|k| ≤ 15");
        assert!((study.points()[12] - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert!((grid.viscous_symbol(0.1)[3] + 0.9).abs() < 1e-15);
        assert!(Grid::new(7).is_err());
    }
}
