//! What is wrong with a knob's value, typed once and worded for each surface: next to the form
//! field, in the URL notice (`channels '999' is not a number in 1..=64: using the default`) and on
//! the command line (`--channels must be between 1 and 256 channels`).

use super::knob::{Kind, Knob, Value};
use super::limits::{range_text, Target};
use unroll_core::names::UnknownName;
use unroll_core::nets::Architecture;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};
use unroll_core::types::SolverSetup;

/// A problem with one knob's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Not a number (or not a whole number).
    NotANumber,
    /// A negative whole number.
    Negative(i64),
    /// A list entry that is not a number.
    BadToken(String),
    /// An unknown name.
    Unknown(UnknownName),
    /// A system that is listed but not available yet.
    Coming(String),
    /// A list names an entry twice.
    Repeated(String),
    /// An empty list.
    Empty,
    /// Out of range: `between 1 and 64 channels`, `in [0, 1) …`.
    Range(String),
    /// Otherwise invalid, in a sentence.
    Invalid(String),
    /// The knob does not apply to the preset (its grid sets it).
    NotApplicable(Preset),
}

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

fn names<T: std::str::FromStr<Err = UnknownName>>(text: &str) -> Result<Vec<T>, Problem> {
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    text.split(',')
        .map(|t| t.trim().parse::<T>().map_err(Problem::Unknown))
        .collect()
}

impl Knob {
    /// Reads the knob's value from text (URL, CLI, form); a syntax problem otherwise. Ranges are
    /// checked by [`super::check::check`].
    pub fn parse(self, text: &str) -> Result<Value, Problem> {
        let trimmed = text.trim();
        match self.kind() {
            Kind::Count => trimmed.parse::<usize>().map(Value::Count).map_err(|_| {
                match trimmed.parse::<i64>() {
                    Ok(v) if v < 0 => Problem::Negative(v),
                    _ => Problem::NotANumber,
                }
            }),
            Kind::Real => trimmed
                .parse::<f64>()
                .map(Value::Real)
                .map_err(|_| Problem::NotANumber),
            Kind::Reals => {
                if trimmed.is_empty() {
                    return Err(Problem::Empty);
                }
                trimmed
                    .split(',')
                    .map(|t| {
                        t.trim()
                            .parse::<f64>()
                            .map_err(|_| Problem::BadToken(clip(t.trim())))
                    })
                    .collect::<Result<_, _>>()
                    .map(Value::Reals)
            }
            Kind::Names => match self {
                Knob::Modes => names::<Mode>(text).map(Value::Modes),
                Knob::Modalities => names::<Modality>(text).map(Value::Modalities),
                Knob::Architectures => names::<Architecture>(text).map(Value::Architectures),
                Knob::Architecture => trimmed
                    .parse::<Architecture>()
                    .map(Value::Architecture)
                    .map_err(Problem::Unknown),
                Knob::Solver => Ok(Value::Solver(SolverSetup::named(trimmed))),
                _ => trimmed.parse::<System>().map(Value::System).map_err(|err| {
                    if System::is_coming(trimmed) {
                        Problem::Coming(clip(trimmed))
                    } else {
                        Problem::Unknown(err)
                    }
                }),
            },
        }
    }
}

impl Problem {
    /// Next to the form field: `must be between 1 and 64 channels`, `select at least one mode`.
    pub fn for_form(&self, knob: Knob) -> String {
        match self {
            Problem::Range(range) => format!("must be {range}"),
            Problem::Empty => format!("select at least one {}", knob.unit()),
            Problem::Repeated(item) => format!("{item} is listed twice"),
            Problem::Invalid(sentence) => sentence.clone(),
            other => other.for_url(knob, Target::Browser),
        }
    }

    /// After `key 'value'` in the URL notice.
    pub fn for_url(&self, knob: Knob, target: Target) -> String {
        match (self, knob.kind()) {
            (_, Kind::Count | Kind::Real) => {
                format!("is not a number in {}", range_text(knob, target))
            }
            (Problem::Range(_), _) if knob == Knob::LearningRate => {
                format!("is not a number in {}", range_text(knob, target))
            }
            (Problem::Unknown(err), _)
                if matches!(knob, Knob::Modes | Knob::Modalities | Knob::Architectures) =>
            {
                format!(
                    "names an unknown {} '{}' (expected {})",
                    err.what, err.got, err.expected
                )
            }
            (Problem::Unknown(err), _) if err.what == "equation" => {
                format!("is not an equation this page can study: {}", err.expected)
            }
            (Problem::Unknown(err), _) => format!("is unknown (expected {})", err.expected),
            (Problem::Coming(_), _) => "is not available yet".into(),
            (Problem::Repeated(item), _) => format!("lists {item} twice"),
            (Problem::Empty, _) => "is an empty list".into(),
            (Problem::BadToken(_), _) => "is not a comma-separated list of numbers".into(),
            (Problem::Invalid(sentence), _) => format!("is invalid ({sentence})"),
            (Problem::Range(range), _) => format!("must be {range}"),
            (Problem::NotANumber | Problem::Negative(_), _) => "is not a number".into(),
            (Problem::NotApplicable(preset), _) => {
                format!("does not apply to the {preset} preset")
            }
        }
    }

    /// One line on the command line for `--flag text`.
    pub fn for_cli(&self, knob: Knob, text: &str) -> String {
        let flag = knob.flag();
        match self {
            Problem::Negative(v) => format!("--{flag} must be non-negative, got {v}"),
            Problem::NotANumber => format!(
                "invalid value '{}' for '--{flag}': not a number",
                clip(text)
            ),
            Problem::BadToken(token) => {
                format!("invalid value '{token}' for '--{flag}': not a number")
            }
            Problem::Unknown(err) => err.to_string(),
            Problem::Coming(name) => format!(
                "system '{name}' is listed but not available yet (expected {})",
                unroll_core::names::in_words(&System::ALL.map(System::name))
            ),
            Problem::Repeated(item) => format!("--{flag} lists {item} twice"),
            Problem::Empty => format!("--{flag} is an empty list"),
            Problem::Range(range) => format!("--{flag} must be {range}"),
            Problem::Invalid(sentence) => format!("--{flag}: {sentence}"),
            Problem::NotApplicable(preset) => format!(
                "--{flag} does not apply to --preset {preset} (its grid sets the {})",
                match preset {
                    Preset::Sizes => "network sizes",
                    _ => "horizons",
                }
            ),
        }
    }
}
