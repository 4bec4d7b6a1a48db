//! The page's equation editor as plain data: every field of a reader's equation as the text in
//! its box (a coefficient beside its term, `L`, `N`, `Δt`, the varied parameter and its
//! training and test values), the equation they write, and the system they make once every
//! check passes — the text's and the physics' ([`unroll_core::types::Equation`]'s bounds,
//! then the system's own checks of its quick study: growth at the highest mode, the truth and
//! the coarse solver bounded), so a refused equation is a message before anything trains.

use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::types::{Equation, Term};

/// The editor's boxes, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquationForm {
    /// `a0`…`a4`, `b`, `c`, `d`, `e` in [`Term::COEFFICIENTS`] order (empty: 0).
    pub coefficients: [String; 9],
    /// `L`.
    pub length: String,
    /// `N`.
    pub points: String,
    /// `Δt`.
    pub dt: String,
    /// The varied parameter's name (`L`, `a2`, …).
    pub vary: String,
    /// Training values, separated by `/` or `,` (empty: the defaults).
    pub train: String,
    /// Test values (empty: the defaults).
    pub test: String,
    /// The other settings as text (`scheme=etrk2;substeps=2`), kept from the equation.
    pub rest: String,
}

fn number(v: f64) -> String {
    if v == 0.0 {
        String::new()
    } else {
        v.to_string()
    }
}

fn values(list: &[f64]) -> String {
    list.iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join("/")
}

impl EquationForm {
    /// The boxes of `equation`.
    pub fn of(equation: &Equation) -> Self {
        let rest = Equation {
            a: [0.0; 5],
            b: -1.0,
            c: 0.0,
            d: 0.0,
            e: 0.0,
            length: Equation::default().length,
            points: Equation::default().points,
            dt: Equation::default().dt,
            vary: Term::L,
            train: Vec::new(),
            test: Vec::new(),
            ..equation.clone()
        }
        .text();
        Self {
            coefficients: Term::COEFFICIENTS.map(|t| number(equation.get(t))),
            length: equation.length.to_string(),
            points: equation.points.to_string(),
            dt: equation.dt.to_string(),
            vary: equation.vary.name().to_string(),
            train: values(&equation.train),
            test: values(&equation.test),
            rest: rest
                .split_once(';')
                .map_or(String::new(), |(_, r)| r.to_string()),
        }
    }

    /// The text form of the boxes (an empty coefficient box is 0).
    pub fn text(&self) -> String {
        let mut items: Vec<String> = Term::COEFFICIENTS
            .iter()
            .zip(&self.coefficients)
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(t, v)| format!("{t}={}", v.trim()))
            .collect();
        for (key, value) in [
            ("L", &self.length),
            ("N", &self.points),
            ("dt", &self.dt),
            ("vary", &self.vary),
            ("train", &self.train.replace(',', "/")),
            ("test", &self.test.replace(',', "/")),
        ] {
            if !value.trim().is_empty() {
                items.push(format!("{key}={}", value.trim()));
            }
        }
        if !self.rest.trim().is_empty() {
            items.push(self.rest.trim().to_string());
        }
        items.join(";")
    }

    /// The equation the boxes write, in words (`u_t = −1·∂ₓ²u + …`), or why they do not.
    pub fn written(&self) -> Result<String, String> {
        let equation = Equation::parse(&self.text()).map_err(|e| e.to_string())?;
        let terms: Vec<String> = Term::COEFFICIENTS
            .iter()
            .filter(|&&t| equation.get(t) != 0.0)
            .map(|&t| format!("{}·{}", equation.get(t), t.written()))
            .collect();
        Ok(format!("u_t = {}", terms.join(" + ")))
    }

    /// The system of the boxes once every check passes, or the first refusal in words.
    pub fn system(&self) -> Result<System, String> {
        let system: System = format!("custom:{}", self.text())
            .parse()
            .map_err(|err: unroll_core::names::UnknownName| err.expected)?;
        let description = system.description();
        description
            .preset(Preset::Quick, 1)
            .validate(description)
            .map_err(|err| err.to_string())?;
        Ok(system)
    }
}

