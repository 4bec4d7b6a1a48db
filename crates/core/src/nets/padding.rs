//! Periodic boundary helpers: circular padding and circular shifts by slice + concatenation
//! (burn has no circular padding mode). Both are plain tensor ops, so gradients flow through.

use burn::tensor::Tensor;

/// Pads the last axis of `x` (`[batch, channels, N]`) periodically by `pad` on each side:
/// `[x[N−pad..N], x, x[0..pad]]` → `[batch, channels, N + 2·pad]`.
///
/// `pad > N` wraps around repeatedly (as a periodic extension). Panics if `N = 0` and `pad > 0`.
pub fn circular_pad(x: Tensor<3>, pad: usize) -> Tensor<3> {
    circular_pad_axis(x, pad, 2)
}

/// Pads axis `dim` of `x` periodically by `pad` on each side (`N → N + 2·pad` along `dim`);
/// `pad > N` wraps around repeatedly. Panics if that axis is empty and `pad > 0`.
pub fn circular_pad_axis<const D: usize>(x: Tensor<D>, pad: usize, dim: usize) -> Tensor<D> {
    if pad == 0 {
        return x;
    }
    let n = x.dims()[dim];
    assert!(n > 0, "circular_pad: cannot pad an empty axis");
    let (full, rest) = (pad / n, pad % n);
    let mut parts = Vec::with_capacity(2 * full + 3);
    if rest > 0 {
        parts.push(x.clone().narrow(dim, n - rest, rest));
    }
    parts.extend(std::iter::repeat_n(x.clone(), 2 * full + 1));
    if rest > 0 {
        parts.push(x.narrow(dim, 0, rest));
    }
    Tensor::cat(parts, dim)
}

/// Rolls `x` periodically along `dim`: `out[.., i, ..] = x[.., (i − shift) mod N, ..]`
/// (positive `shift` moves values towards higher indices, like `numpy.roll`). Shape unchanged.
pub fn circular_shift<const D: usize>(x: Tensor<D>, shift: isize, dim: usize) -> Tensor<D> {
    let n = x.dims()[dim];
    if n == 0 {
        return x;
    }
    let s = shift.rem_euclid(n as isize) as usize;
    if s == 0 {
        return x;
    }
    let tail = x.clone().narrow(dim, n - s, s);
    let head = x.narrow(dim, 0, n - s);
    Tensor::cat(vec![tail, head], dim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{cpu, cpu_autodiff};
    use burn::tensor::module::conv1d;
    use burn::tensor::ops::ConvOptions;
    use burn::tensor::{Device, TensorData};

    use crate::nets::test_values as values;

    fn tensor3(values: Vec<f32>, shape: [usize; 3], device: &Device) -> Tensor<3> {
        Tensor::<3>::from_data(TensorData::new(values, shape), device)
    }

    #[test]
    fn pads_by_wrap_around() {
        let device = cpu();
        let x = tensor3(
            vec![1.0, 2.0, 3.0, 4.0, 10.0, 20.0, 30.0, 40.0],
            [1, 2, 4],
            &device,
        );
        let padded = circular_pad(x.clone(), 1);
        assert_eq!(padded.dims(), [1, 2, 6]);
        assert_eq!(
            values(padded),
            vec![4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 40.0, 10.0, 20.0, 30.0, 40.0, 10.0]
        );
        assert_eq!(
            values(circular_pad(x.clone(), 2)),
            vec![
                3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 30.0, 40.0, 10.0, 20.0, 30.0, 40.0, 10.0,
                20.0
            ]
        );
        assert_eq!(values(circular_pad(x.clone(), 0)), values(x.clone()));
        // pad > N wraps repeatedly: a periodic extension.
        let small = tensor3(vec![1.0, 2.0], [1, 1, 2], &device);
        assert_eq!(
            values(circular_pad(small, 3)),
            vec![2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0]
        );
    }

    #[test]
    fn shifts_like_numpy_roll() {
        let device = cpu();
        let x = tensor3(vec![1.0, 2.0, 3.0, 4.0], [1, 1, 4], &device);
        assert_eq!(
            values(circular_shift(x.clone(), 1, 2)),
            vec![4.0, 1.0, 2.0, 3.0]
        );
        assert_eq!(
            values(circular_shift(x.clone(), -1, 2)),
            vec![2.0, 3.0, 4.0, 1.0]
        );
        assert_eq!(
            values(circular_shift(x.clone(), 5, 2)),
            vec![4.0, 1.0, 2.0, 3.0]
        );
        assert_eq!(values(circular_shift(x.clone(), 4, 2)), values(x));
    }

    #[test]
    fn conv_of_padded_input_is_periodic_convolution() {
        let device = cpu();
        let (b, ci, co, n, k) = (2, 3, 2, 7, 3);
        let x: Vec<f32> = (0..b * ci * n)
            .map(|i| ((i * 37 % 11) as f32) - 5.0)
            .collect();
        let w: Vec<f32> = (0..co * ci * k)
            .map(|i| ((i * 13 % 7) as f32) * 0.25 - 0.7)
            .collect();
        let bias = [0.5f32, -1.5];
        let out = conv1d(
            circular_pad(tensor3(x.clone(), [b, ci, n], &device), 1),
            tensor3(w.clone(), [co, ci, k], &device),
            Some(Tensor::<1>::from_data(
                TensorData::new(bias.to_vec(), [co]),
                &device,
            )),
            ConvOptions::new([1], [0], [1], 1),
        );
        assert_eq!(out.dims(), [b, co, n]);
        let got = values(out);
        for bi in 0..b {
            for o in 0..co {
                for i in 0..n {
                    let mut expected = bias[o];
                    for c in 0..ci {
                        for t in 0..k {
                            // Cross-correlation: tap t reads x[i + t − 1] periodically.
                            let j = (i + n + t - 1) % n;
                            expected += w[(o * ci + c) * k + t] * x[(bi * ci + c) * n + j];
                        }
                    }
                    let value = got[(bi * co + o) * n + i];
                    assert!((value - expected).abs() < 1e-4, "{value} vs {expected}");
                }
            }
        }
    }

    #[test]
    fn gradients_flow_through_padding_and_shift() {
        let device = cpu_autodiff();
        let x = tensor3((0..8).map(|i| i as f32).collect(), [1, 1, 8], &device).require_grad();
        // Sum of the padded tensor counts each element once plus once more per pad copy.
        let padded = circular_pad(x.clone(), 2);
        let weights = tensor3((0..12).map(|i| i as f32).collect(), [1, 1, 12], &device);
        let loss = (padded * weights).sum();
        let grads = loss.backward();
        let grad = values(x.grad(&grads).expect("gradient of x"));
        // padded = [x6, x7, x0..x7, x0, x1]; weights 0..11.
        assert_eq!(grad, vec![12.0, 14.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0]);

        let y = tensor3((0..4).map(|i| i as f32).collect(), [1, 1, 4], &device).require_grad();
        let weights = tensor3(vec![1.0, 2.0, 3.0, 4.0], [1, 1, 4], &device);
        let loss = (circular_shift(y.clone(), 1, 2) * weights).sum();
        let grads = loss.backward();
        // out[i] = y[i − 1]: d/dy[j] = w[j + 1].
        assert_eq!(
            values(y.grad(&grads).expect("gradient of y")),
            vec![2.0, 3.0, 4.0, 1.0]
        );
    }
}
