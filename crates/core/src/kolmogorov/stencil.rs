//! PISO's linear operators as one op: the variable-coefficient periodic 5-point stencil
//! `y = (r + S x) ⊙ q`, `(S x)[c,i,j] = Σ_k s[c,k,i,j] · x[c, i + di_k, j + dj_k]`, on
//! `x, r, q: [B, 2, N, N]` and the coefficients `s: [B, 2·5, N, N]` (channel `5c + k`, the taps
//! `k` of [`TAPS`]). One Jacobi sweep of the predictor is one call (`r` the right-hand side,
//! `q` the inverse diagonal), the second corrector's `H x` another (`r = 0`, `q = 1`).
//!
//! On the CPU backend (burn-flex, f32, any [`Fusion`] but `Composite`) a hand-written forward
//! and backward, one autodiff node ([`StencilOps`]): the backward gives `∂r = g ⊙ q`,
//! `∂x = Sᵀ(g ⊙ q)`, `∂s_k = (g ⊙ q) ⊙ shift_k(x)`, `∂q = g ⊙ (r + S x)`. Everywhere else (wgpu,
//! WebGPU, f64) the composite of burn ops, [`composite_stencil`]: the same values to f32
//! round-off.

use std::borrow::Cow;

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, DType, Dispatch, Flex, TensorMetadata};
use burn::tensor::{Device, Tensor, TensorData};

use super::coarse::at;
use crate::nets::fused::node::{hand_written_node, record};
use crate::nets::fusion::{fusion, Fusion};

/// The stencil's taps `(di, dj)`: centre, east (`j + 1`), west, north (`i + 1`), south.
pub const TAPS: [(i64, i64); 5] = [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)];

/// `(r + S x) ⊙ q` `[B, 2, N, N]` (see the module docs): the fused op where it applies, else
/// the composite.
pub fn stencil(x: Tensor<4>, s: Tensor<4>, r: Tensor<4>, q: Tensor<4>) -> Tensor<4> {
    let fused = fusion() != Fusion::Composite
        && x.device() == Device::flex()
        && [&x, &s, &r, &q].iter().all(|t| t.dtype() == DType::F32);
    if !fused {
        return composite_stencil(x, s, r, q);
    }
    #[cfg(test)]
    FUSED_CALLS.with(|calls| calls.set(calls.get() + 1));
    Tensor::from_dispatch(<Dispatch as StencilOps>::piso_stencil(
        x.into_dispatch(),
        s.into_dispatch(),
        r.into_dispatch(),
        q.into_dispatch(),
    ))
}

