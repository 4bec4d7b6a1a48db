//! A reader's 1-D periodic semilinear equation as plain data: its coefficients, domain, grid,
//! step, solver settings and the parameter a study varies, and the checks of its numbers. Its
//! text form (`a2=-1,a4=-1,b=-1;L=8;N=48`) is [`super::equation_text`], the interner that lets
//! the `Copy` enum [`super::System`] carry one [`super::equation_id`]; its JSON form is serde's.
//!
//! The family is exponax's generic 1-D steppers joined (`GeneralLinearStepper`,
//! `GeneralNonlinearStepper`, `GeneralPolynomialStepper`):
//!
//! `u_t = a0·u + a1·∂ₓu + a2·∂ₓ²u + a3·∂ₓ³u + a4·∂ₓ⁴u + b·½∂ₓ(u²) + c·½(∂ₓu)² + d·u² + e·u³`
//!
//! `b`, `c` and `d` are exponax's `nonlinear_coefficients = (b₀, b₁, b₂) = (d, b, c)` with the same
//! factors ½ (so an equation here is the same numbers there: Burgers is `b = −1`, KS is
//! `a2 = a4 = −1, b = −1`); `e` is the cubic term of its polynomial stepper, which Swift–Hohenberg
//! and Allen–Cahn need. Linear orders stop at 4, where exponax's KS and Swift–Hohenberg stop.
//!
//! The domain follows the KS system's convention (docs/src/study.md): wavenumbers `k = m/L` for the
//! integer mode `m` (`∂ₓ ↦ ik`, no 2π), so the physical period is `2π·L` and KS typed as an
//! equation with `L = 8·s` is the KS system (Burgers on `[0, 2π)` is `L = 1`).

use serde::{Deserialize, Serialize};

/// A term of the equation (or the domain length `L`): what a study may vary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Term {
    /// `a0·u`.
    #[serde(rename = "a0")]
    A0,
    /// `a1·∂ₓu`.
    #[serde(rename = "a1")]
    A1,
    /// `a2·∂ₓ²u`.
    #[serde(rename = "a2")]
    A2,
    /// `a3·∂ₓ³u`.
    #[serde(rename = "a3")]
    A3,
    /// `a4·∂ₓ⁴u`.
    #[serde(rename = "a4")]
    A4,
    /// `b·½∂ₓ(u²)` (convection).
    #[serde(rename = "b")]
    B,
    /// `c·½(∂ₓu)²` (gradient norm).
    #[serde(rename = "c")]
    C,
    /// `d·u²`.
    #[serde(rename = "d")]
    D,
    /// `e·u³`.
    #[serde(rename = "e")]
    E,
    /// The domain length `L` (period `2π·L`).
    #[default]
    #[serde(rename = "L")]
    L,
}

crate::named_enum!(Term, "term", {
    A0 => "a0", A1 => "a1", A2 => "a2", A3 => "a3", A4 => "a4",
    B => "b", C => "c", D => "d", E => "e", L => "L",
});

impl Term {
    /// The nine coefficients, in the equation's order (every term but `L`).
    pub const COEFFICIENTS: [Term; 9] = [
        Term::A0,
        Term::A1,
        Term::A2,
        Term::A3,
        Term::A4,
        Term::B,
        Term::C,
        Term::D,
        Term::E,
    ];

    /// The term it multiplies, as written after its coefficient (`∂ₓ⁴u`, `½∂ₓ(u²)`); `L`: the
    /// domain.
    pub fn written(self) -> &'static str {
        match self {
            Term::A0 => "u",
            Term::A1 => "∂ₓu",
            Term::A2 => "∂ₓ²u",
            Term::A3 => "∂ₓ³u",
            Term::A4 => "∂ₓ⁴u",
            Term::B => "½∂ₓ(u²)",
            Term::C => "½(∂ₓu)²",
            Term::D => "u²",
            Term::E => "u³",
            Term::L => "domain length (period 2π·L)",
        }
    }
}

/// The exponential integrator of a solver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Integrator {
    /// Exponential Euler (first order).
    Etd1,
    /// Exponential Runge–Kutta 2 (second order; the KS paper's truth).
    Etrk2,
    /// Cox–Matthews ETDRK4 with Kassam–Trefethen contour coefficients (fourth order).
    #[default]
    Etdrk4,
}

