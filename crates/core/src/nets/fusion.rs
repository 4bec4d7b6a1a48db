//! Fused kernels through burn's backend extension ([`FusedOps`], `#[backend_extension]`):
//! LeakyReLU as one kernel forward and one backward on the CPU backend (burn-flex), one autodiff
//! node; the other backends (wgpu/WebGPU) run the trait's default bodies, plain burn ops.
//!
//! burn's own `leaky_relu` on an autodiff device is its composite default (a comparison, a
//! scaled copy and a `mask_where`: three kernels and two autodiff nodes forward; backward two
//! zero fills, two `mask_where`, a scaling and the sum of the two paths). [`leaky_relu`] here gives the same values and the same gradients, bit for bit on
//! the CPU: `x ≥ 0 ? x : slope·x` forward, `grad · (x < 0 ? slope : 1)` backward.
//! [`set_fusion`] chooses, per thread, how much is fused (tests, `bench train`).

use std::cell::Cell;

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{unary, Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::flex::FlexTensor;
use burn::backend::ops::ActivationOps;
use burn::backend::tensor::FloatTensor;
use burn::backend::{
    backend_extension, get_or_init_device_settings, Backend, DType, Dispatch, Flex, TensorMetadata,
};
use burn::tensor::{Element, Tensor, TensorData};

/// How much of the networks runs as fused ops (per thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// burn's composite ops only.
    Composite,
    /// LeakyReLU fused ([`leaky_relu`]).
    Activation,
    /// LeakyReLU, ResNet1D's residual block ([`crate::nets::fused::block`]), the dilated ResNet's and
    /// the U-Net's convolutions ([`crate::nets::fused::conv`]), the GCN's edge convolutions
    /// ([`crate::nets::fused::edge`]) and the 2-D ResNet's blocks and output convolution
    /// ([`crate::nets::fused::block2d`], [`crate::nets::fused::conv2d`]) fused: the default.
    Block,
}

impl Fusion {
    pub const ALL: [Fusion; 3] = [Fusion::Composite, Fusion::Activation, Fusion::Block];

    pub fn name(self) -> &'static str {
        match self {
            Fusion::Composite => "composite",
            Fusion::Activation => "fused activation",
            Fusion::Block => "fused block",
        }
    }
}

thread_local! {
    static FUSION: Cell<Fusion> = const { Cell::new(Fusion::Block) };
}

/// On this thread, run the networks with `fusion` from now on.
pub fn set_fusion(fusion: Fusion) {
    FUSION.with(|flag| flag.set(fusion));
}

/// How much this thread fuses ([`set_fusion`]; [`Fusion::Block`] unless set).
pub fn fusion() -> Fusion {
    FUSION.with(Cell::get)
}

/// LeakyReLU, `x ≥ 0 ? x : slope·x`, any shape: the fused op of [`FusedOps`] (one node on an
/// autodiff device), or burn's composite under [`Fusion::Composite`].
pub fn leaky_relu<const D: usize>(x: Tensor<D>, slope: f64) -> Tensor<D> {
    if fusion() == Fusion::Composite {
        return burn::tensor::activation::leaky_relu(x, slope);
    }
    Tensor::from_dispatch(<Dispatch as FusedOps>::fused_leaky_relu(
        x.into_dispatch(),
        slope,
    ))
}

/// The networks' fused operations. burn-flex implements them by hand; the cubecl backends
/// (wgpu, WebGPU) take the default bodies; autodiff records each as one node whose backward
/// calls the inner backend's `*_backward` op.
#[backend_extension(Flex, Cube: cfg(feature = "cube"), Autodiff)]
pub trait FusedOps: Backend {
    /// LeakyReLU forward: `x ≥ 0 ? x : slope·x`, same shape.
    fn fused_leaky_relu(x: FloatTensor<Self>, slope: f64) -> FloatTensor<Self> {
        Self::leaky_relu(x, slope.into())
    }

    /// LeakyReLU backward: `grad · (x < 0 ? slope : 1)`, `x` the forward's input, same shape.
    fn fused_leaky_relu_backward(
        x: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        slope: f64,
    ) -> FloatTensor<Self> {
        composite_leaky_relu_backward::<Self>(x, grad, slope)
    }
}

/// The backward of burn's composite LeakyReLU in plain backend ops (mask, scale, `mask_where`).
fn composite_leaky_relu_backward<B: Backend>(
    x: FloatTensor<B>,
    grad: FloatTensor<B>,
    slope: f64,
) -> FloatTensor<B> {
    let bool_dtype = get_or_init_device_settings::<B>(&x.device()).bool_dtype;
    let negative = B::float_lower_elem(x, 0f32.into(), bool_dtype);
    let scaled = B::float_mul_scalar(grad.clone(), slope.into());
    B::float_mask_where(grad, negative, scaled)
}

