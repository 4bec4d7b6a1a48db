//! The text form of a reader's equation: `key=value` items separated by `,` or `;`
//! (`a2=-1,a4=-1,b=-1;L=8;N=48`), or a JSON object; read with every number checked and the
//! error naming its key, and written back canonically (defaults left out).

use std::fmt::Write as _;

use super::equation::{refuse, Equation, EquationError, Term};

/// The keys of the text form besides the coefficients' (`a0`…`e`, `L`).
const SETTINGS: [&str; 15] = [
    "N", "dt", "scheme", "substeps", "fine", "dealias", "coarse", "vary", "train", "test",
    "warmup", "frames", "states", "tests", "rollout",
];

fn number(key: &str, value: &str) -> Result<f64, EquationError> {
    match value.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => refuse(format!(
            "{key} takes a finite number, got '{}'",
            clip(value)
        )),
    }
}

fn count(key: &str, value: &str) -> Result<usize, EquationError> {
    value
        .parse::<usize>()
        .or_else(|_| refuse(format!("{key} takes a whole number, got '{}'", clip(value))))
}

fn list(key: &str, value: &str) -> Result<Vec<f64>, EquationError> {
    value.split('/').map(|v| number(key, v.trim())).collect()
}

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

impl Equation {
    /// Reads the text form: `key=value` items separated by `,` or `;` — the coefficients
    /// (`a0`…`a4`, `b`, `c`, `d`, `e`; absent ones are 0), `L`, `N`, `dt`, `scheme`
    /// (`etd1|etrk2|etdrk4`, the truth's), `substeps`, `fine`, `dealias` (`on|off`), `coarse`,
    /// `vary` (a coefficient or `L`), `train` / `test` (values separated by `/`), `warmup`,
    /// `frames`, `states`, `tests`, `rollout`; or a JSON object (text starting with `{`).
    /// Every number is checked ([`Equation::check`]); the error names the key.
    pub fn parse(text: &str) -> Result<Self, EquationError> {
        let text = text.trim();
        if text.starts_with('{') {
            let equation: Equation = serde_json::from_str(text)
                .or_else(|err| refuse(format!("the equation's JSON is not read: {err}")))?;
            equation.check()?;
            return Ok(equation);
        }
        let mut equation = Equation {
            a: [0.0; 5],
            b: 0.0,
            ..Equation::default()
        };
        let mut seen: Vec<&str> = Vec::new();
        for item in text
            .split([',', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let Some((key, value)) = item.split_once('=') else {
                return refuse(format!("'{}' is not key=value (as in a2=-1)", clip(item)));
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return refuse(format!("{} is given twice", clip(key)));
            }
            equation.read(key, value)?;
            seen.push(key);
        }
        equation.check()?;
        Ok(equation)
    }

    /// Sets `key` from its text `value`.
    fn read(&mut self, key: &str, value: &str) -> Result<(), EquationError> {
        if let Ok(term) = key.parse::<Term>() {
            self.set(term, number(key, value)?);
            return Ok(());
        }
        match key {
            "N" => self.points = count(key, value)?,
            "dt" => self.dt = number(key, value)?,
            "scheme" => {
                self.scheme = value
                    .parse()
                    .or_else(|err| refuse(format!("scheme: {err}")))?
            }
            "substeps" => self.substeps = count(key, value)?,
            "fine" => self.fine = count(key, value)?,
            "dealias" => self.dealias = flag(value)?,
            "coarse" => self.coarse = count(key, value)?,
            "vary" => {
                self.vary = value
                    .parse()
                    .or_else(|err| refuse(format!("vary: {err}")))?
            }
            "train" => self.train = list(key, value)?,
            "test" => self.test = list(key, value)?,
            "warmup" => self.warmup = count(key, value)?,
            "frames" => self.frames = count(key, value)?,
            "states" => self.states = count(key, value)?,
            "tests" => self.tests = count(key, value)?,
            "rollout" => self.rollout = count(key, value)?,
            _ => {
                let mut keys: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
                keys.extend(SETTINGS);
                return refuse(format!(
                    "unknown key '{}' (expected {})",
                    clip(key),
                    crate::names::in_words(&keys)
                ));
            }
        }
        Ok(())
    }

    /// The canonical text form: the non-zero coefficients, then every setting that differs
    /// from its default; [`Equation::parse`] reads it back to an equal equation.
    pub fn text(&self) -> String {
        let terms: Vec<String> = Term::COEFFICIENTS
            .iter()
            .filter(|&&t| self.get(t) != 0.0)
            .map(|&t| format!("{t}={}", self.get(t)))
            .collect();
        let mut out = terms.join(",");
        let d = Equation::default();
        let mut add = |key: &str, value: String, default: String| {
            if value != default {
                let _ = write!(out, ";{key}={value}");
            }
        };
        add("L", self.length.to_string(), d.length.to_string());
        add("N", self.points.to_string(), d.points.to_string());
        add("dt", self.dt.to_string(), d.dt.to_string());
        add("scheme", self.scheme.to_string(), d.scheme.to_string());
        add(
            "substeps",
            self.substeps.to_string(),
            d.substeps.to_string(),
        );
        add("fine", self.fine.to_string(), d.fine.to_string());
        let onoff = |b: bool| if b { "on" } else { "off" }.to_string();
        add("dealias", onoff(self.dealias), onoff(d.dealias));
        add("coarse", self.coarse.to_string(), d.coarse.to_string());
        add("vary", self.vary.to_string(), d.vary.to_string());
        let joined = |v: &[f64]| v.iter().map(f64::to_string).collect::<Vec<_>>().join("/");
        add("train", joined(&self.train), String::new());
        add("test", joined(&self.test), String::new());
        add("warmup", self.warmup.to_string(), d.warmup.to_string());
        add("frames", self.frames.to_string(), d.frames.to_string());
        add("states", self.states.to_string(), d.states.to_string());
        add("tests", self.tests.to_string(), d.tests.to_string());
        add("rollout", self.rollout.to_string(), d.rollout.to_string());
        out
    }
}

fn flag(value: &str) -> Result<bool, EquationError> {
    match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => refuse(format!("dealias takes on or off, got '{}'", clip(value))),
    }
}

impl std::fmt::Display for Equation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}