crate::named_enum!(Integrator, "integrator", {
    Etd1 => "etd1", Etrk2 => "etrk2", Etdrk4 => "etdrk4",
});

/// Bounds of every number of an [`Equation`], checked by [`Equation::check`].
pub mod bounds {
    /// Largest `|coefficient|`.
    pub const COEFFICIENT: f64 = 1e6;
    /// Grid points `N`.
    pub const POINTS: (usize, usize) = (8, 1024);
    /// Points of the truth's grid `N·fine`.
    pub const FINE_POINTS: usize = 4096;
    /// Largest truth grid factor.
    pub const FINE: usize = 16;
    /// Largest truth sub-steps per learned step.
    pub const SUBSTEPS: usize = 1000;
    /// Largest truth work per learned step, sub-steps × `N·fine` (the checks before training
    /// run hundreds of steps on the page's main thread: this keeps them to seconds).
    pub const WORK: usize = 200_000;
    /// Largest coarse sub-steps per learned step.
    pub const COARSE: usize = 100;
    /// Largest `L` and `Δt`.
    pub const LENGTH: f64 = 1e4;
    /// Most training values of the varied parameter.
    pub const TRAIN_VALUES: usize = 12;
    /// Most test values.
    pub const TEST_VALUES: usize = 8;
    /// Kept frames per training trajectory.
    pub const FRAMES: (usize, usize) = (16, 5000);
    /// Most warm-up steps.
    pub const WARMUP: usize = 10_000;
    /// Most initial states per parameter value (training) and tests per value.
    pub const STATES: usize = 32;
    /// Test rollout steps (at least the error horizon 12).
    pub const ROLLOUT: (usize, usize) = (12, 2000);
}

/// One equation with everything its study needs. Units: `L` and `x` in the equation's length
/// unit, `dt` in its time unit; `train` / `test` are values of `vary` (an `L` or a
/// coefficient). States are `[N]` point values on `x_j = 2π·L·j/N`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equation {
    /// `a0..a4`: the linear coefficients of `∂ₓᵏu`, `k = 0..4`.
    #[serde(default)]
    pub a: [f64; 5],
    /// Convection `b·½∂ₓ(u²)`.
    #[serde(default)]
    pub b: f64,
    /// Gradient norm `c·½(∂ₓu)²`.
    #[serde(default)]
    pub c: f64,
    /// Quadratic reaction `d·u²`.
    #[serde(default)]
    pub d: f64,
    /// Cubic reaction `e·u³`.
    #[serde(default)]
    pub e: f64,
    /// Domain length `L` (wavenumbers `m/L`, period `2π·L`).
    #[serde(rename = "L", default = "defaults::length")]
    pub length: f64,
    /// Grid points `N` of the learned state.
    #[serde(rename = "N", default = "defaults::points")]
    pub points: usize,
    /// Time of one learned (network) step `Δt`.
    #[serde(default = "defaults::dt")]
    pub dt: f64,
    /// The truth's integrator.
    #[serde(default)]
    pub scheme: Integrator,
    /// The truth's sub-steps per learned step.
    #[serde(default = "defaults::substeps")]
    pub substeps: usize,
    /// The truth's grid is `N·fine` points, point-sampled onto the `N` of the state.
    #[serde(default = "defaults::one")]
    pub fine: usize,
    /// The 2/3 rule on the nonlinear terms (truth and coarse solver).
    #[serde(default = "defaults::yes")]
    pub dealias: bool,
    /// The coarse solver's ETD1 sub-steps per learned step (KS: 2, the paper's double step).
    #[serde(default = "defaults::one")]
    pub coarse: usize,
    /// The parameter a study varies between training and test trajectories.
    #[serde(default)]
    pub vary: Term,
    /// Training values of `vary` (empty: [`Equation::default_values`]).
    #[serde(default)]
    pub train: Vec<f64>,
    /// Test values of `vary` (empty: [`Equation::default_values`]).
    #[serde(default)]
    pub test: Vec<f64>,
    /// Learned steps of the truth dropped before the first kept frame.
    #[serde(default = "defaults::warmup")]
    pub warmup: usize,
    /// Frames kept per training trajectory.
    #[serde(default = "defaults::frames")]
    pub frames: usize,
    /// Training initial states per parameter value.
    #[serde(default = "defaults::states")]
    pub states: usize,
    /// Tests per test value.
    #[serde(default = "defaults::tests")]
    pub tests: usize,
    /// Steps of a test rollout.
    #[serde(default = "defaults::rollout")]
    pub rollout: usize,
}

