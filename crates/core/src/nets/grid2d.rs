//! The grid layout of the 2-D ResNet's fused path: `[C, H, W, B]` (channels first, batch
//! innermost; viewed as `[C, H·W·B]` for the products), and its 3×3 periodic stencil gathered
//! by hand on slices, so that a 3×3 periodic convolution is one
//! `[C_out, 9·C_in] × [9·C_in, H·W·B]` gemm.
//!
//! The network converts once, at its input ([`to_grid2d`]) and output ([`from_grid2d`]); in
//! between every tensor is `[C, H, W, B]`. Tap `(a, t)` (`a, t ∈ {0, 1, 2}`) reads the point at
//! offset `(a − 1, t − 1)` (rows, columns), periodically; its row in the tap matrix of channel
//! `c` is `9c + 3a + t`, the column of the weight `[C_out, C_in, 3, 3]` read row-major as
//! `[C_out, 9·C_in]`, so the weight needs no permutation.

use burn::tensor::Tensor;

/// Taps of the 3×3 stencil.
pub const TAPS_2D: usize = 9;

/// Stacks the 2-D ResNet's inputs in the grid layout: `state: [B, 3·N²]` (u, v, p, each
/// `N × N` row-major), `parameter: [B, 1]` → `[4, N, N, B]` (channel 3 the parameter broadcast
/// over the grid).
pub fn to_grid2d(state: Tensor<2>, parameter: Tensor<2>, n: usize) -> Tensor<4> {
    let [batch, _] = state.dims();
    let fields = state.transpose().reshape([3, n, n, batch]);
    let constant = parameter.reshape([1, 1, 1, batch]).expand([1, n, n, batch]);
    Tensor::cat(vec![fields, constant], 0)
}

/// Channels in the grid layout back to states: `[C, N, N, B]` → `[B, C·N²]`.
pub fn from_grid2d(x: Tensor<4>) -> Tensor<2> {
    let [channels, rows, columns, batch] = x.dims();
    x.reshape([channels * rows * columns, batch]).transpose()
}

/// The points a tap of index `tap` (0, 1, 2) reads ahead along an axis of `n` points:
/// `(tap − 1) mod n`.
fn tap_shift(tap: usize, n: usize) -> usize {
    (tap + n - 1) % n
}

/// Appends the taps of `x: [C, H, W, B]` to `out` as `[9·C, H·W·B]`: row `9c + 3a + t`, column
/// `(i·W + j)·B + b` holds `x[c, (i + a − 1) mod H, (j + t − 1) mod W, b]`. Each grid row of a
/// tap is a source row rotated by whole points: two contiguous copies.
pub(super) fn extend_taps2d(out: &mut Vec<f32>, x: &[f32], [c, h, w, b]: [usize; 4]) {
    let row = w * b;
    out.reserve(TAPS_2D * c * h * row);
    for channel in x.chunks_exact(h * row).take(c) {
        for a in 0..3 {
            for t in 0..3 {
                let split = tap_shift(t, w) * b;
                for i in 0..h {
                    let r = (i + tap_shift(a, h)) % h;
                    let src = &channel[r * row..(r + 1) * row];
                    out.extend_from_slice(&src[split..]);
                    out.extend_from_slice(&src[..split]);
                }
            }
        }
    }
}

/// The taps of `x: [C, H, W, B]` as `[9·C, H·W·B]` ([`extend_taps2d`]).
pub(super) fn taps2d(x: &[f32], dims: [usize; 4]) -> Vec<f32> {
    let mut out = Vec::new();
    extend_taps2d(&mut out, x, dims);
    out
}

