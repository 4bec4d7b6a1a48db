//! Conversions between vorticity at the grid points and the staggered (MAC) velocity, f64.
//!
//! Velocity arrays are channel-major `[2, N, N]` flat (`2·N²` values): channel 0 = `u` at
//! `(x_j, y_i + h/2)`, channel 1 = `v` at `(x_j + h/2, y_i)`, each row-major `[i = y][j = x]`
//! (the layout of [`super::coarse`]'s tensors with batch 1). The discrete curl
//! `(v[i][j] − v[i][j−1])/h − (u[i][j] − u[i−1][j])/h` lives at the grid point `(x_j, y_i)`; the
//! discrete divergence `(u[i][j+1] − u[i][j])/h + (v[i+1][j] − v[i][j])/h` at the cell centre
//! `(x_j + h/2, y_i + h/2)`.
//!
//! Both conversions to velocity go through a stream function `ψ` at the grid points,
//! `u = (ψ[i+1][j] − ψ[i][j])/h`, `v = −(ψ[i][j+1] − ψ[i][j])/h`, so the result is exactly
//! discretely divergence-free (the divergence of a discrete curl telescopes to zero).

use num_complex::Complex64;

use super::config::check_resolution;
use super::error::KolmogorovError;
use super::fft2::Fft2;
use super::grid::{laplacian_eigenvalue, spacing, wavenumber};
use crate::types::check_state;

/// Velocity `[2·N²]` from a stream function `ψ` `[N²]` at the grid points (see module docs).
fn velocity_from_stream_function(n: usize, psi: &[f64]) -> Vec<f64> {
    let h = spacing(n);
    let at = |i: usize, j: usize| psi[(i % n) * n + j % n];
    let mut velocity = vec![0.0; 2 * n * n];
    for i in 0..n {
        for j in 0..n {
            velocity[i * n + j] = (at(i + 1, j) - at(i, j)) / h;
            velocity[n * n + i * n + j] = -(at(i, j + 1) - at(i, j)) / h;
        }
    }
    velocity
}

/// The staggered velocity `[2·N²]` whose discrete curl is `ω − mean(ω)` exactly (to round-off)
/// and whose discrete divergence is zero: `ψ` solves the 5-point Poisson equation `−Δ_h ψ = ω`
/// (mean mode dropped) by FFT.
pub fn velocity_from_vorticity(n: usize, vorticity: &[f64]) -> Result<Vec<f64>, KolmogorovError> {
    let n = check_resolution(n)?;
    check_state(vorticity, n * n)?;
    let fft = Fft2::new(n);
    let mut spectrum = fft.forward_real(vorticity);
    for (m, z) in spectrum.iter_mut().enumerate() {
        let lambda = laplacian_eigenvalue(wavenumber(m / n, n), wavenumber(m % n, n), n);
        *z = if m == 0 {
            Complex64::new(0.0, 0.0)
        } else {
            -*z / lambda
        };
    }
    Ok(velocity_from_stream_function(
        n,
        &fft.inverse_real(&spectrum),
    ))
}

/// The discrete curl `[N²]` at the grid points of a staggered velocity `[2·N²]`.
pub fn vorticity_from_velocity(n: usize, velocity: &[f64]) -> Result<Vec<f64>, KolmogorovError> {
    let n = check_resolution(n)?;
    check_state(velocity, 2 * n * n)?;
    let h = spacing(n);
    let (u, v) = velocity.split_at(n * n);
    let before = |i: usize| (i + n - 1) % n;
    Ok((0..n * n)
        .map(|index| {
            let (i, j) = (index / n, index % n);
            (v[index] - v[i * n + before(j)]) / h - (u[index] - u[before(i) * n + j]) / h
        })
        .collect())
}

/// The discrete divergence `[N²]` at the cell centres of a staggered velocity `[2·N²]`.
pub fn divergence(n: usize, velocity: &[f64]) -> Result<Vec<f64>, KolmogorovError> {
    let n = check_resolution(n)?;
    check_state(velocity, 2 * n * n)?;
    let h = spacing(n);
    let (u, v) = velocity.split_at(n * n);
    let after = |i: usize| (i + 1) % n;
    Ok((0..n * n)
        .map(|index| {
            let (i, j) = (index / n, index % n);
            (u[i * n + after(j)] - u[index]) / h + (v[after(i) * n + j] - v[index]) / h
        })
        .collect())
}