/// The defaults of the optional settings.
mod defaults {
    pub fn length() -> f64 {
        8.0
    }
    pub fn points() -> usize {
        48
    }
    pub fn dt() -> f64 {
        1.0
    }
    pub fn substeps() -> usize {
        4
    }
    pub fn one() -> usize {
        1
    }
    pub fn yes() -> bool {
        true
    }
    pub fn warmup() -> usize {
        50
    }
    pub fn frames() -> usize {
        250
    }
    pub fn states() -> usize {
        6
    }
    pub fn tests() -> usize {
        5
    }
    pub fn rollout() -> usize {
        100
    }
}

/// The factors of the varied parameter's own value that make its default training and test
/// values (the KS study's domain scales).
pub const DEFAULT_TRAIN_FACTORS: [f64; 6] = [0.9, 0.95, 1.0, 1.1, 1.2, 1.3];
/// The default test factors (interpolation 0.93, 1.15; extrapolation 0.85, 1.4).
pub const DEFAULT_TEST_FACTORS: [f64; 4] = [0.85, 0.93, 1.15, 1.4];

impl Default for Equation {
    /// KS with the generic defaults: `a2 = a4 = b = −1`, `L = 8`, `N = 48`, `Δt = 1`.
    fn default() -> Self {
        Self {
            a: [0.0, 0.0, -1.0, 0.0, -1.0],
            b: -1.0,
            c: 0.0,
            d: 0.0,
            e: 0.0,
            length: defaults::length(),
            points: defaults::points(),
            dt: defaults::dt(),
            scheme: Integrator::default(),
            substeps: defaults::substeps(),
            fine: 1,
            dealias: true,
            coarse: 1,
            vary: Term::L,
            train: Vec::new(),
            test: Vec::new(),
            warmup: defaults::warmup(),
            frames: defaults::frames(),
            states: defaults::states(),
            tests: defaults::tests(),
            rollout: defaults::rollout(),
        }
    }
}

/// Why a text or JSON equation is refused: one sentence naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EquationError(pub String);

pub(super) fn refuse<T>(message: impl Into<String>) -> Result<T, EquationError> {
    Err(EquationError(message.into()))
}

impl Equation {
    /// The coefficient of `term` (`L`: the domain length).
    pub fn get(&self, term: Term) -> f64 {
        match term {
            Term::A0 => self.a[0],
            Term::A1 => self.a[1],
            Term::A2 => self.a[2],
            Term::A3 => self.a[3],
            Term::A4 => self.a[4],
            Term::B => self.b,
            Term::C => self.c,
            Term::D => self.d,
            Term::E => self.e,
            Term::L => self.length,
        }
    }

    /// Sets the coefficient of `term` (`L`: the domain length).
    pub fn set(&mut self, term: Term, value: f64) {
        match term {
            Term::A0 => self.a[0] = value,
            Term::A1 => self.a[1] = value,
            Term::A2 => self.a[2] = value,
            Term::A3 => self.a[3] = value,
            Term::A4 => self.a[4] = value,
            Term::B => self.b = value,
            Term::C => self.c = value,
            Term::D => self.d = value,
            Term::E => self.e = value,
            Term::L => self.length = value,
        }
    }

    /// The equation at `value` of its varied parameter.
    pub fn at(&self, value: f64) -> Equation {
        let mut out = self.clone();
        out.set(self.vary, value);
        out
    }

    /// The factors × the varied parameter's own value (its value itself where that is 0).
    pub fn default_values(&self, factors: &[f64]) -> Vec<f64> {
        let base = self.get(self.vary);
        if base == 0.0 {
            return vec![0.0];
        }
        factors.iter().map(|f| f * base).collect()
    }

    /// Training values of the varied parameter (given, or the defaults).
    pub fn train_values(&self) -> Vec<f64> {
        if self.train.is_empty() {
            self.default_values(&DEFAULT_TRAIN_FACTORS)
        } else {
            self.train.clone()
        }
    }

