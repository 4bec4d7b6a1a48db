//! Stacking the members' parameters along a leading ensemble axis, and reading one member's
//! part back.

use burn::module::Param;
use burn::tensor::Tensor;

use crate::nets::{Net, NetError};

/// `[K, …]` stacked from each member's `[…]`, detached (a new parameter).
pub(crate) fn stacked<const D: usize, const E: usize>(parts: Vec<Tensor<D>>) -> Param<Tensor<E>> {
    Param::from_tensor(Tensor::stack(parts, 0).detach())
}

/// Member `k`'s `[…]` of `all: [K, …]`, detached.
pub(crate) fn part<const D: usize, const E: usize>(
    all: &Param<Tensor<E>>,
    k: usize,
) -> Param<Tensor<D>> {
    let value = all.val();
    let dims = value.dims();
    let mut shape = [0; D];
    shape.copy_from_slice(&dims[1..]);
    Param::from_tensor(value.narrow(0, k, 1).reshape(shape).detach())
}

/// Each of `nets` as `pick` finds it, or the refusal naming the architecture of the first it
/// does not find (members of another architecture).
pub(crate) fn every<'a, T>(
    nets: &'a [Net],
    pick: impl Fn(&'a Net) -> Option<&'a T>,
) -> Result<Vec<&'a T>, NetError> {
    nets.iter()
        .map(|net| pick(net).ok_or_else(|| NetError::NoEnsemble(net.architecture())))
        .collect()
}