/// The ground truth's state on the coarse grid: a fine vorticity field `[n_fine²]` as the coarse
/// staggered velocity `[2·n_coarse²]`.
///
/// The fine spectrum is truncated to the coarse modes `|k_x|, |k_y| < n_coarse/2` (the coarse
/// Nyquist modes are dropped: their face values would not be real), giving the band-limited
/// stream function `ψ = Σ ω̂/|k|² e^{i k·x}` exactly. Its values at the coarse grid points are
/// then differenced as in [`velocity_from_vorticity`] — in Fourier space the phase-shift
/// multipliers `(e^{i k_y h} − 1)/h` and `−(e^{i k_x h} − 1)/h` — which makes `u` and `v` the
/// *face averages* of the truncated continuous velocity (`u[i][j] = (1/h)∫ u(x_j, y) dy` over
/// `[y_i, y_i + h]`, likewise `v`).
///
/// Why this choice: face averages are the fluxes through the cell faces, so the result is
/// exactly discretely divergence-free on the coarse MAC grid (point values at the face centres,
/// `û·e^{i k_y h/2}`, differ from them by `O(h²)` and are not), it is what the finite-volume
/// coarse solver's unknowns mean, and it is exact for fields with only coarse modes (no
/// interpolation error). Spectral truncation is the L²-best coarse approximation of the truth
/// and involves no filter parameter.
pub fn coarse_from_fine(
    fine_vorticity: &[f64],
    n_fine: usize,
    n_coarse: usize,
) -> Result<Vec<f64>, KolmogorovError> {
    let n_fine = check_resolution(n_fine)?;
    let n_coarse = check_resolution(n_coarse)?;
    if n_coarse > n_fine {
        return Err(KolmogorovError::CoarserThanFine {
            fine: n_fine,
            coarse: n_coarse,
        });
    }
    check_state(fine_vorticity, n_fine * n_fine)?;
    let fine = Fft2::new(n_fine).forward_real(fine_vorticity);
    let coarse = Fft2::new(n_coarse);
    let h = spacing(n_coarse);
    let limit = (n_coarse / 2) as f64;
    let index = |k: f64| {
        if k < 0.0 {
            (k + n_fine as f64) as usize
        } else {
            k as usize
        }
    };
    // Fine coefficients are unnormalised on n_fine²; the coarse inverse divides by n_coarse².
    let scale = (n_coarse * n_coarse) as f64 / (n_fine * n_fine) as f64;
    let mut u_hat = vec![Complex64::new(0.0, 0.0); n_coarse * n_coarse];
    let mut v_hat = u_hat.clone();
    for m in 0..n_coarse * n_coarse {
        let (ky, kx) = (
            wavenumber(m / n_coarse, n_coarse),
            wavenumber(m % n_coarse, n_coarse),
        );
        let k2 = kx * kx + ky * ky;
        if k2 == 0.0 || kx.abs() >= limit || ky.abs() >= limit {
            continue;
        }
        let psi = fine[index(ky) * n_fine + index(kx)] * (scale / k2);
        let shift = |k: f64| (Complex64::new(0.0, k * h).exp() - 1.0) / h;
        u_hat[m] = psi * shift(ky);
        v_hat[m] = -psi * shift(kx);
    }
    let mut velocity = coarse.inverse_real(&u_hat);
    velocity.extend(coarse.inverse_real(&v_hat));
    Ok(velocity)
}

