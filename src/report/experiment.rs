//! The browser's experiment: a study preset plus the few knobs the panel exposes, validated per
//! field, encoded in the URL query (`?preset=headline&seeds=1&iterations=300`) and turned into
//! the [`StudyConfig`] the CLI would run, with the equivalent command line.

use serde::{Deserialize, Serialize};

use crate::numerics::metrics::{ERROR_HORIZON, STABILITY_HORIZON};
use crate::numerics::study::{StudyConfig, StudyPreset};
use crate::numerics::train::preset::Preset;

/// The panel's presets, the first being the default on page load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrowserPreset {
    /// Correction vs prediction (paper headline): P/C × ONE/NOG/WIG.
    Headline,
    /// Network size (convergence).
    Sizes,
    /// Unroll length.
    Horizons,
}

impl BrowserPreset {
    /// Every preset, default first.
    pub const ALL: [BrowserPreset; 3] = [
        BrowserPreset::Headline,
        BrowserPreset::Sizes,
        BrowserPreset::Horizons,
    ];

    /// URL name.
    pub fn name(self) -> &'static str {
        match self {
            BrowserPreset::Headline => "headline",
            BrowserPreset::Sizes => "sizes",
            BrowserPreset::Horizons => "horizons",
        }
    }

    /// Menu title.
    pub fn title(self) -> &'static str {
        match self {
            BrowserPreset::Headline => "Correction vs prediction (paper headline)",
            BrowserPreset::Sizes => "Network size (convergence)",
            BrowserPreset::Horizons => "Unroll length",
        }
    }

    /// The study preset it runs.
    pub fn study(self) -> StudyPreset {
        match self {
            BrowserPreset::Headline => StudyPreset::Quick,
            BrowserPreset::Sizes => StudyPreset::Sizes,
            BrowserPreset::Horizons => StudyPreset::Horizons,
        }
    }

    /// Parses [`BrowserPreset::name`].
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Default iterations per variant in the browser (CPU backend in wasm).
pub const BROWSER_ITERATIONS: usize = 300;
/// Largest accepted iterations per variant in the browser.
pub const MAX_BROWSER_ITERATIONS: usize = 20_000;
/// Largest accepted seeds in the browser.
pub const MAX_BROWSER_SEEDS: usize = 5;

/// Longest accepted evaluation rollout.
pub const MAX_ROLLOUT: usize = 5000;

/// What the panel runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    /// The grid.
    pub preset: BrowserPreset,
    /// Seeds per variant.
    pub seeds: usize,
    /// Training iterations per variant.
    pub iterations: usize,
    /// Rollout length of the correlation-time and stability evaluation (the study: 750).
    pub rollout: usize,
}

impl Default for Experiment {
    fn default() -> Self {
        Self {
            preset: BrowserPreset::Headline,
            seeds: 1,
            iterations: BROWSER_ITERATIONS,
            rollout: STABILITY_HORIZON,
        }
    }
}

