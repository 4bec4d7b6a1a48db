//! The autodiff side every hand-written op of the networks shares ([`crate::nets::fused::block`],
//! [`crate::nets::fused::conv`], [`crate::nets::fused::edge`], [`crate::nets::fused::block2d`],
//! [`crate::nets::fused::conv2d`]): one node over the op's inputs whose backward
//! hands the output's gradient to the inner backend's hand-written backward and registers each
//! input's gradient.

use std::marker::PhantomData;

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::tensor::FloatTensor;
use burn::backend::Backend;

/// A hand-written backward of an op with `N` float inputs on backend `B`.
pub trait HandWritten<B: Backend, const N: usize>: Send + std::fmt::Debug + 'static {
    /// What the forward keeps for the backward.
    type State: Clone + Send + std::fmt::Debug + 'static;

    /// The gradient of each input (in order) from the output's.
    fn backward(state: Self::State, grad: FloatTensor<B>) -> [FloatTensor<B>; N];
}

/// The autodiff node of a [`HandWritten`] op.
#[derive(Debug)]
struct Node<H>(PhantomData<H>);

impl<B: Backend, H: HandWritten<B, N>, const N: usize> Backward<B, N> for Node<H> {
    type State = H::State;

    fn backward(self, ops: Ops<Self::State, N>, grads: &mut Gradients, _: &mut Checkpointer) {
        let grad = grads.consume::<B>(&ops.node);
        for (parent, gradient) in ops.parents.into_iter().zip(H::backward(ops.state, grad)) {
            if let Some(node) = parent {
                grads.register::<B>(node.id, gradient);
            }
        }
    }
}

/// The op `H` on autodiff `inputs`: one node whose backward is `H`'s when an input is tracked
/// (the output and the state from `tracked`), else the plain `untracked` forward.
pub fn record<B, C, H, const N: usize>(
    inputs: [FloatTensor<Autodiff<B, C>>; N],
    tracked: impl FnOnce([FloatTensor<B>; N]) -> (FloatTensor<B>, H::State),
    untracked: impl FnOnce([FloatTensor<B>; N]) -> FloatTensor<B>,
) -> FloatTensor<Autodiff<B, C>>
where
    B: Backend,
    C: CheckpointStrategy,
    H: HandWritten<B, N>,
{
    let nodes = inputs.each_ref().map(|t| t.node());
    match Node::<H>(PhantomData)
        .prepare::<C>(nodes)
        .compute_bound()
        .stateful()
    {
        OpsKind::Tracked(prep) => {
            let (output, state) = tracked(inputs.map(|t| t.into_primitive()));
            prep.finish(state, output)
        }
        OpsKind::UnTracked(prep) => prep.finish(untracked(inputs.map(|t| t.into_primitive()))),
    }
}

/// Declares `$node`, the autodiff node of an op whose hand-written backward is the training
/// trait's `$backward` over `$inputs` inputs with state `$state`:
/// `hand_written_node!(ConvNode: FusedConvTraining::conv_backward(ConvState; 3));`.
macro_rules! hand_written_node {
    ($node:ident: $training:ident::$backward:ident($state:ident; $inputs:literal)) => {
        #[doc = concat!("[`", stringify!($training), "::", stringify!($backward), "`] as the autodiff node's backward.")]
        #[derive(Debug)]
        struct $node;

        impl<B: $training> $crate::nets::fused::node::HandWritten<B, $inputs> for $node {
            type State = B::$state;

            fn backward(state: B::$state, grad: FloatTensor<B>) -> [FloatTensor<B>; $inputs] {
                B::$backward(state, grad)
            }
        }
    };
}

pub(crate) use hand_written_node;