/// The official data path's down-sampling quirk: the fine staggered velocity
/// ([`velocity_from_vorticity`] at `n_fine`) point-sampled by linear interpolation at the coarse
/// face centres (`u` at `(x_j, y_i + H/2)`, `v` at `(x_j + H/2, y_i)`, `H = 2π/n_coarse`), as the
/// paper's code resamples its 128² PISO frames. Not exactly divergence-free on the coarse grid
/// (unlike [`coarse_from_fine`]); `n_fine` a multiple of `n_coarse`.
pub fn coarse_point_sampled(
    fine_vorticity: &[f64],
    n_fine: usize,
    n_coarse: usize,
) -> Result<Vec<f64>, KolmogorovError> {
    let n_coarse = check_resolution(n_coarse)?;
    if n_coarse > n_fine || !n_fine.is_multiple_of(n_coarse) {
        return Err(KolmogorovError::CoarserThanFine {
            fine: n_fine,
            coarse: n_coarse,
        });
    }
    let fine = velocity_from_vorticity(n_fine, fine_vorticity)?;
    let (u, v) = fine.split_at(n_fine * n_fine);
    let r = (n_fine / n_coarse) as f64;
    // Fine index coordinate of the staggered offset: (c + ½)·r − ½ along the staggered axis.
    let lerp = |field: &[f64], row: f64, column: f64| {
        let (r0, c0) = (row.floor(), column.floor());
        let (fr, fc) = (row - r0, column - c0);
        let at = |i: f64, j: f64| {
            let (i, j) = (i as usize % n_fine, j as usize % n_fine);
            field[i * n_fine + j]
        };
        (1.0 - fr) * ((1.0 - fc) * at(r0, c0) + fc * at(r0, c0 + 1.0))
            + fr * ((1.0 - fc) * at(r0 + 1.0, c0) + fc * at(r0 + 1.0, c0 + 1.0))
    };
    let mut out = vec![0.0; 2 * n_coarse * n_coarse];
    for i in 0..n_coarse {
        for j in 0..n_coarse {
            let (row, column) = (i as f64 * r, j as f64 * r);
            let half = r / 2.0 - 0.5;
            out[i * n_coarse + j] = lerp(u, row + half, column);
            out[n_coarse * n_coarse + i * n_coarse + j] = lerp(v, row, column + half);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::grid::{mean, sample};
    use crate::kolmogorov::initial::random_vorticity;

    fn max_abs(values: impl IntoIterator<Item = f64>) -> f64 {
        values.into_iter().map(f64::abs).fold(0.0, f64::max)
    }

    #[test]
    fn curl_of_velocity_from_vorticity_is_the_mean_free_vorticity() {
        let n = 16;
        let mut omega = random_vorticity(n, 11, 7, 3.0).expect("ic");
        for (index, w) in omega.iter_mut().enumerate() {
            *w += 0.7 + 0.3 * ((index * 7919) % 13) as f64; // a mean and grid-scale noise
        }
        let velocity = velocity_from_vorticity(n, &omega).expect("velocity");
        let curl = vorticity_from_velocity(n, &velocity).expect("curl");
        let m = mean(&omega);
        let error = max_abs(curl.iter().zip(&omega).map(|(c, w)| c - (w - m)));
        eprintln!("curl(velocity_from_vorticity(ω)) − (ω − mean): {error:.2e}");
        assert!(error < 1e-12 * max_abs(omega.iter().copied()), "{error:e}");
        let div = max_abs(divergence(n, &velocity).expect("div"));
        assert!(div < 1e-12 * max_abs(velocity.iter().copied()), "{div:e}");
    }

    /// `ψ = sin(x)·cos(2y) + 0.5·cos(3x + 1)·sin(y) − 0.2·sin(2x − 3y)`, its vorticity
    /// `ω = −Δψ` and its exact face averages (differences of `ψ` at the coarse grid points).
    fn low_mode_field(n_fine: usize, n_coarse: usize) -> (Vec<f64>, Vec<f64>) {
        let psi = |x: f64, y: f64| {
            x.sin() * (2.0 * y).cos() + 0.5 * (3.0 * x + 1.0).cos() * y.sin()
                - 0.2 * (2.0 * x - 3.0 * y).sin()
        };
        let omega = sample(n_fine, |x, y| {
            5.0 * x.sin() * (2.0 * y).cos() + 5.0 * (3.0 * x + 1.0).cos() * y.sin()
                - 2.6 * (2.0 * x - 3.0 * y).sin()
        });
        let h = spacing(n_coarse);
        let u = sample(n_coarse, |x, y| (psi(x, y + h) - psi(x, y)) / h);
        let v = sample(n_coarse, |x, y| -(psi(x + h, y) - psi(x, y)) / h);
        (omega, [u, v].concat())
    }

    #[test]
    fn coarse_from_fine_is_exact_for_low_modes() {
        for (n_fine, n_coarse) in [(64, 16), (32, 32), (128, 8)] {
            let (omega, want) = low_mode_field(n_fine, n_coarse);
            let got = coarse_from_fine(&omega, n_fine, n_coarse).expect("down-sample");
            let error = max_abs(got.iter().zip(&want).map(|(a, b)| a - b));
            eprintln!("coarse_from_fine {n_fine}→{n_coarse}: max error {error:.2e}");
            assert!(error < 1e-12, "{n_fine}→{n_coarse}: {error:e}");
            let div = max_abs(divergence(n_coarse, &got).expect("div"));
            assert!(div < 1e-12, "{div:e}");
        }
    }

    #[test]
    fn point_sampling_is_close_to_face_averages_for_smooth_fields() {
        let (omega, want) = low_mode_field(128, 32);
        let got = coarse_point_sampled(&omega, 128, 32).expect("down-sample");
        let error = max_abs(got.iter().zip(&want).map(|(a, b)| a - b)) / max_abs(want.clone());
        eprintln!("point-sampled vs face averages 128→32: relative max difference {error:.2e}");
        // Face average vs point value: O(H²) (H = 0.196: ≈ 1e-2 for wavenumber 3).
        assert!(error > 1e-5 && error < 5e-2, "{error:e}");
        assert!(coarse_point_sampled(&omega, 128, 48).is_err());
    }

    #[test]
    fn coarse_from_fine_drops_the_fine_modes() {
        // A mode above the coarse Nyquist contributes nothing.
        let omega = sample(64, |x, y| (12.0 * x).cos() * (3.0 * y).sin());
        let got = coarse_from_fine(&omega, 64, 16).expect("down-sample");
        assert!(max_abs(got) < 1e-12);
        assert!(matches!(
            coarse_from_fine(&omega, 64, 128),
            Err(KolmogorovError::CoarserThanFine { .. })
        ));
        assert!(coarse_from_fine(&omega[1..], 64, 16).is_err());
    }
}