/// The adjoint of [`taps2d`]: `d: [9·C, H·W·B]` → `[C, H·W·B]`, each tap's gradient added
/// back at the point it read (rows in order, so the sums' order is fixed).
pub(super) fn taps2d_adjoint(d: &[f32], [c, h, w, b]: [usize; 4]) -> Vec<f32> {
    let row = w * b;
    let mut out = vec![0.0f32; c * h * row];
    let mut rows = d.chunks_exact(row);
    for channel in out.chunks_exact_mut(h * row) {
        for a in 0..3 {
            for t in 0..3 {
                let split = tap_shift(t, w) * b;
                for i in 0..h {
                    let src = rows.next().expect("9·C·H rows of taps");
                    let r = (i + tap_shift(a, h)) % h;
                    let dst = &mut channel[r * row..(r + 1) * row];
                    let (head, tail) = src.split_at(row - split);
                    add_into(&mut dst[split..], head);
                    add_into(&mut dst[..split], tail);
                }
            }
        }
    }
    out
}

/// `dst += src`, element by element.
pub(super) fn add_into(dst: &mut [f32], src: &[f32]) {
    for (o, &v) in dst.iter_mut().zip(src) {
        *o += v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use crate::nets::test_values as values;
    use burn::tensor::TensorData;

    /// `[C, H, W, B]` = `[2, 3, 4, 2]` filled with distinct values.
    const DIMS: [usize; 4] = [2, 3, 4, 2];

    fn input() -> Vec<f32> {
        (0..DIMS.iter().product::<usize>())
            .map(|i| i as f32)
            .collect()
    }

    #[test]
    fn taps_read_the_periodic_neighbours() {
        let [_, h, w, b] = DIMS;
        let x = input();
        let taps = taps2d(&x, DIMS);
        assert_eq!(taps.len(), TAPS_2D * x.len());
        for (k, &got) in taps.iter().enumerate() {
            let (row, column) = (k / (h * w * b), k % (h * w * b));
            let (channel, a, t) = (row / 9, row % 9 / 3, row % 3);
            let (i, j, s) = (column / (w * b), column / b % w, column % b);
            let (r, q) = ((i + h + a - 1) % h, (j + w + t - 1) % w);
            assert_eq!(got, x[((channel * h + r) * w + q) * b + s], "row {row}");
        }
    }

    /// `⟨taps(x), d⟩ = ⟨x, adjoint(d)⟩` for integer-valued `x` and `d` (exact in f32).
    #[test]
    fn adjoint_is_the_transpose_of_the_taps() {
        let x = input();
        let d: Vec<f32> = (0..TAPS_2D * x.len())
            .map(|i| ((i * 7 % 13) as f32) - 6.0)
            .collect();
        let lhs: f32 = taps2d(&x, DIMS).iter().zip(&d).map(|(a, b)| a * b).sum();
        let rhs: f32 = x
            .iter()
            .zip(&taps2d_adjoint(&d, DIMS))
            .map(|(a, b)| a * b)
            .sum();
        assert_eq!(lhs, rhs);
    }

    #[test]
    fn grid_layout_round_trip() {
        let device = cpu();
        let (batch, n) = (2, 3);
        let state: Vec<f32> = (0..batch * 3 * n * n).map(|i| i as f32).collect();
        let u = Tensor::<2>::from_data(TensorData::new(state.clone(), [batch, 3 * n * n]), &device);
        let s = Tensor::<2>::from_data(TensorData::new(vec![0.5f32, 0.25], [batch, 1]), &device);
        let grid = to_grid2d(u, s, n);
        assert_eq!(grid.dims(), [4, n, n, batch]);
        let v = values(grid.clone());
        // Channel 1, point (2, 0), sample 1: state[1, 1·9 + 2·3 + 0].
        assert_eq!(
            v[((n + 2) * n) * batch + 1],
            state[3 * n * n + n * n + 2 * n]
        );
        assert_eq!(v[(3 * n * n + 4) * batch], 0.5);
        assert_eq!(v[(3 * n * n + 4) * batch + 1], 0.25);
        let back = values(from_grid2d(grid.narrow(0, 0, 3)));
        assert_eq!(back, state);
    }
}