    /// Test values of the varied parameter (given, or the defaults).
    pub fn test_values(&self) -> Vec<f64> {
        if self.test.is_empty() {
            self.default_values(&DEFAULT_TEST_FACTORS)
        } else {
            self.test.clone()
        }
    }

    /// The network's constant input channel at `value`: `value` over the equation's own value
    /// of the varied parameter (KS's `s = L/8` where `L = 8`), or `value` where that is 0.
    pub fn channel(&self, value: f64) -> f64 {
        let base = self.get(self.vary);
        if base == 0.0 {
            value
        } else {
            value / base
        }
    }

    /// Points of the truth's grid, `N·fine`.
    pub fn fine_points(&self) -> usize {
        self.points * self.fine
    }

    /// Every bound of the numbers (not the physics: the solvers check that), naming the key.
    pub fn check(&self) -> Result<(), EquationError> {
        for term in Term::COEFFICIENTS {
            let v = self.get(term);
            if !(v.is_finite() && v.abs() <= bounds::COEFFICIENT) {
                return refuse(format!(
                    "coefficient {term} must be a finite number of at most {:e} in size, got {}",
                    bounds::COEFFICIENT,
                    shown(v)
                ));
            }
        }
        if Term::COEFFICIENTS.iter().all(|&t| self.get(t) == 0.0) {
            return refuse("the equation has no term: give at least one coefficient (a2=-1, b=-1)");
        }
        positive("L", self.length, bounds::LENGTH)?;
        positive("dt", self.dt, bounds::LENGTH)?;
        within("N", self.points, bounds::POINTS)?;
        within("fine", self.fine, (1, bounds::FINE))?;
        if self.fine_points() > bounds::FINE_POINTS {
            return refuse(format!(
                "the truth's grid N·fine = {} is above {} points",
                self.fine_points(),
                bounds::FINE_POINTS
            ));
        }
        within("substeps", self.substeps, (1, bounds::SUBSTEPS))?;
        if self.substeps * self.fine_points() > bounds::WORK {
            return refuse(format!(
                "the truth's work per step, substeps × N·fine = {} × {}, is above {}: take \
                 fewer sub-steps or a smaller grid",
                self.substeps,
                self.fine_points(),
                bounds::WORK
            ));
        }
        within("coarse", self.coarse, (1, bounds::COARSE))?;
        within("warmup", self.warmup, (0, bounds::WARMUP))?;
        within("frames", self.frames, bounds::FRAMES)?;
        within("states", self.states, (1, bounds::STATES))?;
        within("tests", self.tests, (1, bounds::STATES))?;
        within("rollout", self.rollout, bounds::ROLLOUT)?;
        self.check_values()
    }

    /// The training and test values: counts, finite, `L` positive.
    fn check_values(&self) -> Result<(), EquationError> {
        let lists = [
            ("train", self.train_values(), bounds::TRAIN_VALUES),
            ("test", self.test_values(), bounds::TEST_VALUES),
        ];
        for (key, values, most) in lists {
            if values.is_empty() || values.len() > most {
                return refuse(format!(
                    "{key} takes 1 to {most} values, got {}",
                    values.len()
                ));
            }
            for &v in &values {
                if self.vary == Term::L {
                    positive(key, v, bounds::LENGTH)?;
                } else if !(v.is_finite() && v.abs() <= bounds::COEFFICIENT) {
                    return refuse(format!(
                        "{key} value {} of {} is not a finite coefficient",
                        shown(v),
                        self.vary
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A number as a message shows it: plainly where it is short, in exponent form otherwise.
pub(super) fn shown(value: f64) -> String {
    let plain = value.to_string();
    if plain.len() <= 16 {
        plain
    } else {
        format!("{value:e}")
    }
}

fn positive(key: &str, value: f64, most: f64) -> Result<(), EquationError> {
    if value.is_finite() && value > 0.0 && value <= most {
        Ok(())
    } else {
        refuse(format!(
            "{key} must be a positive number of at most {most}, got {}",
            shown(value)
        ))
    }
}

fn within(key: &str, value: usize, (least, most): (usize, usize)) -> Result<(), EquationError> {
    if (least..=most).contains(&value) {
        Ok(())
    } else {
        refuse(format!(
            "{key} must be a whole number in {least}..={most}, got {value}"
        ))
    }
}