impl FusedOps for Flex {
    /// burn-flex's own LeakyReLU: one pass (in place when the input is not shared).
    fn fused_leaky_relu(x: FlexTensor, slope: f64) -> FlexTensor {
        Flex::leaky_relu(x, slope.into())
    }

    /// One pass over `x` and `grad`, in place in `grad` when it is not shared.
    fn fused_leaky_relu_backward(x: FlexTensor, grad: FlexTensor, slope: f64) -> FlexTensor {
        match (x.dtype(), grad.dtype()) {
            (DType::F32, DType::F32) => leaky_backward_flex::<f32>(x, grad, slope as f32),
            (DType::F64, DType::F64) => leaky_backward_flex::<f64>(x, grad, slope),
            _ => composite_leaky_relu_backward::<Flex>(x, grad, slope),
        }
    }
}

#[cfg(feature = "cube")]
impl FusedOps for burn::backend::Cube {}

impl<B: FusedOps, C: CheckpointStrategy> FusedOps for Autodiff<B, C> {
    /// One node: the inner backend's forward; its backward is
    /// [`FusedOps::fused_leaky_relu_backward`] of the inner backend on the saved input.
    fn fused_leaky_relu(x: FloatTensor<Self>, slope: f64) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct LeakyReluBackward;

        impl<B: FusedOps> Backward<B, 1> for LeakyReluBackward {
            /// The forward's input and the slope.
            type State = (FloatTensor<B>, f64);

            fn backward(
                self,
                ops: Ops<Self::State, 1>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let (x, slope) = ops.state;
                unary::<B, _>(ops.parents, ops.node, grads, |grad| {
                    B::fused_leaky_relu_backward(x, grad, slope)
                });
            }
        }

        match LeakyReluBackward
            .prepare::<C>([x.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let input = x.primitive().clone();
                let output = B::fused_leaky_relu(input.clone(), slope);
                prep.finish((input, slope), output)
            }
            OpsKind::UnTracked(prep) => prep.finish(B::fused_leaky_relu(x.into_primitive(), slope)),
        }
    }
}

/// The element types [`leaky_backward_flex`] runs on.
trait Real: Element + Copy + PartialOrd + std::ops::Mul<Output = Self> {
    const ZERO: Self;
    fn slice(t: &FlexTensor) -> Option<&[Self]>;
    fn slice_mut(t: &mut FlexTensor) -> Option<&mut [Self]>;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            fn slice(t: &FlexTensor) -> Option<&[Self]> {
                t.as_slice::<$t>()
            }
            fn slice_mut(t: &mut FlexTensor) -> Option<&mut [Self]> {
                t.try_storage_mut::<$t>()
            }
        }
    };
}
real!(f32);
real!(f64);

/// `grad · (x < 0 ? slope : 1)` in one pass; written into `grad`'s buffer when `grad` is
/// unshared, contiguous and exactly its buffer, else into a new one.
fn leaky_backward_flex<E: Real>(x: FlexTensor, grad: FlexTensor, slope: E) -> FlexTensor {
    let n = x.layout().num_elements();
    assert_eq!(
        x.layout().shape(),
        grad.layout().shape(),
        "leaky_relu backward: input and gradient shapes differ"
    );
    let x = if E::slice(&x).is_some() {
        x
    } else {
        x.to_contiguous()
    };
    let xs = E::slice(&x).expect("contiguous input");
    let mut grad = grad;
    let whole = grad.layout().contiguous_offsets() == Some((0, n))
        && grad.bytes().len() == n * std::mem::size_of::<E>();
    if whole {
        if let Some(gs) = E::slice_mut(&mut grad) {
            for (g, &v) in gs.iter_mut().zip(xs) {
                if v < E::ZERO {
                    *g = *g * slope;
                }
            }
            return grad;
        }
    }
    let grad = if E::slice(&grad).is_some() {
        grad
    } else {
        grad.to_contiguous()
    };
    let gs = E::slice(&grad).expect("contiguous gradient");
    let out: Vec<E> = xs
        .iter()
        .zip(gs)
        .map(|(&v, &g)| if v < E::ZERO { g * slope } else { g })
        .collect();
    FlexTensor::from_data(TensorData::new(out, x.layout().shape().clone()))
}
