//! A system's coarse-solver set-up by name: which scheme, which gradient and which data path
//! the study runs (Kolmogorov: `piso`, `piso-exact`, `piso-official`, `ssp-rk3`). The empty
//! name is the system's default, the paper's; a system lists the names it offers with
//! [`SetupWords`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// A set-up name (`""`: the system's default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SolverSetup(String);

impl SolverSetup {
    /// The set-up called `name` (not yet checked against a system's list).
    pub fn named(name: &str) -> Self {
        Self(name.trim().to_string())
    }

    /// Its name (`""` for the default).
    pub fn name(&self) -> &str {
        &self.0
    }

    /// True for the system's default.
    pub fn is_default(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for SolverSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One set-up a system offers: its name, its label in the form and in results, and how it
/// departs from the paper (`None`: it is the paper's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetupWords {
    /// In the URL and on the command line (`piso-exact`).
    pub name: &'static str,
    /// In the form and the results (`PISO, exact gradient`).
    pub label: &'static str,
    /// The deviation from the paper's set-up, one sentence; `None` for the paper's.
    pub deviation: Option<&'static str>,
}

/// The entry of `setup` in `offered` (the first is the default, which the empty name means).
pub fn find<'a>(offered: &'a [SetupWords], setup: &SolverSetup) -> Option<&'a SetupWords> {
    if setup.is_default() {
        return offered.first();
    }
    offered.iter().find(|words| words.name == setup.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OFFERED: [SetupWords; 2] = [
        SetupWords {
            name: "a",
            label: "A",
            deviation: None,
        },
        SetupWords {
            name: "b",
            label: "B",
            deviation: Some("not the paper's"),
        },
    ];

    #[test]
    fn the_empty_name_is_the_first_and_unknown_names_are_none() {
        assert_eq!(find(&OFFERED, &SolverSetup::default()), Some(&OFFERED[0]));
        assert_eq!(
            find(&OFFERED, &SolverSetup::named(" b ")),
            Some(&OFFERED[1])
        );
        assert_eq!(find(&OFFERED, &SolverSetup::named("c")), None);
        assert_eq!(find(&[], &SolverSetup::default()), None);
        let json = serde_json::to_string(&SolverSetup::named("b")).expect("json");
        assert_eq!(json, "\"b\"");
    }
}
