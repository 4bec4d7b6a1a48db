//! Matrix products as one op of burn's backend extension ([`CountedOps`]), so a profile can
//! count the gemm calls of a training iteration, forward and backward: on the CPU backend
//! (burn-flex) every product is `Flex::float_matmul`, which makes one `gemm::gemm` call per
//! matrix of the broadcast batch (one for 2-D operands; burn-flex 0.22.1, `ops/matmul.rs`), and
//! this module adds that number to a per-thread counter ([`gemm_calls`]). On autodiff devices
//! the op is one node whose backward makes its two products through the same counted op. The
//! values and gradients are burn's own matmul's, bit for bit (tests). The cubecl backends run
//! the default body, burn's matmul, uncounted. The fused ops' products on slices
//! ([`stacked_product`]) make the same gemm calls and count them too.

use std::cell::Cell;

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{binary, Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::ops::FloatTensorOps;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, Dispatch, Flex, TensorMetadata};
use burn::tensor::Tensor;

thread_local! {
    static GEMM_CALLS: Cell<u64> = const { Cell::new(0) };
}

/// gemm calls made by this thread's matrix products on the CPU backend so far (this module's
/// [`matmul`], its backward, and the fused residual block's products).
pub fn gemm_calls() -> u64 {
    GEMM_CALLS.with(Cell::get)
}

/// `lhs · rhs` on burn-flex, counted: what every counted product ends in.
pub fn flex_matmul(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    let calls = batch_count(&lhs.shape().to_vec(), &rhs.shape().to_vec());
    GEMM_CALLS.with(|c| c.set(c.get() + calls));
    Flex::float_matmul(lhs, rhs)
}

/// A row-major `[rows, columns]` matrix of f32 values, read as itself or as its transpose (by
/// strides: no copy).
#[derive(Clone, Copy, Debug)]
pub struct Matrix<'a> {
    values: &'a [f32],
    rows: usize,
    columns: usize,
    transposed: bool,
}

impl<'a> Matrix<'a> {
    /// `values` hold `K` stacked `[rows, columns]` matrices (`K ≥ 1`), row-major.
    pub fn new(values: &'a [f32], rows: usize, columns: usize) -> Self {
        Self {
            values,
            rows,
            columns,
            transposed: false,
        }
    }

    /// Each matrix's transpose, `[columns, rows]`.
    pub fn t(self) -> Self {
        Self {
            transposed: !self.transposed,
            ..self
        }
    }

    /// `(rows, columns)` as read.
    fn dims(&self) -> (usize, usize) {
        if self.transposed {
            (self.columns, self.rows)
        } else {
            (self.rows, self.columns)
        }
    }

    /// `(row stride, column stride)` as read, in elements.
    fn strides(&self) -> (isize, isize) {
        let row = self.columns as isize;
        if self.transposed {
            (1, row)
        } else {
            (row, 1)
        }
    }
}

