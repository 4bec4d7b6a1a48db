//! The batched, differentiable coarse solver: one ETD1 step of Δt as two matmuls with the real
//! operator matrices of [`super::operators::Etd1Matrices`], on any burn device, f32 or f64.
//!
//! States are row batches `[batch, N]`; a step is `u' = u Eᵀ + u² Pᵀ`. The matrices are
//! constants (no gradient); gradients flow through the state.

use burn::tensor::{Device, Tensor};

use super::config::{BurgersConfig, Scheme};
use super::error::BurgersError;
use super::operators::Etd1Matrices;
use crate::etd::EtdTensors;
use crate::matrices::read_rows;
use crate::types::Precision;

/// ETD1 on a burn device. Cheap to clone (tensors are handles).
#[derive(Debug, Clone)]
pub struct TensorSolver {
    config: BurgersConfig,
    /// `Eᵀ` and `Pᵀ` on the device.
    etd: EtdTensors,
}

impl TensorSolver {
    /// Builds the matrices in f64 and uploads them to `device` in `precision`; ETD1 only
    /// (ETDRK4 has no tensor form).
    pub fn new(
        config: BurgersConfig,
        device: &Device,
        precision: Precision,
    ) -> Result<Self, BurgersError> {
        let grid = config.validate()?;
        if config.scheme != Scheme::Etd1 {
            return Err(BurgersError::NoTensorForm(config.scheme.name()));
        }
        let matrices = Etd1Matrices::new(&grid, config.viscosity, config.substep);
        let operators = [&matrices.exp[..], &matrices.nonlinear[..]];
        let etd = EtdTensors::upload(grid.resolution, operators, None, device, precision);
        Ok(Self { config, etd })
    }

    /// The configuration.
    pub fn config(&self) -> &BurgersConfig {
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

    /// One step (`substeps` ETD1 sub-steps): `[batch, N] → [batch, N]`.
    pub fn step(&self, u: Tensor<2>) -> Tensor<2> {
        self.etd.steps(u, self.config.substeps)
    }

    /// Floating-point operations of one step for `batch` rows.
    pub fn flops_per_step(&self, batch: usize) -> f64 {
        self.config.flops_per_step(batch)
    }
}

/// Reads a `[rows, N]` tensor back (synchronously: tests and the native CLI only) as f64 rows.
pub fn read_states(tensor: Tensor<2>) -> Result<Vec<Vec<f64>>, BurgersError> {
    read_rows(tensor).map_err(BurgersError::Readback)
}
