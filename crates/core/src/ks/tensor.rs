//! The batched, differentiable burn solver: ETD1 / ETRK2 as matmuls with precomputed real
//! operator matrices (see [`super::operators`]), on any device and dtype.
//!
//! States are row batches `[batch, N]`; a sub-step is
//! ETD1 `u' = u Eᵀ + u² P₁ᵀ`, ETRK2 `a = u Eᵀ + u² P₁ᵀ`, `u' = a + (a² − u²) P₂ᵀ`.
//! The matrices are constants (no gradient); gradients flow through the state.

use burn::tensor::{Device, Tensor};

use super::config::{KsConfig, Scheme};
use super::error::KsError;
use super::operators::EtdMatrices;
use crate::etd::EtdTensors;
pub use crate::matrices::matrix_tensor;
pub use crate::types::Precision;

/// Reads a `[rows, N]` tensor back (synchronously: tests and the native CLI only) as f64 rows.
pub fn read_rows(tensor: Tensor<2>) -> Result<Vec<Vec<f64>>, KsError> {
    crate::matrices::read_rows(tensor).map_err(KsError::Readback)
}

/// ETD1 / ETRK2 on a burn device. Cheap to clone (tensors are handles).
#[derive(Debug, Clone)]
pub struct TensorSolver {
    config: KsConfig,
    /// `Eᵀ`, `P₁ᵀ` and (ETRK2) `P₂ᵀ` on the device.
    etd: EtdTensors,
}

impl TensorSolver {
    /// Builds the matrices in f64 and uploads them to `device` in `precision`.
    /// [`Scheme::Etdrk4`] has no tensor form.
    pub fn new(config: KsConfig, device: &Device, precision: Precision) -> Result<Self, KsError> {
        let grid = config.validate()?;
        if config.scheme == Scheme::Etdrk4 {
            return Err(KsError::NoTensorForm(config.scheme.name()));
        }
        let m = EtdMatrices::new(&grid, config.substep);
        let etrk2 = (config.scheme == Scheme::Etrk2).then_some(&m.nonlinear2[..]);
        let operators = [&m.exp[..], &m.nonlinear1[..]];
        let etd = EtdTensors::upload(grid.resolution, operators, etrk2, device, precision);
        Ok(Self { config, etd })
    }

    /// The configuration.
    pub fn config(&self) -> &KsConfig {
        &self.config
    }

    /// The precision of the matrices (inputs must match).
    pub fn precision(&self) -> Precision {
        self.etd.precision()
    }

    /// A `[batch, N]` state tensor on this solver's device and precision from f64 rows.
    pub fn states(&self, rows: &[Vec<f64>]) -> Tensor<2> {
        self.etd.states(rows)
    }

    /// One sub-step `h`: `[batch, N] → [batch, N]`.
    pub fn substep(&self, u: Tensor<2>) -> Tensor<2> {
        self.etd.substep(u)
    }

    /// One learned step (`substeps` sub-steps): `[batch, N] → [batch, N]`.
    pub fn step(&self, u: Tensor<2>) -> Tensor<2> {
        self.etd.steps(u, self.config.substeps)
    }

    /// Floating-point operations of one learned step for `batch` rows: matmuls `2·batch·N²` each
    /// plus the elementwise products and sums.
    pub fn flops_per_step(&self, batch: usize) -> f64 {
        self.config.flops_per_step(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::initial::{train_ic, TestIc};
    use crate::ks::reference::ReferenceSolver;
    use crate::metrics::max_abs_difference;

    /// A few states along a trajectory (so they are on the attractor, not just the IC).
    fn sample_states(config: KsConfig) -> Vec<Vec<f64>> {
        let grid = config.grid();
        let truth = ReferenceSolver::new(KsConfig {
            scheme: Scheme::Etrk2,
            ..config
        })
        .expect("solver");
        let mut states = Vec::new();
        for index in 0..3 {
            let (trajectory, _) = truth.trajectory(&train_ic(&grid, index).expect("ic"), 30);
            states.push(trajectory[0].clone());
            states.push(trajectory[30].clone());
        }
        states.push(TestIc::from_seed(3).state(&grid));
        states
    }

    fn compare_with_reference(precision: Precision, tolerance: f64) {
        for scheme in [Scheme::Etd1, Scheme::Etrk2] {
            for domain_size in [8.0 * 0.9, 8.0 * 1.3] {
                let config = KsConfig {
                    scheme,
                    domain_size,
                    ..KsConfig::default()
                };
                let reference = ReferenceSolver::new(config).expect("reference");
                let solver = TensorSolver::new(config, &backend::cpu(), precision).expect("solver");
                let states = sample_states(config);
                let got = read_rows(solver.step(solver.states(&states))).expect("read");
                for (state, row) in states.iter().zip(&got) {
                    let want = reference.step(state);
                    let difference = max_abs_difference(row, &want);
                    assert!(
                        difference <= tolerance,
                        "{scheme:?} {precision:?} L={domain_size}: {difference:e}"
                    );
                }
            }
        }
    }

    #[test]
    fn tensor_f64_matches_reference_to_1e12_per_step() {
        compare_with_reference(Precision::F64, 1e-12);
    }

    #[test]
    fn tensor_f32_matches_reference_to_1e5_per_step() {
        compare_with_reference(Precision::F32, 1e-5);
    }

    #[test]
    fn etdrk4_has_no_tensor_form() {
        let config = KsConfig {
            scheme: Scheme::Etdrk4,
            ..KsConfig::default()
        };
        assert!(TensorSolver::new(config, &backend::cpu(), Precision::F32).is_err());
    }

    /// `loss(u) = Σ w ⊙ step(u)²` with fixed weights `w`.
    fn loss_weights(n: usize) -> Vec<f64> {
        (0..n).map(|j| 1.0 + 0.1 * (j as f64).sin()).collect()
    }

    fn reference_loss(reference: &ReferenceSolver, u: &[f64], weights: &[f64]) -> f64 {
        reference
            .step(u)
            .iter()
            .zip(weights)
            .map(|(v, w)| w * v * v)
            .sum()
    }

    #[test]
    fn gradient_through_etrk2_double_step_matches_finite_differences() {
        let config = KsConfig {
            resolution: 16,
            ..KsConfig::default()
        };
        let n = config.resolution;
        let device = backend::cpu_autodiff();
        let solver = TensorSolver::new(config, &device, Precision::F64).expect("solver");
        let u0 = train_ic(&config.grid(), 2).expect("ic");
        let weights = loss_weights(n);
        let u = solver.states(std::slice::from_ref(&u0)).require_grad();
        let w = matrix_tensor(weights.clone(), [1, n], &device, Precision::F64);
        let out = solver.step(u.clone());
        let loss = (out.clone() * out * w).sum();
        let grads = loss.backward();
        let gradient = read_rows(u.grad(&grads).expect("gradient")).expect("read");
        let reference = ReferenceSolver::new(config).expect("reference");
        let eps = 1e-6;
        for j in 0..n {
            let mut plus = u0.clone();
            plus[j] += eps;
            let mut minus = u0.clone();
            minus[j] -= eps;
            let fd = (reference_loss(&reference, &plus, &weights)
                - reference_loss(&reference, &minus, &weights))
                / (2.0 * eps);
            let got = gradient[0][j];
            assert!(
                (got - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                "component {j}: autodiff {got} vs finite difference {fd}"
            );
        }
    }
}
