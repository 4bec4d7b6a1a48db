//! Which system, the shape of its state and the parameter varied between its cases: plain
//! data, the same for every layer. Each system's implementation is found through the registry
//! ([`crate::numerics::system`]).

use serde::{Deserialize, Serialize};

/// The simulated systems.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// The 1-D Kuramoto–Sivashinsky equation of the study.
    #[default]
    Ks,
    /// 2-D Kolmogorov flow (incompressible Navier–Stokes with sinusoidal forcing).
    Kolmogorov,
    /// 1-D viscous Burgers (this app's third system; not in the paper).
    Burgers,
}

crate::named_enum!(System, "system", {
    Ks => "ks",
    Kolmogorov => "kolmogorov",
    Burgers => "burgers",
});

impl System {
    /// Whether this is the default system, the one a file written before there was a choice
    /// means (serde's `skip_serializing_if`: such files stay as they were).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
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