/// A problem with one field: `(field, message)`.
pub type FieldError = (&'static str, String);

impl Experiment {
    /// Every field's problem (empty when valid).
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if !(1..=MAX_BROWSER_SEEDS).contains(&self.seeds) {
            errors.push(("seeds", format!("between 1 and {MAX_BROWSER_SEEDS} seeds")));
        }
        if !(1..=MAX_BROWSER_ITERATIONS).contains(&self.iterations) {
            errors.push((
                "iterations",
                format!("between 1 and {MAX_BROWSER_ITERATIONS} iterations per variant"),
            ));
        }
        if !(ERROR_HORIZON..=MAX_ROLLOUT).contains(&self.rollout) {
            errors.push((
                "rollout",
                format!("between {ERROR_HORIZON} and {MAX_ROLLOUT} steps"),
            ));
        }
        errors
    }

    /// The study it runs.
    pub fn study_config(&self) -> StudyConfig {
        let mut config = self.preset.study().config(self.seeds);
        config.base.iterations = self.iterations;
        config.eval.rollout_steps = self.rollout;
        config
    }

    /// Trainings and total iterations (for the time estimate shown before running).
    pub fn workload(&self) -> (usize, usize) {
        let trainings = self.study_config().variants().len() * self.seeds;
        (trainings, trainings * self.iterations)
    }

    /// Every deviation from the study, for the label next to the Run button.
    pub fn deviations(&self) -> Vec<String> {
        let mut out = vec![format!(
            "iterations {} per variant (study: 44892)",
            self.iterations
        )];
        if self.rollout != STABILITY_HORIZON {
            out.push(format!(
                "evaluation rollout {} steps (study: {STABILITY_HORIZON})",
                self.rollout
            ));
        }
        out.extend(
            Preset::Quick
                .deviations()
                .into_iter()
                .filter(|d| !d.starts_with("iterations")),
        );
        out
    }

    /// The same study from the command line.
    pub fn cli_command(&self) -> String {
        format!(
            "unroll-lab study --preset {} --seeds {} --iterations {}{}",
            self.preset.study().name(),
            self.seeds,
            self.iterations,
            if self.rollout == STABILITY_HORIZON {
                String::new()
            } else {
                format!(" --rollout {}", self.rollout)
            }
        )
    }

    /// The URL query (without `?`).
    pub fn to_query(&self) -> String {
        format!(
            "preset={}&seeds={}&iterations={}&rollout={}",
            self.preset.name(),
            self.seeds,
            self.iterations,
            self.rollout
        )
    }

    /// Reads a URL query (with or without `?`); unknown keys and bad values are ignored with a
    /// message each, and their defaults are used.
    pub fn from_query(query: &str) -> (Self, Vec<String>) {
        let mut experiment = Self::default();
        let mut ignored = Vec::new();
        for pair in query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_encoding::percent_decode_str(key).decode_utf8_lossy();
            let value = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
            let (key, value) = (key.as_ref(), value.as_ref());
            let shown: String = value.chars().take(40).collect();
            match key {
                "preset" => match BrowserPreset::parse(value) {
                    Some(preset) => experiment.preset = preset,
                    None => ignored.push(format!("preset '{shown}' is unknown: using the default")),
                },
                "seeds" | "iterations" | "rollout" => {
                    let (low, high) = match key {
                        "seeds" => (1, MAX_BROWSER_SEEDS),
                        "iterations" => (1, MAX_BROWSER_ITERATIONS),
                        _ => (ERROR_HORIZON, MAX_ROLLOUT),
                    };
                    match value
                        .parse::<usize>()
                        .ok()
                        .filter(|v| (low..=high).contains(v))
                    {
                        Some(v) if key == "seeds" => experiment.seeds = v,
                        Some(v) if key == "iterations" => experiment.iterations = v,
                        Some(v) => experiment.rollout = v,
                        None => ignored.push(format!(
                            "{key} '{shown}' is not a number in {low}..={high}: using the default"
                        )),
                    }
                }
                "device" => {}
                other => {
                    let other: String = other.chars().take(40).collect();
                    ignored.push(format!("unknown parameter '{other}' ignored"));
                }
            }
        }
        (experiment, ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_round_trips() {
        let experiment = Experiment {
            preset: BrowserPreset::Horizons,
            seeds: 3,
            iterations: 1200,
            rollout: STABILITY_HORIZON,
        };
        let (back, ignored) = Experiment::from_query(&format!("?{}", experiment.to_query()));
        assert_eq!(back, experiment);
        assert!(ignored.is_empty());
        assert_eq!(
            experiment.cli_command(),
            "unroll-lab study --preset horizons --seeds 3 --iterations 1200"
        );
    }

    #[test]
    fn hostile_queries_fall_back_to_defaults_with_messages() {
        let (e, ignored) = Experiment::from_query(
            "preset=<script>&seeds=-1&iterations=99999999999999999999&x=1&device=cpu",
        );
        assert_eq!(e, Experiment::default());
        assert_eq!(ignored.len(), 4, "{ignored:?}");
        assert!(ignored[0].contains("preset '<script>' is unknown"));
        assert!(ignored[1].starts_with("seeds '-1'"));
        assert!(ignored[3].contains("unknown parameter 'x'"));
    }

    #[test]
    fn validation_names_the_field_and_the_study_config_follows() {
        let bad = Experiment {
            seeds: 0,
            iterations: 0,
            rollout: 3,
            ..Experiment::default()
        };
        let fields: Vec<&str> = bad.validate().iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["seeds", "iterations", "rollout"]);
        let good = Experiment::default();
        assert!(good.validate().is_empty());
        let config = good.study_config();
        config.validate().expect("valid study");
        assert_eq!(config.base.iterations, BROWSER_ITERATIONS);
        assert_eq!(good.workload(), (6, 6 * BROWSER_ITERATIONS));
        assert!(good.deviations()[0].contains("study: 44892"));
    }
}