#[cfg(test)]
thread_local! {
    /// Fused stencils run on this thread (the tests check the fused path is taken).
    pub(super) static FUSED_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The same in burn ops (rolls, products, sums): every backend, autodiff by burn.
pub fn composite_stencil(x: Tensor<4>, s: Tensor<4>, r: Tensor<4>, q: Tensor<4>) -> Tensor<4> {
    let [b, _, n, _] = x.dims();
    let s = s.reshape([b, 2, TAPS.len(), n * n]);
    let mut sum = r;
    for (k, &(di, dj)) in TAPS.iter().enumerate() {
        let coefficient = s.clone().narrow(2, k, 1).reshape([b, 2, n, n]);
        sum = sum + coefficient * at(x.clone(), di, dj);
    }
    sum * q
}

/// The stencil as an op of burn's backend extension.
#[backend_extension(Flex, Autodiff)]
pub trait StencilOps: Backend {
    /// `(r + S x) ⊙ q`: `x, r, q: [B, 2, N, N]`, `s: [B, 10, N, N]` → `[B, 2, N, N]`.
    fn piso_stencil(
        x: FloatTensor<Self>,
        s: FloatTensor<Self>,
        r: FloatTensor<Self>,
        q: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
}

/// What training needs of a backend for [`StencilOps`].
pub trait StencilTraining: Backend {
    /// Saved by the forward for the backward.
    type StencilState: Clone + Send + std::fmt::Debug + 'static;

    /// The output and the state.
    fn stencil_forward(inputs: [FloatTensor<Self>; 4]) -> (FloatTensor<Self>, Self::StencilState);

    /// The gradients `[x, s, r, q]` from the output's.
    fn stencil_backward(
        state: Self::StencilState,
        grad: FloatTensor<Self>,
    ) -> [FloatTensor<Self>; 4];
}

/// burn-flex's saved state: `x`, `s`, `q` (shared, not copied) and `z = r + S x`.
#[derive(Clone, Debug)]
pub struct FlexStencilState {
    x: FlexTensor,
    s: FlexTensor,
    q: FlexTensor,
    z: Vec<f32>,
    shape: [usize; 4],
}

impl StencilOps for Flex {
    fn piso_stencil(x: FlexTensor, s: FlexTensor, r: FlexTensor, q: FlexTensor) -> FlexTensor {
        Flex::stencil_forward([x, s, r, q]).0
    }
}

impl StencilTraining for Flex {
    type StencilState = FlexStencilState;

    fn stencil_forward([x, s, r, q]: [FlexTensor; 4]) -> (FlexTensor, FlexStencilState) {
        let shape = dims4(&x);
        let mut z = floats(&r).into_owned();
        apply(&mut z, &floats(&x), &floats(&s), shape);
        let y: Vec<f32> = z
            .iter()
            .zip(floats(&q).iter())
            .map(|(z, q)| z * q)
            .collect();
        let state = FlexStencilState { x, s, q, z, shape };
        (tensor(y, shape.to_vec()), state)
    }

    fn stencil_backward(state: FlexStencilState, grad: FlexTensor) -> [FlexTensor; 4] {
        let shape = state.shape;
        let [b, c, n, _] = shape;
        let g = floats(&grad);
        let lambda: Vec<f32> = g
            .iter()
            .zip(floats(&state.q).iter())
            .map(|(g, q)| g * q)
            .collect();
        let dq: Vec<f32> = g.iter().zip(&state.z).map(|(g, z)| g * z).collect();
        let mut dx = vec![0.0f32; lambda.len()];
        apply_transpose(&mut dx, &lambda, &floats(&state.s), shape);
        let ds = coefficient_gradient(&lambda, &floats(&state.x), shape);
        [
            tensor(dx, shape.to_vec()),
            tensor(ds, vec![b, c * TAPS.len(), n, n]),
            tensor(lambda, shape.to_vec()),
            tensor(dq, shape.to_vec()),
        ]
    }
}

/// The periodic neighbour `i + d` on `0..n` (`|d| ≤ 1`).
fn wrap(i: usize, d: i64, n: usize) -> usize {
    (i + n).wrapping_add_signed(d as isize) % n
}

/// `z += S x` on `[B, C, N, N]` (coefficients `[B, 5C, N, N]`).
fn apply(z: &mut [f32], x: &[f32], s: &[f32], [b, c, n, _]: [usize; 4]) {
    let plane = n * n;
    for field in 0..b * c {
        let (z, x) = (
            &mut z[field * plane..(field + 1) * plane],
            &x[field * plane..(field + 1) * plane],
        );
        let s = &s[field * TAPS.len() * plane..(field + 1) * TAPS.len() * plane];
        for (k, &(di, dj)) in TAPS.iter().enumerate() {
            let s = &s[k * plane..(k + 1) * plane];
            for i in 0..n {
                let source = &x[wrap(i, di, n) * n..][..n];
                let (z, s) = (&mut z[i * n..][..n], &s[i * n..][..n]);
                shifted_product(z, s, source, dj, n);
            }
        }
    }
}

/// `z[j] += s[j] · source[j + dj]` (periodic in `j`, `|dj| ≤ 1`).
fn shifted_product(z: &mut [f32], s: &[f32], source: &[f32], dj: i64, n: usize) {
    match dj {
        0 => z
            .iter_mut()
            .zip(s)
            .zip(source)
            .for_each(|((z, s), x)| *z += s * x),
        1 => {
            for ((z, s), x) in z[..n - 1].iter_mut().zip(&s[..n - 1]).zip(&source[1..]) {
                *z += s * x;
            }
            z[n - 1] += s[n - 1] * source[0];
        }
        _ => {
            for ((z, s), x) in z[1..].iter_mut().zip(&s[1..]).zip(&source[..n - 1]) {
                *z += s * x;
            }
            z[0] += s[0] * source[n - 1];
        }
    }
}

/// `dx += Sᵀ λ`: `dx[p + shift_k] += s_k[p] · λ[p]`, each tap in order.
fn apply_transpose(dx: &mut [f32], lambda: &[f32], s: &[f32], [b, c, n, _]: [usize; 4]) {
    let plane = n * n;
    for field in 0..b * c {
        let dx = &mut dx[field * plane..(field + 1) * plane];
        let lambda = &lambda[field * plane..(field + 1) * plane];
        let s = &s[field * TAPS.len() * plane..(field + 1) * TAPS.len() * plane];
        for (k, &(di, dj)) in TAPS.iter().enumerate() {
            let s = &s[k * plane..(k + 1) * plane];
            for i in 0..n {
                let target = wrap(i, di, n) * n;
                let (l, s) = (&lambda[i * n..][..n], &s[i * n..][..n]);
                for j in 0..n {
                    dx[target + wrap(j, dj, n)] += s[j] * l[j];
                }
            }
        }
    }
}

/// `∂s_k = λ ⊙ shift_k(x)` `[B, 5C, N, N]`.
fn coefficient_gradient(lambda: &[f32], x: &[f32], [b, c, n, _]: [usize; 4]) -> Vec<f32> {
    let plane = n * n;
    let mut ds = vec![0.0f32; b * c * TAPS.len() * plane];
    for field in 0..b * c {
        let lambda = &lambda[field * plane..(field + 1) * plane];
        let x = &x[field * plane..(field + 1) * plane];
        for (k, &(di, dj)) in TAPS.iter().enumerate() {
            let ds = &mut ds[(field * TAPS.len() + k) * plane..][..plane];
            for i in 0..n {
                let source = &x[wrap(i, di, n) * n..][..n];
                let (ds, l) = (&mut ds[i * n..][..n], &lambda[i * n..][..n]);
                shifted_product(ds, l, source, dj, n);
            }
        }
    }
    ds
}

/// The shape of a `[B, C, N, N]` tensor.
fn dims4(t: &FlexTensor) -> [usize; 4] {
    let shape = t.shape().to_vec();
    assert_eq!(shape.len(), 4, "stencil: a [B, C, N, N] tensor");
    assert_eq!(shape[2], shape[3], "stencil: square fields");
    [shape[0], shape[1], shape[2], shape[3]]
}

/// A tensor's f32 values in row-major order, borrowed when contiguous.
fn floats(t: &FlexTensor) -> Cow<'_, [f32]> {
    match t.as_slice::<f32>() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(
            t.to_contiguous()
                .into_data()
                .try_into_vec::<f32>()
                .expect("f32 tensor"),
        ),
    }
}

fn tensor(values: Vec<f32>, shape: Vec<usize>) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(values, shape))
}

hand_written_node!(StencilNode: StencilTraining::stencil_backward(StencilState; 4));

impl<B: StencilOps + StencilTraining, C: CheckpointStrategy> StencilOps for Autodiff<B, C> {
    /// One node with four parents.
    fn piso_stencil(
        x: FloatTensor<Self>,
        s: FloatTensor<Self>,
        r: FloatTensor<Self>,
        q: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        record::<B, C, StencilNode, 4>([x, s, r, q], B::stencil_forward, |[x, s, r, q]| {
            B::piso_stencil(x, s, r, q)
        })
    }
}
