//! A knob's typed value, and its text in the URL, on the command line and in a form field.

use std::fmt;

use unroll_core::nets::Architecture;
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};
use unroll_core::types::SolverSetup;

/// A knob's typed value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A whole number.
    Count(usize),
    /// A real number.
    Real(f64),
    /// Real numbers.
    Reals(Vec<f64>),
    /// Modes.
    Modes(Vec<Mode>),
    /// Modalities.
    Modalities(Vec<Modality>),
    /// An architecture.
    Architecture(Architecture),
    /// Architectures.
    Architectures(Vec<Architecture>),
    /// A system.
    System(System),
    /// A coarse-solver set-up.
    Solver(SolverSetup),
}

fn join<T: ToString>(items: &[T], separator: &str) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

impl fmt::Display for Value {
    /// The URL / CLI text: numbers as Rust prints them, lists joined by commas.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(v) => write!(f, "{v}"),
            Value::Real(v) => write!(f, "{v}"),
            Value::Reals(v) => f.write_str(&join(v, ",")),
            Value::Modes(v) => f.write_str(&join(v, ",")),
            Value::Modalities(v) => f.write_str(&join(v, ",")),
            Value::Architecture(v) => write!(f, "{v}"),
            Value::Architectures(v) => f.write_str(&join(v, ",")),
            Value::System(v) => write!(f, "{v}"),
            Value::Solver(v) => write!(f, "{v}"),
        }
    }
}

impl Value {
    /// The text a form field shows (lists of numbers spaced: `0.9, 1, 1.1`).
    pub fn form_text(&self) -> String {
        match self {
            Value::Reals(v) => join(v, ", "),
            other => other.to_string(),
        }
    }
}
