//! Spectral operators as real matrices and their tensors, for every spectral solver written as
//! matmuls: the circulant matrix of a Fourier multiplier, its transpose, the upload of a matrix
//! at a precision and the synchronous readback of row states (tests and the native CLI).

use burn::tensor::{Device, Tensor, TensorData};
use num_complex::Complex64;
use rustfft::FftPlanner;

use super::types::Precision;

/// The real matrix of `u ↦ Re IFFT(multiplier ⊙ FFT(u))`, row-major `[N, N]` (acts on columns:
/// `u'_r = Σ_c M[r][c] u_c`).
pub fn real_operator(multiplier: &[Complex64]) -> Vec<f64> {
    let n = multiplier.len();
    let mut kernel = multiplier.to_vec();
    FftPlanner::<f64>::new()
        .plan_fft_inverse(n)
        .process(&mut kernel);
    let g: Vec<f64> = kernel.iter().map(|z| z.re / n as f64).collect();
    let mut matrix = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            matrix[r * n + c] = g[(r + n - c) % n];
        }
    }
    matrix
}

/// Transposes a row-major `[N, N]` matrix (for row-vector batches `[batch, N] · Mᵀ`).
pub fn transpose(matrix: &[f64], n: usize) -> Vec<f64> {
    let mut out = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            out[c * n + r] = matrix[r * n + c];
        }
    }
    out
}

/// A `[rows, cols]` float tensor of `precision` from row-major f64 values.
pub fn matrix_tensor(
    values: Vec<f64>,
    shape: [usize; 2],
    device: &Device,
    precision: Precision,
) -> Tensor<2> {
    Tensor::<2>::from_data(TensorData::new(values, shape), (device, precision.dtype()))
}

/// A `[rows.len(), cols]` state tensor of `precision` from f64 rows of `cols` values each.
pub fn rows_tensor(
    rows: &[Vec<f64>],
    cols: usize,
    device: &Device,
    precision: Precision,
) -> Tensor<2> {
    let values: Vec<f64> = rows.iter().flatten().copied().collect();
    matrix_tensor(values, [rows.len(), cols], device, precision)
}

/// Reads a `[rows, N]` tensor back synchronously (tests and the native CLI only) as f64 rows;
/// the error in words.
pub fn read_rows(tensor: Tensor<2>) -> Result<Vec<Vec<f64>>, String> {
    let [_, cols] = tensor.dims();
    let data = tensor.try_into_data().map_err(|err| format!("{err:?}"))?;
    let values = data
        .convert::<f64>()
        .try_into_vec::<f64>()
        .map_err(|err| format!("{err:?}"))?;
    Ok(values.chunks(cols.max(1)).map(<[f64]>::to_vec).collect())
}
