//! The paper beside you: the rows that set a run's measured values beside its system's
//! published numbers (docs/src/study.md; each system lists its own, `SystemDescription::published`),
//! with the training budget of each and a one-line verdict of what reproduces at this budget
//! and what does not.

use super::interval::Verdict;
use super::orderings::orderings;
use unroll_core::study::data::results::{StudyResults, VariantResult};
use unroll_core::train::{Modality, Mode};

pub use unroll_core::system::published::{Claim, Published, PublishedNet};

/// One row of the comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperRow {
    /// What is compared (`C-NOG beats P-WIG by`, `WIG / ONE`, `C-WIG 26×8 relative error`).
    pub quantity: String,
    /// The published value, formatted.
    pub published: String,
    /// The measured value, formatted.
    pub measured: String,
    /// The two budgets (`300 it. vs ≈ 44,892 it. (0.7 %)`).
    pub budget: String,
    /// Whether the published finding holds in this run, in direction at least.
    pub reproduces: bool,
    /// The judgement, in the words every view uses (`holds`, `holds in direction, differs in
    /// size (8.8× vs 4.5×)`, `fails`, `shown, not judged`).
    pub judgement: String,
    /// The finding in a few words (for the verdict line).
    pub finding: String,
    /// Where the published value comes from.
    pub source: &'static str,
}

/// The run's iterations beside the paper's behind `published`.
fn budget(results: &StudyResults, published: &Published) -> String {
    let epochs = published.epochs;
    let theirs = results.system().description().paper_iterations(epochs);
    let ours = results.config.base.iterations;
    format!(
        "{ours} it. vs ≈ {theirs} it. ({epochs} epochs): {} % of the budget",
        percent(100.0 * ours as f64 / theirs as f64)
    )
}

