//! The grid layout of the 1-D convolving networks: `[C, N, B]` (channels first, batch
//! innermost), and the periodic stencil gathered in it by one `select` over cached indices, so
//! that a 3-tap periodic convolution is a single `[C_out, 3·C_in] × [3·C_in, N·B]` matmul.
//!
//! Networks convert once, at their input ([`to_grid`]) and output ([`from_grid`]); in between
//! every tensor is `[C, N, B]`, viewed as `[C, N·B]` for the matmuls.

use std::cell::RefCell;

use burn::tensor::{Device, Int, Tensor, TensorData};

/// Taps of every stencil: offsets `−1, 0, +1` (times the dilation).
pub const TAPS: usize = 3;

/// Index tensors kept at most (one per grid size, batch, dilation and device).
const CACHED: usize = 64;

/// A cached index tensor's shape.
struct Key {
    points: usize,
    batch: usize,
    dilation: usize,
    device: Device,
}

thread_local! {
    static INDICES: RefCell<Vec<(Key, Tensor<1, Int>)>> = const { RefCell::new(Vec::new()) };
}

/// Stacks the network inputs in the grid layout: `u: [B, N]`, `parameter: [B, 1]` →
/// `[2, N, B]` (channel 0 = u, channel 1 = the parameter broadcast over N).
pub fn to_grid(u: Tensor<2>, parameter: Tensor<2>) -> Tensor<3> {
    let [batch, n] = u.dims();
    let u = u.transpose().reshape([1, n, batch]);
    let s = parameter.reshape([1, 1, batch]).expand([1, n, batch]);
    Tensor::cat(vec![u, s], 0)
}

/// One channel in the grid layout back to states: `[1, N, B]` → `[B, N]`.
pub fn from_grid(x: Tensor<3>) -> Tensor<2> {
    let [_, n, batch] = x.dims();
    x.reshape([n, batch]).transpose()
}

/// The periodic taps of `x: [C, N, B]` as the right factor of a conv's matmul: `[3·C, N·B]`,
/// row `3c + t` holding channel `c` read at offset `(t − 1)·dilation` (periodically), column
/// `i·B + b` point `i` of sample `b`. One `select` (its backward one scatter-add).
pub fn periodic_taps(x: Tensor<3>, dilation: usize) -> Tensor<2> {
    let [channels, n, batch] = x.dims();
    let indices = tap_indices(n, batch, dilation, &x.device());
    x.reshape([channels, n * batch])
        .select(1, indices)
        .reshape([channels * TAPS, n * batch])
}

/// The `3·N·B` columns [`periodic_taps`] selects: entry `t·N·B + i·B + b` is
/// `((i + (t − 1)·dilation) mod N)·B + b`. Built once per shape and device on this thread.
pub fn tap_indices(n: usize, batch: usize, dilation: usize, device: &Device) -> Tensor<1, Int> {
    INDICES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let found = cache.iter().find(|(key, _)| {
            key.points == n
                && key.batch == batch
                && key.dilation == dilation
                && key.device == *device
        });
        if let Some((_, indices)) = found {
            return indices.clone();
        }
        let indices = build_indices(n, batch, dilation, device);
        if cache.len() >= CACHED {
            cache.clear();
        }
        cache.push((
            Key {
                points: n,
                batch,
                dilation,
                device: device.clone(),
            },
            indices.clone(),
        ));
        indices
    })
}

fn build_indices(n: usize, batch: usize, dilation: usize, device: &Device) -> Tensor<1, Int> {
    let (n_i, d) = (n as i64, dilation as i64);
    let values: Vec<i64> = (0..TAPS as i64)
        .flat_map(|tap| {
            (0..n_i).flat_map(move |i| {
                let source = (i + (tap - 1) * d).rem_euclid(n_i);
                (0..batch as i64).map(move |b| source * batch as i64 + b)
            })
        })
        .collect();
    Tensor::<1, Int>::from_data(TensorData::new(values, [TAPS * n * batch]), device)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu;
    use crate::nets::test_values as values;

    #[test]
    fn grid_round_trip_and_taps_by_hand() {
        let device = cpu();
        // B = 2 samples of N = 4 points.
        let u = Tensor::<2>::from_data(
            TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0, 10.0, 20.0, 30.0, 40.0], [2, 4]),
            &device,
        );
        let s = Tensor::<2>::from_data(TensorData::new(vec![0.5f32, 0.25], [2, 1]), &device);
        let grid = to_grid(u.clone(), s);
        assert_eq!(grid.dims(), [2, 4, 2]);
        assert_eq!(
            values(grid.clone().narrow(0, 1, 1)),
            vec![0.5, 0.25, 0.5, 0.25, 0.5, 0.25, 0.5, 0.25]
        );
        assert_eq!(values(from_grid(grid.clone().narrow(0, 0, 1))), values(u));
        let taps = periodic_taps(grid.narrow(0, 0, 1), 1);
        assert_eq!(taps.dims(), [3, 8]);
        assert_eq!(
            values(taps),
            vec![
                4.0, 40.0, 1.0, 10.0, 2.0, 20.0, 3.0, 30.0, // offset −1
                1.0, 10.0, 2.0, 20.0, 3.0, 30.0, 4.0, 40.0, // offset 0
                2.0, 20.0, 3.0, 30.0, 4.0, 40.0, 1.0, 10.0, // offset +1
            ]
        );
    }
}
