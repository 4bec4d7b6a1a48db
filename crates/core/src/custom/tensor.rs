//! The batched, differentiable coarse solver of a reader's equation: ETD1 sub-steps as matmuls
//! with constant real circulant matrices, on any burn device, f32 or f64, on row batches
//! `[batch, N]`:
//!
//! `u' = u Eᵀ + (u²) P_sqᵀ + ((u Dᵀ)²) P_gradᵀ + (u³) P_cubeᵀ`
//!
//! with `E ↔ e^{L̂h}`, `P_sq ↔ (b·½ik + d)·m·φ₁`, `D ↔ ik`, `P_grad ↔ c·½·m·φ₁`,
//! `P_cube ↔ e·m·φ₁` (`m` the mask; a term whose coefficient is 0 has no matrix). The matrices
//! are constants; gradients flow through the state.

use burn::tensor::{Device, Tensor};
use num_complex::Complex64;

use super::error::CustomError;
use super::operators::{linear_symbol, NonlinearFactors, StepCoefficients};
use crate::counted::matmul;
use crate::matrices::{matrix_tensor, read_rows, real_operator, rows_tensor, transpose};
use crate::types::{Equation, Integrator, Precision};

/// The real matrices of one ETD1 sub-step, row-major `[N, N]` f64 (`None`: no such term).
#[derive(Debug, Clone, PartialEq)]
pub struct Etd1Matrices {
    /// Points `N`.
    pub points: usize,
    /// `E`.
    pub exp: Vec<f64>,
    /// `P_sq`.
    pub square: Option<Vec<f64>>,
    /// `D` and `P_grad`.
    pub gradient: Option<(Vec<f64>, Vec<f64>)>,
    /// `P_cube`.
    pub cube: Option<Vec<f64>>,
}

impl Etd1Matrices {
    /// The matrices of `equation`'s coarse solver (ETD1, `Δt/coarse` on `N` points).
    pub fn coarse(equation: &Equation) -> Self {
        let n = equation.points;
        let h = equation.dt / equation.coarse.max(1) as f64;
        let c = StepCoefficients::new(Integrator::Etd1, &linear_symbol(equation, n), h);
        let f = NonlinearFactors::new(equation, n);
        let times_phi = |factor: &[Complex64]| -> Vec<f64> {
            let m: Vec<Complex64> = factor.iter().zip(&c.phi1).map(|(f, p)| f * p).collect();
            real_operator(&m)
        };
        Self {
            points: n,
            exp: real_operator(&c.exp),
            square: f.square.as_deref().map(times_phi),
            gradient: f
                .gradient
                .as_ref()
                .map(|(d, g)| (real_operator(d), times_phi(g))),
            cube: f.cube.as_deref().map(times_phi),
        }
    }

    /// Matmuls of one sub-step (the FLOP count).
    pub fn matmuls(&self) -> usize {
        1 + usize::from(self.square.is_some())
            + 2 * usize::from(self.gradient.is_some())
            + usize::from(self.cube.is_some())
    }
}

/// ETD1 of a reader's equation on a burn device. Cheap to clone (tensors are handles).
#[derive(Debug, Clone)]
pub struct TensorSolver {
    points: usize,
    substeps: usize,
    precision: Precision,
    device: Device,
    exp_t: Tensor<2>,
    square_t: Option<Tensor<2>>,
    gradient_t: Option<(Tensor<2>, Tensor<2>)>,
    cube_t: Option<Tensor<2>>,
}

impl TensorSolver {
    /// The coarse solver of `equation` (checked) on `device` in `precision`.
    pub fn new(equation: &Equation, device: &Device, precision: Precision) -> Self {
        let m = Etd1Matrices::coarse(equation);
        let n = m.points;
        let upload =
            |values: &[f64]| matrix_tensor(transpose(values, n), [n, n], device, precision);
        Self {
            points: n,
            substeps: equation.coarse.max(1),
            precision,
            device: device.clone(),
            exp_t: upload(&m.exp),
            square_t: m.square.as_deref().map(upload),
            gradient_t: m.gradient.as_ref().map(|(d, g)| (upload(d), upload(g))),
            cube_t: m.cube.as_deref().map(upload),
        }
    }

    /// The precision of the matrices (inputs must match).
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// A `[batch, N]` state tensor on this device and precision from f64 rows.
    pub fn states(&self, rows: &[Vec<f64>]) -> Tensor<2> {
        rows_tensor(rows, self.points, &self.device, self.precision)
    }

    /// One ETD1 sub-step: `[batch, N] → [batch, N]`.
    pub fn substep(&self, u: Tensor<2>) -> Tensor<2> {
        let mut next = matmul(u.clone(), self.exp_t.clone());
        if let Some(p) = &self.square_t {
            next = next + matmul(u.clone() * u.clone(), p.clone());
        }
        if let Some((d, p)) = &self.gradient_t {
            let ux = matmul(u.clone(), d.clone());
            next = next + matmul(ux.clone() * ux, p.clone());
        }
        if let Some(p) = &self.cube_t {
            next = next + matmul(u.clone() * u.clone() * u, p.clone());
        }
        next
    }

    /// One learned step (`coarse` sub-steps): `[batch, N] → [batch, N]`.
    pub fn step(&self, u: Tensor<2>) -> Tensor<2> {
        (0..self.substeps).fold(u, |state, _| self.substep(state))
    }
}

/// Counted FLOPs of one learned coarse step of `equation` for `batch` rows: `2·batch·N²` per
/// matmul plus the elementwise products and sums.
pub fn flops_per_step(equation: &Equation, batch: usize) -> f64 {
    let matmuls = {
        let terms = [
            equation.b != 0.0 || equation.d != 0.0,
            equation.c != 0.0,
            equation.e != 0.0,
        ];
        1 + usize::from(terms[0]) + 2 * usize::from(terms[1]) + usize::from(terms[2])
    } as f64;
    let (n, b) = (equation.points as f64, batch as f64);
    equation.coarse as f64 * (matmuls * 2.0 * b * n * n + 2.0 * matmuls * b * n)
}

/// Reads a `[rows, N]` tensor back (synchronously: tests and the native CLI only) as f64 rows.
pub fn read_states(tensor: Tensor<2>) -> Result<Vec<Vec<f64>>, CustomError> {
    read_rows(tensor).map_err(CustomError::Readback)
}