/// `K` products `out[k] = lhs[k] · rhs[k]` of stacked matrices (`K` = `members`), each one
/// `gemm::gemm` call on one thread, counted: `[K, M, N]` row-major. The slice path of the fused
/// ops on burn-flex: the same gemm call as `Flex::float_matmul` makes, without its tensors (a
/// new burn-flex tensor copies its zeroed buffer once more to align it).
pub fn stacked_product(members: usize, lhs: Matrix<'_>, rhs: Matrix<'_>) -> Vec<f32> {
    let ((m, k), (k_rhs, n)) = (lhs.dims(), rhs.dims());
    assert_eq!(k, k_rhs, "inner dimensions of a product");
    assert_eq!(
        lhs.values.len(),
        members * m * k,
        "lhs holds {members} matrices"
    );
    assert_eq!(
        rhs.values.len(),
        members * k * n,
        "rhs holds {members} matrices"
    );
    let mut out = vec![0.0f32; members * m * n];
    let ((lhs_rs, lhs_cs), (rhs_rs, rhs_cs)) = (lhs.strides(), rhs.strides());
    for member in 0..members {
        let dst = &mut out[member * m * n..(member + 1) * m * n];
        let a = &lhs.values[member * m * k..(member + 1) * m * k];
        let b = &rhs.values[member * k * n..(member + 1) * k * n];
        // SAFETY: `dst`, `a` and `b` hold exactly the `m×n`, `m×k` and `k×n` values the
        // strides address (checked above); `read_dst` is false, so `dst` is only written.
        unsafe {
            gemm::gemm(
                m,
                n,
                k,
                dst.as_mut_ptr(),
                1,
                n as isize,
                false,
                a.as_ptr(),
                lhs_cs,
                lhs_rs,
                b.as_ptr(),
                rhs_cs,
                rhs_rs,
                0.0,
                1.0,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
    }
    GEMM_CALLS.with(|c| c.set(c.get() + members as u64));
    out
}

/// Matrices in the broadcast batch of `lhs: [.., M, K] · rhs: [.., K, N]` (1 for 2-D).
fn batch_count(lhs: &[usize], rhs: &[usize]) -> u64 {
    let batch = |dims: &[usize]| dims[..dims.len().saturating_sub(2)].to_vec();
    let (l, r) = (batch(lhs), batch(rhs));
    let rank = l.len().max(r.len());
    let at = |dims: &[usize], i: usize| (i + dims.len()).checked_sub(rank).map_or(1, |j| dims[j]);
    (0..rank).map(|i| at(&l, i).max(at(&r, i)) as u64).product()
}

/// `a · b` (burn's `Tensor::matmul`: batched over the leading dims, broadcasting size 1),
/// counted on the CPU backend.
pub fn matmul<const D: usize>(a: Tensor<D>, b: Tensor<D>) -> Tensor<D> {
    Tensor::from_dispatch(<Dispatch as CountedOps>::counted_matmul(
        a.into_dispatch(),
        b.into_dispatch(),
    ))
}

/// The counted matrix product. burn-flex counts; autodiff records one node whose backward
/// calls the inner backend's counted product; the cubecl backends (wgpu, WebGPU) take the
/// default body.
#[backend_extension(Flex, Cube: cfg(feature = "cube"), Autodiff)]
pub trait CountedOps: Backend {
    /// `lhs · rhs`, as `float_matmul`.
    fn counted_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_matmul(lhs, rhs)
    }
}

impl CountedOps for Flex {
    fn counted_matmul(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
        flex_matmul(lhs, rhs)
    }
}

#[cfg(feature = "cube")]
impl CountedOps for burn::backend::Cube {}

/// `grad` summed over the batch dims where `shape` has size 1 (broadcast in the forward).
fn unbroadcast<B: Backend>(mut grad: FloatTensor<B>, shape: &[usize]) -> FloatTensor<B> {
    let dims = grad.shape().to_vec();
    for (axis, (&had, &got)) in shape.iter().zip(&dims).enumerate() {
        if had == 1 && got != 1 {
            grad = B::float_sum_dim(grad, axis);
        }
    }
    grad
}

impl<B: CountedOps, C: CheckpointStrategy> CountedOps for Autodiff<B, C> {
    /// One node; backward `∂lhs = grad · rhsᵀ`, `∂rhs = lhsᵀ · grad` (each summed over the
    /// batch dims its operand broadcast), both through [`CountedOps::counted_matmul`].
    fn counted_matmul(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct MatmulBackward;

        impl<B: CountedOps> Backward<B, 2> for MatmulBackward {
            /// Both operands.
            type State = (FloatTensor<B>, FloatTensor<B>);

            fn backward(
                self,
                ops: Ops<Self::State, 2>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let (lhs, rhs) = ops.state;
                let (lhs_shape, rhs_shape) = (lhs.shape().to_vec(), rhs.shape().to_vec());
                binary::<B, _, _>(
                    ops.parents,
                    ops.node,
                    grads,
                    |grad| {
                        let product = B::counted_matmul(grad, B::float_transpose(rhs));
                        unbroadcast::<B>(product, &lhs_shape)
                    },
                    |grad| {
                        let product = B::counted_matmul(B::float_transpose(lhs), grad);
                        unbroadcast::<B>(product, &rhs_shape)
                    },
                );
            }
        }

        match MatmulBackward
            .prepare::<C>([lhs.node(), rhs.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let (l, r) = (lhs.primitive().clone(), rhs.primitive().clone());
                let output = B::counted_matmul(l.clone(), r.clone());
                prep.finish((l, r), output)
            }
            OpsKind::UnTracked(prep) => prep.finish(B::counted_matmul(
                lhs.into_primitive(),
                rhs.into_primitive(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{cpu, cpu_autodiff};
    use burn::tensor::{Device, TensorData};

    fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
        t.into_data()
            .convert::<f32>()
            .try_into_vec::<f32>()
            .expect("f32")
    }

    fn tensor<const D: usize>(shape: [usize; D], seed: f32, device: &Device) -> Tensor<D> {
        let n = shape.iter().product::<usize>();
        let v = (0..n).map(|i| (i as f32 * 0.73 + seed).sin()).collect();
        Tensor::from_data(TensorData::new(v, shape), device)
    }

    /// Value and both gradients equal burn's matmul bit for bit, 2-D, batched and broadcast;
    /// the gemm calls counted are one per matrix of the batch, forward and backward.
    #[test]
    fn counted_matmul_is_burns_matmul_and_counts_its_gemm_calls() {
        let device = cpu_autodiff();
        let cases: [([usize; 3], [usize; 3], u64); 3] = [
            ([1, 4, 5], [1, 5, 3], 1),
            ([6, 4, 5], [6, 5, 3], 6),
            ([6, 4, 5], [1, 5, 3], 6),
        ];
        for (a_shape, b_shape, batch) in cases {
            let grads_of = |counted: bool| {
                let a = tensor(a_shape, 0.1, &device).require_grad();
                let b = tensor(b_shape, 0.7, &device).require_grad();
                let before = gemm_calls();
                let y = if counted {
                    matmul(a.clone(), b.clone())
                } else {
                    a.clone().matmul(b.clone())
                };
                let weights = tensor(y.dims(), 0.3, &device);
                let grads = (y.clone() * weights).sum().backward();
                let calls = gemm_calls() - before;
                let ga = a.grad(&grads).expect("grad a");
                let gb = b.grad(&grads).expect("grad b");
                (values(y), values(ga), values(gb), calls)
            };
            let (y, ga, gb, calls) = grads_of(true);
            let (y0, ga0, gb0, _) = grads_of(false);
            assert_eq!(y, y0, "{a_shape:?} · {b_shape:?}");
            assert_eq!(ga, ga0, "{a_shape:?} · {b_shape:?}: ∂a");
            assert_eq!(gb, gb0, "{a_shape:?} · {b_shape:?}: ∂b");
            assert_eq!(calls, 3 * batch, "{a_shape:?} · {b_shape:?}");
        }
        // Without autodiff: the forward product only.
        let before = gemm_calls();
        let y = matmul(tensor([4, 5], 0.1, &cpu()), tensor([5, 3], 0.2, &cpu()));
        assert_eq!(gemm_calls() - before, 1);
        assert_eq!(y.dims(), [4, 3]);
    }
}
