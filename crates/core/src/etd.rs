//! Exponential time differencing coefficients for a diagonal linear operator (one real symbol
//! value per mode), shared by every spectral solver: `φ₁`, `φ₂` (ETD1, ETRK2) and the
//! Kassam–Trefethen contour-integral coefficients of Cox–Matthews ETDRK4; and the batched,
//! differentiable ETD1 / ETRK2 sub-step of the 1-D tensor solvers as matmuls ([`EtdTensors`]).

use burn::tensor::{Device, Tensor};
use num_complex::Complex64;

use super::counted::matmul;
use super::matrices::{matrix_tensor, rows_tensor, transpose};
use super::types::Precision;

/// Contour points for the Kassam–Trefethen coefficients (full circle of radius 1 around `L̂h`).
pub const CONTOUR_POINTS: usize = 64;

/// `φ₁(L̂) = (e^{L̂h} − 1)/L̂`, `= h` where `L̂ = 0` (docs/src/study.md). Evaluated with `expm1`, which is
/// the same function without the cancellation near `L̂ = 0`.
pub fn phi1(symbol: f64, h: f64) -> f64 {
    if symbol == 0.0 {
        h
    } else {
        (symbol * h).exp_m1() / symbol
    }
}

/// `φ₂(L̂) = (e^{L̂h} − 1 − L̂h)/(h L̂²)`, `= h/2` where `L̂ = 0` (docs/src/study.md). A Taylor series
/// replaces the formula where `|L̂h| < 1e-3` (it loses all digits there).
pub fn phi2(symbol: f64, h: f64) -> f64 {
    let z = symbol * h;
    if symbol == 0.0 {
        h / 2.0
    } else if z.abs() < 1e-3 {
        h * (0.5 + z / 6.0 + z * z / 24.0 + z * z * z / 120.0)
    } else {
        (z.exp_m1() - z) / (h * symbol * symbol)
    }
}

/// Kassam–Trefethen coefficients of Cox–Matthews ETDRK4 for one sub-step `h`; each `[N]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Etdrk4Coefficients {
    /// `e^{L̂h}`.
    pub exp: Vec<f64>,
    /// `e^{L̂h/2}`.
    pub exp_half: Vec<f64>,
    /// `Q = h·⟨(e^{r/2} − 1)/r⟩`.
    pub q: Vec<f64>,
    /// `f₁ = h·⟨(−4 − r + e^r(4 − 3r + r²))/r³⟩`.
    pub f1: Vec<f64>,
    /// `f₂ = h·⟨(2 + r + e^r(r − 2))/r³⟩`.
    pub f2: Vec<f64>,
    /// `f₃ = h·⟨(−4 − 3r − r² + e^r(4 − r))/r³⟩`.
    pub f3: Vec<f64>,
}

impl Etdrk4Coefficients {
    /// For any real diagonal linear symbol `L̂` (one value per mode: KS's `k² − k⁴`, the 2-D
    /// viscous symbol `−ν|k|²` of Kolmogorov flow): contour means `⟨·⟩` over [`CONTOUR_POINTS`]
    /// points `r = L̂h + e^{iθ}` on a full circle.
    pub fn from_symbol(symbol: &[f64], h: f64) -> Self {
        let roots: Vec<Complex64> = (0..CONTOUR_POINTS)
            .map(|j| {
                let theta = std::f64::consts::TAU * (j as f64 + 0.5) / CONTOUR_POINTS as f64;
                Complex64::from_polar(1.0, theta)
            })
            .collect();
        let mean = |l: f64, f: &dyn Fn(Complex64) -> Complex64| -> f64 {
            let sum: Complex64 = roots.iter().map(|&root| f(root + l * h)).sum();
            h * sum.re / CONTOUR_POINTS as f64
        };
        let q = |r: Complex64| ((r / 2.0).exp() - 1.0) / r;
        let f1 = |r: Complex64| (-4.0 - r + r.exp() * (4.0 - 3.0 * r + r * r)) / (r * r * r);
        let f2 = |r: Complex64| (2.0 + r + r.exp() * (r - 2.0)) / (r * r * r);
        let f3 = |r: Complex64| (-4.0 - 3.0 * r - r * r + r.exp() * (4.0 - r)) / (r * r * r);
        Self {
            exp: symbol.iter().map(|l| (l * h).exp()).collect(),
            exp_half: symbol.iter().map(|l| (l * h / 2.0).exp()).collect(),
            q: symbol.iter().map(|&l| mean(l, &q)).collect(),
            f1: symbol.iter().map(|&l| mean(l, &f1)).collect(),
            f2: symbol.iter().map(|&l| mean(l, &f2)).collect(),
            f3: symbol.iter().map(|&l| mean(l, &f3)).collect(),
        }
    }
}

/// ETD1 / ETRK2 sub-steps as matmuls with constant real operator matrices on a burn device, on
/// row batches `[batch, N]`: ETD1 `u' = u Eᵀ + u² P₁ᵀ`, ETRK2 `a = u Eᵀ + u² P₁ᵀ`,
/// `u' = a + (a² − u²) P₂ᵀ`. The matrices are constants (no gradient); gradients flow through
/// the state. Cheap to clone (tensors are handles).
#[derive(Debug, Clone)]
pub struct EtdTensors {
    points: usize,
    precision: Precision,
    device: Device,
    /// `Eᵀ`, `[N, N]`.
    exp_t: Tensor<2>,
    /// `P₁ᵀ`, `[N, N]`.
    nonlinear1_t: Tensor<2>,
    /// `P₂ᵀ`, `[N, N]` (ETRK2 only).
    nonlinear2_t: Option<Tensor<2>>,
}

impl EtdTensors {
    /// Uploads the transposes of the row-major `[N, N]` f64 matrices `E`, `P₁` and (ETRK2 only)
    /// `P₂` of an `n`-point grid to `device` in `precision`.
    pub fn upload(
        n: usize,
        [exp, nonlinear1]: [&[f64]; 2],
        nonlinear2: Option<&[f64]>,
        device: &Device,
        precision: Precision,
    ) -> Self {
        let upload = |m: &[f64]| matrix_tensor(transpose(m, n), [n, n], device, precision);
        Self {
            points: n,
            precision,
            device: device.clone(),
            exp_t: upload(exp),
            nonlinear1_t: upload(nonlinear1),
            nonlinear2_t: nonlinear2.map(upload),
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

    /// One sub-step: `[batch, N] → [batch, N]`.
    pub fn substep(&self, u: Tensor<2>) -> Tensor<2> {
        let squared = u.clone() * u.clone();
        let a = matmul(u, self.exp_t.clone()) + matmul(squared.clone(), self.nonlinear1_t.clone());
        match &self.nonlinear2_t {
            None => a,
            Some(p2) => {
                let difference = a.clone() * a.clone() - squared;
                a + matmul(difference, p2.clone())
            }
        }
    }

    /// `substeps` sub-steps: `[batch, N] → [batch, N]`.
    pub fn steps(&self, u: Tensor<2>, substeps: usize) -> Tensor<2> {
        (0..substeps).fold(u, |state, _| self.substep(state))
    }
}
