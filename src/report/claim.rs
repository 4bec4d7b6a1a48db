//! A committed run's claim: one ordering between two variants of its results file (or a
//! variant and the coarse solver alone), by the paper's error or by the vorticity correlation
//! time, and the check that it holds in the file.

use serde::{Deserialize, Serialize};

use crate::report::results::{Metrics, StudyResults, VariantResult};

/// The name a claim gives the coarse solver alone (the results' baseline row).
pub const BASELINE: &str = "baseline";

/// An ordering by the means over seeds of [`ClaimMetric`]: `better` is strictly better than
/// `worse`.
///
/// A variant is named by its label without the size suffix, `C-WIG`
/// ([`crate::report::results::VariantId::label`]), when exactly one variant of the file has
/// that label; otherwise by the table's full label, `C-WIG 26×8 m=3`
/// ([`crate::report::results::VariantId::long_label`]). [`BASELINE`] names the solver alone.
/// A name matching no variant, or several, is an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The better side: `C-WIG`.
    pub better: String,
    /// The worse side: `C-ONE`, or `baseline`.
    pub worse: String,
    /// What is compared (the relative error when absent).
    #[serde(default, skip_serializing_if = "ClaimMetric::is_default")]
    pub by: ClaimMetric,
}

/// What a [`Claim`] compares, as a mean over seeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMetric {
    /// The results table's error column (the paper's MSE-based error): lower is better.
    #[default]
    RelativeError,
    /// Coarse steps until the vorticity correlation with the truth drops below 0.95 (Kochkov
    /// et al. 2021; systems with vorticity measures only): longer is better.
    #[serde(rename = "steps_above_095")]
    StepsAbove095,
}

impl ClaimMetric {
    /// Whether this is the default, [`Self::RelativeError`] (left out of the file).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Its words in a failed check: `mean relative error`.
    fn words(self) -> &'static str {
        match self {
            Self::RelativeError => "mean relative error",
            Self::StepsAbove095 => "mean steps above correlation 0.95",
        }
    }

    /// Its mean over seeds in `metrics`, or why it has none.
    fn mean(self, metrics: &Metrics) -> Result<f64, String> {
        match self {
            Self::RelativeError => Ok(metrics.relative_error.mean),
            Self::StepsAbove095 => metrics
                .vorticity
                .as_ref()
                .map(|v| v.steps_above_095.mean)
                .ok_or_else(|| "the results have no vorticity measures".to_string()),
        }
    }

    /// Whether `a` is strictly better than `b` (both finite).
    fn better(self, a: f64, b: f64) -> bool {
        a.is_finite()
            && b.is_finite()
            && match self {
                Self::RelativeError => a < b,
                Self::StepsAbove095 => a > b,
            }
    }
}

/// The variant of `results` a claim names (see [`Claim`]): its full label, else its label when
/// unique.
pub fn find_variant<'r>(
    results: &'r StudyResults,
    name: &str,
) -> Result<&'r VariantResult, String> {
    if let Some(v) = results.variants.iter().find(|v| v.id.long_label() == name) {
        return Ok(v);
    }
    let matching: Vec<&VariantResult> = results
        .variants
        .iter()
        .filter(|v| v.id.label() == name)
        .collect();
    match matching.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "no variant '{name}' in the results (they are: {}, and {BASELINE})",
            long_labels(results.variants.iter())
        )),
        several => Err(format!(
            "'{name}' names several variants ({}): use the full label",
            long_labels(several.iter().copied())
        )),
    }
}

fn long_labels<'r>(variants: impl Iterator<Item = &'r VariantResult>) -> String {
    variants
        .map(|v| v.id.long_label())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The metrics a claim's side names: the baseline's, or a variant's ([`find_variant`]).
fn side_metrics<'r>(results: &'r StudyResults, name: &str) -> Result<&'r Metrics, String> {
    if name == BASELINE {
        return Ok(&results.baseline);
    }
    find_variant(results, name).map(|v| &v.metrics)
}

/// Whether `claim` holds in `results`: `better`'s mean is strictly better than `worse`'s by the
/// claim's metric (a non-finite mean never holds).
pub fn check_claim(results: &StudyResults, claim: &Claim) -> Result<(), String> {
    let by = match claim.by {
        ClaimMetric::RelativeError => String::new(),
        ClaimMetric::StepsAbove095 => " by steps above correlation 0.95".into(),
    };
    let what = format!("claim '{} better than {}{by}'", claim.better, claim.worse);
    let mean = |name: &str| {
        side_metrics(results, name)
            .and_then(|m| claim.by.mean(m))
            .map_err(|e| format!("{what}: {e}"))
    };
    let (b, w) = (mean(&claim.better)?, mean(&claim.worse)?);
    if claim.by.better(b, w) {
        return Ok(());
    }
    let relation = match claim.by {
        ClaimMetric::RelativeError => "below",
        ClaimMetric::StepsAbove095 => "above",
    };
    Err(format!(
        "{what} does not hold: {} {} = {b:.6} is not {relation} {} = {w:.6}",
        claim.by.words(),
        claim.better,
        claim.worse
    ))
}
