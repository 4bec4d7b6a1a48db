//! The gradient guard of the paper's Kolmogorov training: an update is skipped when a gradient
//! holds a NaN or when the norm of any parameter tensor's gradient reaches its running bound.
//! Each bound starts at 10⁶ and, after every accepted update, moves towards 100 × the accepted
//! norm: `bound ← (9·bound + 100·norm) / 10`.

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::tensor::Tensor;

use super::error::TrainError;
use crate::nets::Net;
use crate::readback::read_f32;

/// A bound's value before the first accepted update.
pub const INITIAL_BOUND: f64 = 1e6;

/// The running bounds, one per parameter tensor, and the count of skipped updates.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GradientGuard {
    bounds: Vec<f64>,
    /// Updates skipped so far.
    pub skipped: usize,
}

impl GradientGuard {
    /// Forgets the bounds (the next update starts from [`INITIAL_BOUND`] again), keeping the
    /// count of skipped updates: a new curriculum stage of the paper's code.
    pub fn restart(&mut self) {
        self.bounds.clear();
    }

    /// Whether an update with these per-tensor gradient norms may be applied; updates the
    /// bounds when it may, counts a skip when not.
    pub fn accept(&mut self, norms: &[f64]) -> bool {
        if self.bounds.len() != norms.len() {
            self.bounds = vec![INITIAL_BOUND; norms.len()];
        }
        let ok = norms
            .iter()
            .zip(&self.bounds)
            .all(|(norm, bound)| norm.is_finite() && norm < bound);
        if ok {
            for (bound, norm) in self.bounds.iter_mut().zip(norms) {
                *bound = (9.0 * *bound + 100.0 * norm) / 10.0;
            }
        } else {
            self.skipped += 1;
        }
        ok
    }
}

/// Collects `Σ g²` of every parameter tensor's gradient, in visiting order.
struct SquaredNorms<'a> {
    gradients: &'a GradientsParams,
    sums: Vec<Tensor<1>>,
}

impl ModuleVisitor for SquaredNorms<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(gradient) = self.gradients.get::<D>(param.id) {
            self.sums.push(gradient.powi_scalar(2).sum());
        }
    }
}

/// The L2 norm of every parameter tensor's gradient of `net` (one async readback).
pub async fn gradient_norms(
    net: &Net,
    gradients: &GradientsParams,
) -> Result<Vec<f64>, TrainError> {
    let mut visitor = SquaredNorms {
        gradients,
        sums: Vec::new(),
    };
    net.visit(&mut visitor);
    if visitor.sums.is_empty() {
        return Ok(Vec::new());
    }
    let sums = read_f32(Tensor::cat(visitor.sums, 0)).await?;
    Ok(sums.into_iter().map(|s| (s as f64).sqrt()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_nan_and_outliers_and_follows_accepted_norms() {
        let mut guard = GradientGuard::default();
        assert!(guard.accept(&[1.0, 2.0]));
        // Bounds: (9e6 + 100)/10 and (9e6 + 200)/10.
        assert!(guard.bounds[0] > 8.9e5 && guard.bounds[0] < 9.1e5);
        assert!(!guard.accept(&[f64::NAN, 1.0]));
        assert!(!guard.accept(&[1e7, 1.0]));
        assert_eq!(guard.skipped, 2);
        // Many accepted norms of 1 pull the bound down towards 100.
        for _ in 0..200 {
            assert!(guard.accept(&[1.0, 1.0]));
        }
        assert!((guard.bounds[0] - 100.0).abs() < 1.0);
        assert!(
            !guard.accept(&[150.0, 1.0]),
            "150 × the running norm is an outlier"
        );
        assert_eq!(guard.skipped, 3);
        guard.restart();
        assert!(
            guard.accept(&[150.0, 1.0]),
            "a restarted guard has its first bound"
        );
        assert_eq!(guard.skipped, 3);
    }
}