/// exponax's stepper of the same equation (Python), where one generic stepper holds it:
/// `GeneralNonlinearStepper` (linear orders 0–4 and `(b₀, b₁, b₂) = (d, b, c)`) without a cubic
/// term, `GeneralPolynomialStepper` (`(0, 0, d, e)`) with one and no derivative nonlinearity;
/// `None` where the equation needs both. exponax's wavenumbers are `2π·m/extent`, so its
/// `domain_extent` is `2π·L`; its `order` is the truth's (ETD1 1, ETRK2 2, ETDRK4 4) and its
/// step `Δt/substeps`, repeated. Its 2/3 rule masks the state before the products (ours masks
/// the products), and it draws its own initial states: the trajectories differ to that extent.
pub fn exponax_snippet(equation: &Equation) -> Option<Vec<String>> {
    let derivative_terms = equation.b != 0.0 || equation.c != 0.0;
    if derivative_terms && equation.e != 0.0 {
        return None;
    }
    let a = equation.a.map(|v| v.to_string()).join(", ");
    let (stepper, nonlinear) = if equation.e != 0.0 {
        let p = format!("(0.0, 0.0, {}, {})", equation.d, equation.e);
        (
            "GeneralPolynomialStepper",
            format!("polynomial_coefficients={p},"),
        )
    } else {
        let n = format!("({}, {}, {})", equation.d, equation.b, equation.c);
        (
            "GeneralNonlinearStepper",
            format!("nonlinear_coefficients={n},"),
        )
    };
    let order = match equation.scheme {
        unroll_core::types::Integrator::Etd1 => 1,
        unroll_core::types::Integrator::Etrk2 => 2,
        unroll_core::types::Integrator::Etdrk4 => 4,
    };
    let dealias = if equation.dealias { "2 / 3" } else { "1.0" };
    Some(vec![
        "import jax.numpy as jnp".to_string(),
        "import exponax as ex".to_string(),
        format!("stepper = ex.RepeatedStepper(ex.stepper.generic.{stepper}("),
        format!(
            "    1, 2 * jnp.pi * {}, {}, {} / {},",
            equation.length,
            equation.fine_points(),
            equation.dt,
            equation.substeps
        ),
        format!("    linear_coefficients=({a}),"),
        format!("    {nonlinear}"),
        format!("    order={order}, dealiasing_fraction={dealias}, num_circle_points=64,"),
        format!(
            "), {})  # one learned step Δt = {}",
            equation.substeps, equation.dt
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boxes_make_the_equation_or_say_why_not() {
        let ks = Equation::parse("a2=-1,a4=-1,b=-1;coarse=2;scheme=etrk2;substeps=2;dealias=off")
            .expect("ks");
        let mut form = EquationForm::of(&ks);
        assert_eq!(form.coefficients[2], "-1");
        assert_eq!(form.coefficients[0], "");
        assert_eq!(Equation::parse(&form.text()).expect("back"), ks);
        assert!(form.written().expect("words").starts_with("u_t = -1·∂ₓ²u"));
        let system = form.system().expect("KS passes");
        assert_eq!(system.equation(), Some(&ks));
        form.coefficients[4] = String::new();
        let err = form.system().expect_err("anti-diffusion alone");
        assert!(err.contains("highest mode"), "{err}");
        form.coefficients[4] = "x".into();
        assert!(form
            .written()
            .expect_err("bad")
            .contains("a4 takes a finite number"));
        form.coefficients[4] = "-1".into();
        form.train = "8, 9".into();
        form.test = "8.5".into();
        let system = form.system().expect("values");
        assert_eq!(system.equation().expect("eq").train, vec![8.0, 9.0]);
    }

    /// A chosen equation is in the URL: the query reads back to the same experiment, and a
    /// refused equation there is named.
    #[test]
    fn the_equation_travels_in_the_url() {
        use crate::experiment::Experiment;
        let form = EquationForm::of(
            &Equation::parse("a2=-1,a3=-0.5,a4=-1,b=-1;dealias=off;coarse=4").expect("eq"),
        );
        let system = form.system().expect("valid");
        let mut experiment = Experiment::default();
        experiment.set_system(system);
        let query = experiment.to_query();
        assert!(query.contains("system=custom:a2=-1,a3=-0.5"), "{query}");
        let (back, ignored) = Experiment::from_query(&query);
        assert!(ignored.is_empty(), "{ignored:?}");
        assert_eq!(back, experiment);
        let command = experiment.cli_command();
        assert!(
            command.contains("--system 'custom:a2=-1,a3=-0.5,a4=-1,b=-1;dealias=off;coarse=4'"),
            "{command}"
        );
        let (_, ignored) = Experiment::from_query("system=custom:a2=x");
        assert!(
            ignored
                .iter()
                .any(|m| m.contains("a2 takes a finite number")),
            "{ignored:?}"
        );
    }

    #[test]
    fn the_exponax_snippet_carries_the_same_numbers() {
        let ks =
            Equation::parse("a2=-1,a4=-1,b=-1;scheme=etrk2;substeps=2;dealias=off").expect("ks");
        let lines = exponax_snippet(&ks).expect("snippet").join("\n");
        assert!(lines.contains("GeneralNonlinearStepper"), "{lines}");
        assert!(lines.contains("1, 2 * jnp.pi * 8, 48, 1 / 2,"), "{lines}");
        assert!(
            lines.contains("linear_coefficients=(0, 0, -1, 0, -1)"),
            "{lines}"
        );
        assert!(
            lines.contains("nonlinear_coefficients=(0, -1, 0)"),
            "{lines}"
        );
        assert!(
            lines.contains("order=2, dealiasing_fraction=1.0"),
            "{lines}"
        );
        let sh = Equation::parse("a0=-0.8,a2=-2,a4=-1,d=0.1,e=-1").expect("sh");
        let lines = exponax_snippet(&sh).expect("snippet").join("\n");
        assert!(
            lines.contains("polynomial_coefficients=(0.0, 0.0, 0.1, -1)"),
            "{lines}"
        );
        let both = Equation::parse("a2=1,b=-1,e=-1").expect("both");
        assert_eq!(exponax_snippet(&both), None);
    }
}
