//! The profile's backward markers ([`super::profile`]): identity ops whose reverse pass opens or
//! closes a phase, one autodiff node each, set only while a profile records (no node otherwise).

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{unary, Backward, Ops, OpsKind};
use burn::backend::autodiff::Autodiff;
use burn::backend::tensor::FloatTensor;
use burn::backend::{backend_extension, Backend, Dispatch, Flex};
use burn::tensor::Tensor;

use super::profile::{marker_begin, marker_end, recording, span, Phase};

/// `f(input)` timed as `forward` ([`span`]) and its reverse pass as `backward` (markers on the
/// input and the output): e.g. a network call as [`Phase::Network`] and
/// [`Phase::NetworkBackward`]. On parallel branches of one step (KS's correction runs the solver
/// and the network on the same state) the depth-ordered reverse pass interleaves their nodes:
/// mark one branch only there.
pub fn timed_part<const D: usize, const E: usize>(
    forward: Phase,
    backward: Phase,
    input: Tensor<D>,
    f: impl FnOnce(Tensor<D>) -> Tensor<E>,
) -> Tensor<E> {
    let input = backward_to(backward, input);
    let output = span(forward, || f(input));
    backward_from(backward, output)
}

/// `output` unchanged; while recording, its gradient's arrival opens `phase` in the reverse
/// pass (set on the outputs of the part timed as `phase`).
pub fn backward_from<const D: usize>(phase: Phase, output: Tensor<D>) -> Tensor<D> {
    mark(phase, true, output)
}

/// `input` unchanged; while recording, its gradient's arrival closes `phase` (set on the input
/// of the part).
pub fn backward_to<const D: usize>(phase: Phase, input: Tensor<D>) -> Tensor<D> {
    mark(phase, false, input)
}

fn mark<const D: usize>(phase: Phase, begin: bool, x: Tensor<D>) -> Tensor<D> {
    if !recording() || !x.is_tracked() {
        return x;
    }
    Tensor::from_dispatch(<Dispatch as MarkOps>::profile_mark(
        x.into_dispatch(),
        phase as usize,
        begin,
    ))
}

/// The marker op: the identity forward on every backend; on autodiff a node whose backward
/// opens (`begin`) or closes phase number `phase` and passes the gradient on.
#[backend_extension(Flex, Cube: cfg(feature = "cube"), Autodiff)]
pub trait MarkOps: Backend {
    /// The identity.
    fn profile_mark(x: FloatTensor<Self>, _phase: usize, _begin: bool) -> FloatTensor<Self> {
        x
    }
}

impl MarkOps for Flex {}

#[cfg(feature = "cube")]
impl MarkOps for burn::backend::Cube {}

#[derive(Debug)]
struct MarkBackward;

impl<B: Backend> Backward<B, 1> for MarkBackward {
    /// The phase's number and whether the marker opens it.
    type State = (usize, bool);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let (phase, begin) = ops.state;
        let phase = Phase::ALL[phase];
        if begin {
            marker_begin(phase);
        } else {
            marker_end(phase);
        }
        unary::<B, _>(ops.parents, ops.node, grads, |grad| grad);
    }
}

impl<B: MarkOps, C: CheckpointStrategy> MarkOps for Autodiff<B, C> {
    fn profile_mark(x: FloatTensor<Self>, phase: usize, begin: bool) -> FloatTensor<Self> {
        match MarkBackward
            .prepare::<C>([x.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => prep.finish((phase, begin), x.into_primitive()),
            OpsKind::UnTracked(prep) => prep.finish(x.into_primitive()),
        }
    }
}
