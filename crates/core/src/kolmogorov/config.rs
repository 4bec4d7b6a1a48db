//! The study's Kolmogorov-flow constants (docs/src/study.md, "Kolmogorov flow, 2D") and the checks of
//! resolution, Reynolds number and time step.

use super::error::KolmogorovError;

/// Wavenumber of the forcing `f = (A·sin(6y), 0)`.
pub const FORCING_WAVENUMBER: f64 = 6.0;
/// Ground-truth resolution (128²).
pub const FINE_RESOLUTION: usize = 128;
/// Ground-truth time step.
pub const FINE_DT: f64 = 0.005;
/// Coarse (learned-step) resolution (32²).
pub const COARSE_RESOLUTION: usize = 32;
/// Coarse time step (every 4th ground-truth frame).
pub const COARSE_DT: f64 = 0.02;
/// Training Reynolds numbers.
pub const TRAIN_REYNOLDS: [f64; 6] = [300.0, 400.0, 500.0, 700.0, 800.0, 900.0];
/// Test Reynolds numbers (interpolation, extrapolation).
pub const TEST_REYNOLDS: [f64; 2] = [600.0, 1000.0];

/// Smallest accepted resolution.
pub const MIN_RESOLUTION: usize = 8;
/// Largest accepted resolution.
pub const MAX_RESOLUTION: usize = 1024;

/// `n` if it is even and in [`MIN_RESOLUTION`]`..=`[`MAX_RESOLUTION`].
pub fn check_resolution(n: usize) -> Result<usize, KolmogorovError> {
    if n.is_multiple_of(2) && (MIN_RESOLUTION..=MAX_RESOLUTION).contains(&n) {
        Ok(n)
    } else {
        Err(KolmogorovError::BadResolution {
            min: MIN_RESOLUTION,
            max: MAX_RESOLUTION,
            got: n,
        })
    }
}

/// `reynolds` if it is positive and finite.
pub fn check_reynolds(reynolds: f64) -> Result<f64, KolmogorovError> {
    if reynolds.is_finite() && reynolds > 0.0 {
        Ok(reynolds)
    } else {
        Err(KolmogorovError::BadReynolds(reynolds))
    }
}

/// `dt` if it is positive and finite.
pub fn check_dt(dt: f64) -> Result<f64, KolmogorovError> {
    if dt.is_finite() && dt > 0.0 {
        Ok(dt)
    } else {
        Err(KolmogorovError::BadTimeStep(dt))
    }
}

/// `amplitude` if it is finite (0 switches the forcing off).
pub fn check_forcing(amplitude: f64) -> Result<f64, KolmogorovError> {
    if amplitude.is_finite() {
        Ok(amplitude)
    } else {
        Err(KolmogorovError::BadForcing(amplitude))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_accept_the_study_and_refuse_the_rest() {
        assert_eq!(check_resolution(32), Ok(32));
        assert!(check_resolution(6).is_err());
        assert!(check_resolution(33).is_err());
        assert!(check_resolution(2048).is_err());
        assert_eq!(check_reynolds(600.0), Ok(600.0));
        assert!(check_reynolds(0.0).is_err());
        assert!(check_reynolds(f64::NAN).is_err());
        assert_eq!(check_dt(0.02), Ok(0.02));
        assert!(check_dt(-0.02).is_err());
        assert!(check_forcing(f64::INFINITY).is_err());
    }
}