/// `0.045`, `0.67`, `12.3`: a share with two significant digits below 1 %.
fn percent(value: f64) -> String {
    if value >= 1.0 {
        format!("{value:.1}")
    } else if value >= 0.1 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

/// The mean of `mode`-`modality`'s relative error over ONE across every variant that has one.
fn mean_relative_to_one(results: &StudyResults, mode: Mode, modality: Modality) -> Option<f64> {
    let values: Vec<f64> = results
        .variants
        .iter()
        .filter(|v| v.id.mode == mode && v.id.modality == modality)
        .filter_map(|v| v.relative_to_one.as_ref().map(|r| r.mean))
        .filter(|r| r.is_finite())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The rows for every published number of the run's system this run has a counterpart of.
pub fn paper_rows(results: &StudyResults) -> Vec<PaperRow> {
    results
        .system()
        .description()
        .published()
        .iter()
        .flat_map(|published| rows_for(results, published))
        .collect()
}

/// A row of `published` with its budget and source; `published` is the value formatted.
fn row(
    results: &StudyResults,
    published: &Published,
    value: String,
    quantity: String,
    measured: String,
    judgement: (bool, String),
    finding: String,
) -> PaperRow {
    PaperRow {
        quantity,
        published: value,
        measured,
        budget: budget(results, published),
        reproduces: judgement.0,
        judgement: judgement.1,
        finding,
        source: published.source,
    }
}

/// A ratio to ONE judged against the paper's: at or below 1 is the direction; within 2× of the
/// published value the size.
fn ratio_judgement(measured: f64, published: f64) -> (bool, String) {
    let in_direction = measured <= 1.0;
    let words = if !in_direction {
        "fails".to_string()
    } else if (0.5..=2.0).contains(&(measured / published)) {
        "holds".to_string()
    } else {
        format!("holds in direction, differs in size ({measured:.2} vs {published:.2})")
    };
    (in_direction, words)
}

/// The blog's absolute numbers come without their horizon or test files: shown, not judged.
const NOT_JUDGED: &str = "shown, not judged (no horizon or test files published)";

fn rows_for(results: &StudyResults, published: &Published) -> Vec<PaperRow> {
    match published.claim {
        Claim::HeadlineRatio => headline_row(results, published).into_iter().collect(),
        Claim::RelativeToOne(modality) => relative_to_one_row(results, published, modality),
        Claim::Error {
            net,
            modality,
            metric,
            decimals,
            against,
        } => variants_of(results, net)
            .filter(|v| v.id.modality == modality)
            .map(|v| {
                let measured = v.metrics.relative_error.mean;
                let ratio = measured / published.value;
                let (label, size) = (v.id.label(), size(net));
                row(
                    results,
                    published,
                    format!("{:.decimals$}", published.value),
                    format!("{label} {size} {metric}"),
                    format!("{measured:.decimals$}"),
                    (false, NOT_JUDGED.to_string()),
                    format!("{label} {size} is {ratio:.1}× {against}"),
                )
            })
            .collect(),
        Claim::RatioToOne {
            net,
            modality,
            network,
        } => ratio_to_one_rows(results, published, net, modality, network),
    }
}

/// The headline, judged as the orderings judge it (one verdict).
fn headline_row(results: &StudyResults, published: &Published) -> Option<PaperRow> {
    let ratio = results.c_nog_over_p_wig().filter(|r| r.is_finite())?;
    let ordering = orderings(results)
        .into_iter()
        .find(|o| o.claim.starts_with("C-NOG beats P-WIG"))?;
    Some(row(
        results,
        published,
        format!("{:.1}×", published.value),
        "P-WIG error / C-NOG error".into(),
        format!("{ratio:.2}×"),
        (ordering.verdict == Verdict::Holds, ordering.judgement()),
        format!(
            "C-NOG beats P-WIG ({ratio:.1}×, paper {:.1}×)",
            published.value
        ),
    ))
}

/// One row per mode (an average over modes would hide a mode's failure).
fn relative_to_one_row(
    results: &StudyResults,
    published: &Published,
    modality: Modality,
) -> Vec<PaperRow> {
    [Mode::Correct, Mode::Predict]
        .into_iter()
        .filter_map(|mode| {
            let mean = mean_relative_to_one(results, mode, modality)?;
            let label = format!("{}-{}", mode.letter(), modality.label());
            Some(row(
                results,
                published,
                format!("{:.2}", published.value),
                format!("{} / ONE, {label}", modality.label()),
                format!("{mean:.2}"),
                ratio_judgement(mean, published.value),
                format!("{label} / ONE {mean:.2} (paper {:.2})", published.value),
            ))
        })
        .collect()
}

fn ratio_to_one_rows(
    results: &StudyResults,
    published: &Published,
    net: PublishedNet,
    modality: Modality,
    network: &str,
) -> Vec<PaperRow> {
    let size = size(net);
    variants_of(results, net)
        .filter(|v| v.id.modality == modality)
        .filter_map(|v| v.relative_to_one.as_ref().map(|r| r.mean))
        .filter(|r| r.is_finite())
        .map(|ratio| {
            row(
                results,
                published,
                format!("{:.2}", published.value),
                format!("{} / ONE, {network} {size}", modality.label()),
                format!("{ratio:.2}"),
                ratio_judgement(ratio, published.value),
                format!(
                    "{} at or below ONE at {size} ({ratio:.2}, paper {:.2})",
                    modality.label(),
                    published.value
                ),
            )
        })
        .collect()
}

/// `C×D`.
fn size(net: PublishedNet) -> String {
    format!("{}×{}", net.channels, net.depth)
}

/// The run's variants of the architecture and size of `net`.
fn variants_of(results: &StudyResults, net: PublishedNet) -> impl Iterator<Item = &VariantResult> {
    results.variants.iter().filter(move |v| {
        v.id.architecture == net.architecture
            && (v.id.channels, v.id.depth) == (net.channels, net.depth)
    })
}

/// One line over the rows, grouped by judgement, naming the budget and the horizon and
/// aggregation judged at (`None` without rows).
pub fn verdict(results: &StudyResults, rows: &[PaperRow]) -> Option<String> {
    let first = rows.first()?;
    let group = |matches: &dyn Fn(&str) -> bool| -> Vec<String> {
        rows.iter()
            .filter(|r| matches(&r.judgement))
            .map(|r| {
                match r
                    .judgement
                    .strip_prefix("holds in direction, differs in size ")
                {
                    Some(size) => format!("{} {size}", r.finding),
                    None => r.finding.clone(),
                }
            })
            .collect()
    };
    let groups = [
        ("holds", group(&|j| j == "holds")),
        (
            "holds in direction, differs in size",
            group(&|j| j.starts_with("holds in direction")),
        ),
        ("fails", group(&|j| j == "fails")),
        ("shown, not judged", group(&|j| j.starts_with("shown"))),
    ];
    let parts: Vec<String> = groups
        .iter()
        .filter(|(_, found)| !found.is_empty())
        .map(|(name, found)| format!("{name} — {}", found.join("; ")))
        .collect();
    let budget = first.budget.split(':').next().unwrap_or_default();
    Some(format!(
        "At H = {}, relative to ONE as {}, this budget ({budget}): {}.",
        results.config.eval.error_horizon,
        results.aggregation.words(),
        parts.join(". ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::nets::Architecture;
    use unroll_core::study::data::results::StudyResults;
    use unroll_core::system::System;

    fn fixture() -> StudyResults {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        StudyResults::from_json(text).expect("fixture")
    }

    #[test]
    fn the_headline_and_modality_rows_compare_with_the_paper() {
        let results = fixture();
        let rows = paper_rows(&results);
        let headline = rows
            .iter()
            .find(|r| r.quantity.starts_with("P-WIG error / C-NOG"))
            .expect("headline row");
        assert_eq!(headline.published, "4.5×");
        let ratio = results.c_nog_over_p_wig().expect("ratio");
        assert_eq!(headline.measured, format!("{ratio:.2}×"));
        assert_eq!(headline.reproduces, ratio > 1.0);
        assert!(
            headline.budget.contains("42475 it. (16 epochs)"),
            "{}",
            headline.budget
        );
        assert!(rows.iter().any(|r| r.quantity.starts_with("WIG / ONE")));
        assert!(rows.iter().any(|r| r.quantity.starts_with("NOG / ONE")));
        // One row per mode: an average over modes cannot hide a mode's failure.
        assert!(rows.iter().any(|r| r.quantity == "NOG / ONE, C-NOG"));
        assert!(rows.iter().any(|r| r.quantity == "NOG / ONE, P-NOG"));
        // The table's judgement of the headline is the orderings' (one verdict).
        let band = crate::orderings::orderings(&results)
            .into_iter()
            .find(|o| o.claim.starts_with("C-NOG beats P-WIG"))
            .expect("band");
        assert_eq!(headline.judgement, band.judgement());
        let line = verdict(&results, &rows).expect("verdict");
        assert!(
            line.starts_with(
                "At H = 12, relative to ONE as the ratio of the seeds' means, as ks_eval.py, this budget ("
            ),
            "{line}"
        );
        assert!(
            line.contains("shown, not judged") || line.contains("holds") || line.contains("fails"),
            "{line}"
        );
    }

    /// A factor outside the band is "holds in direction, differs in size" in the table and the
    /// verdict line alike, never "yes" in one and "fails" in the other.
    #[test]
    fn a_factor_outside_the_band_differs_in_size_everywhere() {
        let mut results = fixture();
        for v in &mut results.variants {
            let (mode, modality) = (v.id.mode, v.id.modality);
            let error = match (mode, modality) {
                (Mode::Correct, Modality::Nog) => 0.1,
                (Mode::Predict, Modality::Wig) => 0.88,
                _ => 0.5,
            };
            // Three seeds that agree: the factor's interval is the factor.
            v.seeds = vec![0, 1, 2];
            v.metrics.test_errors.clear();
            v.metrics.relative_error.mean = error;
            v.metrics.relative_error.per_seed = vec![error; 3];
        }
        let rows = paper_rows(&results);
        let headline = rows
            .iter()
            .find(|r| r.quantity.starts_with("P-WIG error / C-NOG"))
            .expect("headline row");
        assert_eq!(
            headline.judgement,
            "holds in direction, differs in size (8.8× vs 4.5×)"
        );
        let line = verdict(&results, &rows).expect("verdict");
        assert!(line.contains("holds in direction, differs in size — C-NOG beats P-WIG (8.8×, paper 4.5×) (8.8× vs 4.5×)"), "{line}");
        let orderings_line = crate::orderings::summary_of(&results).expect("summary");
        assert!(
            orderings_line.contains("holds in direction, differs in size (8.8× vs 4.5×)"),
            "{orderings_line}"
        );
    }

    #[test]
    fn ks_rows_appear_only_for_the_published_sizes() {
        let mut results = fixture();
        assert!(!paper_rows(&results)
            .iter()
            .any(|r| r.quantity.contains("26×8")));
        for v in &mut results.variants {
            v.id.channels = 26;
            v.id.depth = 8;
        }
        let rows = paper_rows(&results);
        let ks: Vec<&PaperRow> = rows
            .iter()
            .filter(|r| r.quantity.contains("26×8"))
            .collect();
        assert_eq!(ks.len(), results.variants.len());
        let c_wig = ks
            .iter()
            .find(|r| r.quantity.starts_with("C-WIG"))
            .expect("C-WIG row");
        assert_eq!(c_wig.published, "0.00582");
        assert!(
            c_wig.budget.contains("53094 it. (20 epochs)"),
            "{}",
            c_wig.budget
        );
        assert!(c_wig.source.contains("blog"));
    }

    #[test]
    fn no_rows_no_verdict() {
        assert_eq!(verdict(&fixture(), &[]), None);
    }

    /// A Kolmogorov run gets the Kolmogorov rows only, at the Kolmogorov budget.
    #[test]
    fn kolmogorov_rows_compare_with_the_figure() {
        let mut results = fixture();
        results.config.system = System::Kolmogorov;
        assert!(paper_rows(&results).is_empty(), "no 2-D ResNet variants");
        for (v, modality) in results
            .variants
            .iter_mut()
            .zip(Modality::ALL.iter().cycle())
        {
            v.id.architecture = Architecture::Resnet2d;
            v.id.channels = 8;
            v.id.depth = 5;
            v.id.modality = *modality;
        }
        let rows = paper_rows(&results);
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r.quantity.contains("8×5")), "{rows:?}");
        assert!(rows[0].budget.contains("539550"), "{}", rows[0].budget);
    }
}
