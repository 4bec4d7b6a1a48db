//! A committed run's claim: one ordering between two variants of its results file (or a
//! variant and the coarse solver alone), by the paper's error or by the vorticity correlation
//! time, with the verdict it expects (holds, fails or not resolved, from the ratio's 95 %
//! interval over seeds and tests: [`crate::interval`]), and the check that the file
//! gives that verdict.

use serde::{Deserialize, Serialize};

use crate::interval::Verdict;
use crate::orderings::{judge, Ordering, Side, TestScores};
use unroll_core::study::data::results::{Metrics, StudyResults, VariantResult};

/// The name a claim gives the coarse solver alone (the results' baseline row).
pub const BASELINE: &str = "baseline";

/// An ordering by the means over seeds of [`ClaimMetric`]: `better` is better than `worse`,
/// with the verdict the book states for it.
///
/// A variant is named by its label without the size suffix, `C-WIG`
/// ([`unroll_core::study::data::results::VariantId::label`]), when exactly one variant of the file has
/// that label; otherwise by the table's full label, `C-WIG 26×8 m=3`
/// ([`unroll_core::study::data::results::VariantId::long_label`]). [`BASELINE`] names the solver alone.
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
    /// The verdict the file gives: `holds`, `fails` or `not_resolved`.
    pub expect: Verdict,
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

/// The side of a claim `name` names, by `by`: the baseline's, or a variant's
/// ([`find_variant`]).
fn side<'r>(
    results: &'r StudyResults,
    name: &str,
    by: ClaimMetric,
    tests: &TestScores,
) -> Result<Side<'r>, String> {
    let metrics: &Metrics = if name == BASELINE {
        &results.baseline
    } else {
        &find_variant(results, name)?.metrics
    };
    let seeds = (name != BASELINE)
        .then(|| find_variant(results, name).map(|v| v.seeds.as_slice()))
        .transpose()?;
    match by {
        ClaimMetric::RelativeError => Ok(match seeds {
            None => Side::baseline_error(metrics, tests),
            Some(_) => Side::error(find_variant(results, name)?, tests),
        }),
        ClaimMetric::StepsAbove095 => metrics
            .vorticity
            .as_ref()
            .map(|v| Side::seed_means(seeds, &v.steps_above_095))
            .ok_or_else(|| "the results have no vorticity measures".to_string()),
    }
}

/// `claim` judged in `results`: the ratio `better / worse` of the seeds' means, its 95 %
/// interval and the verdict on the claimed side (below 1 for an error, above for a time).
pub fn judge_claim(results: &StudyResults, claim: &Claim) -> Result<Ordering, String> {
    let tests = TestScores::of(results);
    let what = claim.words();
    let better =
        side(results, &claim.better, claim.by, &tests).map_err(|e| format!("{what}: {e}"))?;
    let worse =
        side(results, &claim.worse, claim.by, &tests).map_err(|e| format!("{what}: {e}"))?;
    let below = claim.by == ClaimMetric::RelativeError;
    Ok(judge(what, better, worse, below, move |a, b| {
        claim.by.better(a, b)
    }))
}

impl Claim {
    /// `claim 'C-WIG better than C-ONE'`, with the metric where it is not the error.
    pub fn words(&self) -> String {
        let by = match self.by {
            ClaimMetric::RelativeError => String::new(),
            ClaimMetric::StepsAbove095 => " by steps above correlation 0.95".into(),
        };
        format!("claim '{} better than {}{by}'", self.better, self.worse)
    }
}

/// Whether `results` give `claim` the verdict it expects (the message names both, the ratio
/// and its interval where they differ).
pub fn check_claim(results: &StudyResults, claim: &Claim) -> Result<Ordering, String> {
    let judged = judge_claim(results, claim)?;
    if judged.verdict == claim.expect {
        return Ok(judged);
    }
    Err(format!(
        "{} expects '{}', the file gives '{}' ({}; {} {}: {:.6} against {:.6})",
        claim.words(),
        claim.expect.words(),
        judged.verdict.words(),
        judged.evidence().unwrap_or_else(|| "no interval".into()),
        claim.by.words(),
        "means",
        side_mean(results, &claim.better, claim.by),
        side_mean(results, &claim.worse, claim.by),
    ))
}

/// The mean of `name`'s side by `by` (NaN where it has none).
fn side_mean(results: &StudyResults, name: &str, by: ClaimMetric) -> f64 {
    side_metrics(results, name)
        .and_then(|m| by.mean(m))
        .unwrap_or(f64::NAN)
}

/// The metrics a claim's side names: the baseline's, or a variant's ([`find_variant`]).
fn side_metrics<'r>(results: &'r StudyResults, name: &str) -> Result<&'r Metrics, String> {
    if name == BASELINE {
        return Ok(&results.baseline);
    }
    find_variant(results, name).map(|v| &v.metrics)
}
