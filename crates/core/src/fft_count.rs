//! The standard FLOP count of a complex FFT, `5·n·log₂n`, for the data-cost estimates of the
//! spectral ground-truth solvers (each system's `data_cost.rs`).

/// Counted FLOPs of one complex FFT of `points` values.
pub fn complex_fft_flops(points: usize) -> f64 {
    let n = points as f64;
    5.0 * n * n.log2().max(1.0)
}
