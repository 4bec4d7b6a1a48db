//! The spectral pieces of a reader's equation on an `n`-point grid, in f64: wavenumbers
//! `k = m/L` (the KS convention), the linear symbol `L̂(k) = Σ a_j (ik)^j` (complex where
//! `a1` or `a3` is not 0), the nonlinear factors, the 2/3 mask and the exponential-integrator
//! coefficients of a sub-step `h` — `e^{L̂h}`, `φ₁`, `φ₂` and the Kassam–Trefethen ETDRK4 set —
//! computed where `L̂` is real by [`crate::etd`] (the KS and Burgers systems' own
//! numbers) and where it is complex by the same contour means on a circle of radius 1 around
//! `L̂h` ([`CONTOUR_POINTS`] points).

use num_complex::Complex64;

use crate::etd::{phi1, phi2, Etdrk4Coefficients, CONTOUR_POINTS};
use crate::spectral1d::fft_modes;
use crate::types::{Equation, Integrator};

/// Wavenumbers `k = m/L` (cycles per unit length, `∂ₓ ↦ ik`: the book's study chapter's (docs/src/study.md) KS convention); `[n]`.
pub fn wavenumbers(n: usize, length: f64) -> Vec<f64> {
    let scale = 1.0 / (n as f64 * (length / n as f64));
    fft_modes(n).iter().map(|m| m * scale).collect()
}

