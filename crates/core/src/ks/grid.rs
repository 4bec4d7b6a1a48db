//! The periodic grid: points `x_j = L·j/N` and wavenumbers `k = fftfreq(N, d = L/N)`.
//!
//! docs/src/study.md: `k` is in cycles per unit length and is used *directly* in the spectral symbols
//! (`∂_x ↦ ik`, no factor 2π), so the physical period of the PDE is 2π·L.

use super::error::KsError;

/// Smallest supported resolution.
pub const MIN_RESOLUTION: usize = 8;

/// A periodic 1D grid of `resolution` points on `[0, domain_size)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Number of points `N` (≥ [`MIN_RESOLUTION`]).
    pub resolution: usize,
    /// Domain parameter `L` (= 8·s in the study).
    pub domain_size: f64,
}

impl Grid {
    /// A validated grid.
    pub fn new(resolution: usize, domain_size: f64) -> Result<Self, KsError> {
        if resolution < MIN_RESOLUTION {
            return Err(KsError::ResolutionTooSmall {
                min: MIN_RESOLUTION,
                got: resolution,
            });
        }
        if !(domain_size.is_finite() && domain_size > 0.0) {
            return Err(KsError::BadDomainSize(domain_size));
        }
        Ok(Self {
            resolution,
            domain_size,
        })
    }

    /// Grid spacing `d = L/N`.
    pub fn spacing(&self) -> f64 {
        self.domain_size / self.resolution as f64
    }

    /// Points `x_j = L·j/N`, `j = 0..N`; shape `[N]`.
    pub fn points(&self) -> Vec<f64> {
        let n = self.resolution as f64;
        (0..self.resolution)
            .map(|j| self.domain_size * j as f64 / n)
            .collect()
    }

    /// `numpy.fft.fftfreq(N, d = L/N)`: `[0, 1, …, ⌈N/2⌉−1, −⌊N/2⌋, …, −1] / (N·d)`; shape `[N]`,
    /// cycles per unit length.
    pub fn wavenumbers(&self) -> Vec<f64> {
        let scale = 1.0 / (self.resolution as f64 * self.spacing());
        crate::spectral1d::fft_modes(self.resolution)
            .iter()
            .map(|index| index * scale)
            .collect()
    }

    /// Linear symbol `L̂ = k² − k⁴` per wavenumber; shape `[N]`.
    pub fn linear_symbol(&self) -> Vec<f64> {
        self.wavenumbers()
            .iter()
            .map(|k| k * k - k.powi(4))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wavenumbers_match_numpy_fftfreq_even_and_odd() {
        let grid = Grid::new(8, 8.0).expect("grid");
        let expected = [0.0, 1.0, 2.0, 3.0, -4.0, -3.0, -2.0, -1.0].map(|v| v / 8.0);
        for (k, e) in grid.wavenumbers().iter().zip(expected) {
            assert!((k - e).abs() < 1e-15, "{k} vs {e}");
        }
        let odd = Grid::new(9, 4.5).expect("grid");
        let expected = [0.0, 1.0, 2.0, 3.0, 4.0, -4.0, -3.0, -2.0, -1.0].map(|v| v / 4.5);
        for (k, e) in odd.wavenumbers().iter().zip(expected) {
            assert!((k - e).abs() < 1e-15, "{k} vs {e}");
        }
    }

    #[test]
    fn default_grid_points_and_symbol() {
        let grid = Grid::new(48, 8.0).expect("grid");
        let x = grid.points();
        assert_eq!(x.len(), 48);
        assert!((x[1] - 8.0 / 48.0).abs() < 1e-15);
        assert!((x[47] - 8.0 * 47.0 / 48.0).abs() < 1e-14);
        let k = grid.wavenumbers();
        assert!((k[24] + 3.0).abs() < 1e-14, "Nyquist k = −N/(2L) = −3");
        let symbol = grid.linear_symbol();
        assert_eq!(symbol[0], 0.0);
        // k = 1/2 → 1/4 − 1/16; k = 1 → 0 (to rounding); k = 3 → 9 − 81.
        assert!((symbol[4] - (0.25 - 0.0625)).abs() < 1e-15);
        assert!(symbol[8].abs() < 1e-12);
        assert!((symbol[24] - (9.0 - 81.0)).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_grids() {
        assert!(Grid::new(7, 8.0).is_err());
        assert!(Grid::new(48, 0.0).is_err());
        assert!(Grid::new(48, f64::NAN).is_err());
    }
}
