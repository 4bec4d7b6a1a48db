//! Which system, the shape of its state and the parameter varied between its cases: plain
//! data, the same for every layer. Each system's implementation is found through the registry
//! ([`crate::system`]).

use serde::{Deserialize, Serialize};

pub use super::equation::Equation;
pub use super::equation_id::EquationId;
use crate::names::UnknownName;

/// The simulated systems. `Custom` is a reader's equation ([`super::equation`]), interned:
/// its name (configs, URLs, plans, results files) is `custom:` and the whole equation's
/// canonical text, so a file or a link made with it reproduces it in another process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum System {
    /// The 1-D Kuramoto–Sivashinsky equation of the study.
    #[default]
    Ks,
    /// 2-D Kolmogorov flow (incompressible Navier–Stokes with sinusoidal forcing).
    Kolmogorov,
    /// 1-D viscous Burgers (this app's third system; not in the paper).
    Burgers,
    /// A reader's 1-D periodic semilinear equation (not in the paper).
    Custom(EquationId),
}

/// The prefix of a reader's equation in a system's name.
pub const EQUATION_PREFIX: &str = "custom";

impl System {
    /// Every system, in menu order (the reader's equation as its default one).
    pub const ALL: [System; 4] = [
        System::Ks,
        System::Kolmogorov,
        System::Burgers,
        System::Custom(EquationId::DEFAULT),
    ];

    /// The name used in configs, URLs and on the command line (`ks`; a reader's equation:
    /// `custom:` and its canonical text).
    pub fn name(self) -> &'static str {
        match self {
            System::Ks => "ks",
            System::Kolmogorov => "kolmogorov",
            System::Burgers => "burgers",
            System::Custom(id) => id.name(),
        }
    }

    /// The reader's equation of this system, where it is one.
    pub fn equation(self) -> Option<&'static Equation> {
        match self {
            System::Custom(id) => Some(id.equation()),
            _ => None,
        }
    }

    /// Whether this is the default system, the one a file written before there was a choice
    /// means (serde's `skip_serializing_if`: such files stay as they were).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

impl std::fmt::Display for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for System {
    type Err = UnknownName;

    /// A system's name; `custom` alone is the default equation, `custom:TEXT` the equation of
    /// `TEXT` ([`Equation::parse`]: a refused one says why in `expected`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if let Some(found) = System::ALL[..3].iter().find(|s| s.name() == text) {
            return Ok(*found);
        }
        match text.split_once(':') {
            _ if text == EQUATION_PREFIX => Ok(System::Custom(EquationId::DEFAULT)),
            Some((EQUATION_PREFIX, equation)) => EquationId::parse(equation)
                .map(System::Custom)
                .map_err(|err| UnknownName {
                    what: "equation",
                    got: equation.chars().take(40).collect(),
                    expected: err.to_string(),
                }),
            _ => Err(UnknownName::new(
                "system",
                text,
                &["ks", "kolmogorov", "burgers", "custom:EQUATION"],
            )),
        }
    }
}

impl Serialize for System {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for System {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The shape of one state: `channels` fields on a grid of `points` per spatial dimension
/// (KS: 1 channel on 48 points; Kolmogorov: the 2 velocity components on `N × N`). States travel
/// flattened, channel-major, `values()` numbers each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateShape {
    /// Fields per grid point.
    pub channels: usize,
    /// Grid points per spatial dimension.
    pub points: Vec<usize>,
}

impl StateShape {
    /// Numbers in one state.
    pub fn values(&self) -> usize {
        self.channels * self.points.iter().product::<usize>()
    }
}

/// The physical parameter that differs between training and test cases (KS: the domain scale
/// `s`, L = 8·s; Kolmogorov: the Reynolds number), with the range each surface accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// What it is, in words (`domain scale`).
    pub name: &'static str,
    /// Its symbol (`s`, `Re`).
    pub symbol: &'static str,
    /// One line on what it sets (`domain length L = 8·s`).
    pub meaning: &'static str,
    /// Accepted values natively (the numerics' own bounds).
    pub native: (f64, f64),
    /// Accepted values in the browser (tighter: data generation time and memory).
    pub browser: (f64, f64),
}