/// The 2/3 rule: 1 where `3|m| < n`, else 0 (the Nyquist mode included); all 1 without
/// dealiasing; `[n]`.
pub fn mask(n: usize, dealias: bool) -> Vec<f64> {
    fft_modes(n)
        .iter()
        .map(|m| {
            if !dealias || 3.0 * m.abs() < n as f64 {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// `L̂(k) = a0 + a1·ik + a2·(ik)² + a3·(ik)³ + a4·(ik)⁴` per mode; the odd orders are left out
/// at the Nyquist mode of an even grid (its coefficient of a real state is real); `[n]`.
pub fn linear_symbol(equation: &Equation, n: usize) -> Vec<Complex64> {
    let a = equation.a;
    wavenumbers(n, equation.length)
        .iter()
        .enumerate()
        .map(|(j, &k)| {
            let even = a[0] - a[2] * k * k + a[4] * k.powi(4);
            let nyquist = n.is_multiple_of(2) && j == n / 2;
            let odd = if nyquist {
                0.0
            } else {
                a[1] * k - a[3] * k.powi(3)
            };
            Complex64::new(even, odd)
        })
        .collect()
}

/// The nonlinear factors per mode on an `n`-point grid: `N̂(u) = square ⊙ FFT(u²) +
/// gradient ⊙ FFT((∂ₓu)²) + cube ⊙ FFT(u³)`, each masked; a term whose coefficient is 0 is
/// `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct NonlinearFactors {
    /// `(b·½·ik + d)·mask` (`None` where `b = d = 0`).
    pub square: Option<Vec<Complex64>>,
    /// `ik` (the derivative) and `c·½·mask`.
    pub gradient: Option<(Vec<Complex64>, Vec<Complex64>)>,
    /// `e·mask`.
    pub cube: Option<Vec<Complex64>>,
}

impl NonlinearFactors {
    /// The factors of `equation` on `n` points.
    pub fn new(equation: &Equation, n: usize) -> Self {
        let k = wavenumbers(n, equation.length);
        let m = mask(n, equation.dealias);
        let (b, c, d, e) = (equation.b, equation.c, equation.d, equation.e);
        let square = (b != 0.0 || d != 0.0).then(|| {
            k.iter()
                .zip(&m)
                .map(|(&k, &m)| Complex64::new(d, 0.5 * b * k) * m)
                .collect()
        });
        let gradient = (c != 0.0).then(|| {
            let derivative = k.iter().map(|&k| Complex64::new(0.0, k)).collect();
            let factor = m
                .iter()
                .map(|&m| Complex64::new(0.5 * c * m, 0.0))
                .collect();
            (derivative, factor)
        });
        let cube = (e != 0.0).then(|| m.iter().map(|&m| Complex64::new(e * m, 0.0)).collect());
        Self {
            square,
            gradient,
            cube,
        }
    }
}

/// The coefficients of one exponential sub-step `h` of `integrator`, per mode, complex.
#[derive(Debug, Clone, PartialEq)]
pub struct StepCoefficients {
    /// The integrator.
    pub integrator: Integrator,
    /// `e^{L̂h}`.
    pub exp: Vec<Complex64>,
    /// `φ₁ = (e^{L̂h} − 1)/L̂` (ETD1, ETRK2).
    pub phi1: Vec<Complex64>,
    /// `φ₂ = (e^{L̂h} − 1 − L̂h)/(hL̂²)` (ETRK2).
    pub phi2: Vec<Complex64>,
    /// ETDRK4's `e^{L̂h/2}`, `Q`, `f₁`, `f₂`, `f₃` (ETDRK4; empty otherwise).
    pub rk4: [Vec<Complex64>; 5],
}

/// `h·⟨f(r)⟩` over [`CONTOUR_POINTS`] points `r = z + e^{iθ}` (Kassam–Trefethen).
fn contour(z: Complex64, h: f64, f: impl Fn(Complex64) -> Complex64) -> Complex64 {
    let sum: Complex64 = (0..CONTOUR_POINTS)
        .map(|j| {
            let theta = std::f64::consts::TAU * (j as f64 + 0.5) / CONTOUR_POINTS as f64;
            f(z + Complex64::from_polar(1.0, theta))
        })
        .sum();
    sum * h / CONTOUR_POINTS as f64
}

fn real(v: f64) -> Complex64 {
    Complex64::new(v, 0.0)
}

/// `φ₁`, `φ₂` of one mode: [`crate::etd`]'s where `L̂` is real, else contour means.
fn phis(l: Complex64, h: f64) -> (Complex64, Complex64) {
    if l.im == 0.0 {
        return (real(phi1(l.re, h)), real(phi2(l.re, h)));
    }
    let z = l * h;
    let p1 = contour(z, h, |r| (r.exp() - 1.0) / r);
    let p2 = contour(z, h, |r| (r.exp() - 1.0 - r) / (r * r));
    (p1, p2)
}

/// ETDRK4's `e^{L̂h/2}`, `Q`, `f₁`, `f₂`, `f₃` of one mode.
fn rk4_mode(l: Complex64, h: f64) -> [Complex64; 5] {
    if l.im == 0.0 {
        let c = Etdrk4Coefficients::from_symbol(&[l.re], h);
        return [c.exp_half[0], c.q[0], c.f1[0], c.f2[0], c.f3[0]].map(real);
    }
    let z = l * h;
    let q = contour(z, h, |r| ((r / 2.0).exp() - 1.0) / r);
    let f1 = contour(z, h, |r| {
        (-4.0 - r + r.exp() * (4.0 - 3.0 * r + r * r)) / (r * r * r)
    });
    let f2 = contour(z, h, |r| (2.0 + r + r.exp() * (r - 2.0)) / (r * r * r));
    let f3 = contour(z, h, |r| {
        (-4.0 - 3.0 * r - r * r + r.exp() * (4.0 - r)) / (r * r * r)
    });
    [(z / 2.0).exp(), q, f1, f2, f3]
}

impl StepCoefficients {
    /// The coefficients of `integrator` for the symbol `symbol` and sub-step `h`.
    pub fn new(integrator: Integrator, symbol: &[Complex64], h: f64) -> Self {
        let exp = symbol
            .iter()
            .map(|&l| {
                if l.im == 0.0 {
                    real((l.re * h).exp())
                } else {
                    (l * h).exp()
                }
            })
            .collect();
        let (phi1, phi2) = match integrator {
            Integrator::Etdrk4 => (Vec::new(), Vec::new()),
            _ => symbol.iter().map(|&l| phis(l, h)).unzip(),
        };
        let mut rk4: [Vec<Complex64>; 5] = Default::default();
        if integrator == Integrator::Etdrk4 {
            for l in symbol {
                for (column, value) in rk4.iter_mut().zip(rk4_mode(*l, h)) {
                    column.push(value);
                }
            }
        }
        Self {
            integrator,
            exp,
            phi1,
            phi2,
            rk4,
        }
    }
}
