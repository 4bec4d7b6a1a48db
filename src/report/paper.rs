//! The paper beside you: the study's published numbers (PAPER.md) in one typed table, and the
//! rows that set a run's measured values beside them, with the training budget of each and a
//! one-line verdict of what reproduces at this budget and what does not.

use crate::numerics::nets::Architecture;
use crate::numerics::study::contract::config::Preset;
use crate::numerics::study::data::results::{StudyResults, VariantResult};
use crate::numerics::system::System;
use crate::numerics::train::preset::iterations_for_epochs;
use crate::numerics::train::Modality;

/// Epochs of the KS study at its default dataset fraction, 25 % (PAPER.md).
const PAPER_EPOCHS: usize = 16;

/// What a published number measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Claim {
    /// P-WIG's relative error over C-NOG's (how many times C-NOG beats P-WIG).
    HeadlineRatio,
    /// The mean over settings of a modality's relative error divided by ONE's.
    RelativeToOne(Modality),
    /// The mean relative error of a KS ResNet1D `channels × depth` trained with `modality`.
    KsError {
        channels: usize,
        depth: usize,
        modality: Modality,
    },
    /// Kolmogorov flow: C-ONE's velocity MSE of the 2-D ResNet `channels × depth`.
    KolmogorovOne { channels: usize, depth: usize },
    /// Kolmogorov flow: `modality`'s velocity MSE over ONE's for the 2-D ResNet
    /// `channels × depth`.
    KolmogorovRatio {
        channels: usize,
        depth: usize,
        modality: Modality,
    },
}

impl Claim {
    /// The system the claim is about.
    fn system(self) -> System {
        match self {
            Claim::KolmogorovOne { .. } | Claim::KolmogorovRatio { .. } => System::Kolmogorov,
            _ => System::Ks,
        }
    }
}

/// One published number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Published {
    /// What it measures.
    pub claim: Claim,
    /// The value.
    pub value: f64,
    /// Training epochs behind it (`None`: the official code's default, 16).
    pub epochs: Option<usize>,
    /// Where it is published.
    pub source: &'static str,
}

const BLOG: &str = "the group's blog, 40 KS tests, 20 epochs (mode not stated in our notes)";

const fn ks(channels: usize, depth: usize, modality: Modality, value: f64) -> Published {
    Published {
        claim: Claim::KsError {
            channels,
            depth,
            modality,
        },
        value,
        epochs: Some(20),
        source: BLOG,
    }
}

const FIGURE: &str =
    "the paper's Kolmogorov figure, read off ±3 % (PAPER.md), 5 epochs per curriculum stage";

const fn kolmogorov_one(channels: usize, depth: usize, value: f64) -> Published {
    Published {
        claim: Claim::KolmogorovOne { channels, depth },
        value,
        epochs: Some(5),
        source: FIGURE,
    }
}

const fn kolmogorov_ratio(
    channels: usize,
    depth: usize,
    modality: Modality,
    value: f64,
) -> Published {
    Published {
        claim: Claim::KolmogorovRatio {
            channels,
            depth,
            modality,
        },
        value,
        epochs: Some(5),
        source: FIGURE,
    }
}

/// Every published number the page compares with (PAPER.md, "Headline results").
pub const PUBLISHED: [Published; 21] = [
    Published {
        claim: Claim::HeadlineRatio,
        value: 4.5,
        epochs: None,
        source: "the first version's abstract (\"4.5-fold\"; the blog says around 5×)",
    },
    Published {
        claim: Claim::RelativeToOne(Modality::Nog),
        value: 0.77,
        epochs: None,
        source: "one version's average improvement of NOG over ONE (23 %)",
    },
    Published {
        claim: Claim::RelativeToOne(Modality::Wig),
        value: 0.62,
        epochs: None,
        source: "one version's average improvement of WIG over ONE (38 %)",
    },
    ks(26, 8, Modality::One, 0.00728),
    ks(26, 8, Modality::Nog, 0.00797),
    ks(26, 8, Modality::Wig, 0.00582),
    ks(52, 12, Modality::One, 0.00318),
    ks(52, 12, Modality::Nog, 0.00255),
    ks(52, 12, Modality::Wig, 0.00204),
    kolmogorov_one(8, 5, 0.040),
    kolmogorov_one(8, 7, 0.030),
    kolmogorov_one(16, 7, 0.016),
    kolmogorov_one(16, 9, 0.0104),
    kolmogorov_ratio(8, 5, Modality::Nog, 1.0),
    kolmogorov_ratio(8, 7, Modality::Nog, 0.85),
    kolmogorov_ratio(16, 7, Modality::Nog, 0.85),
    kolmogorov_ratio(16, 9, Modality::Nog, 0.83),
    kolmogorov_ratio(8, 5, Modality::Wig, 0.89),
    kolmogorov_ratio(8, 7, Modality::Wig, 0.82),
    kolmogorov_ratio(16, 7, Modality::Wig, 0.87),
    kolmogorov_ratio(16, 9, Modality::Wig, 0.79),
];

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
    /// Whether the published finding holds in this run.
    pub reproduces: bool,
    /// The finding in a few words (for the verdict line).
    pub finding: String,
    /// Where the published value comes from.
    pub source: &'static str,
}

/// Iterations of `epochs` epochs of the KS study's data (m = 3, batch 16; 16 epochs = 44,892).
pub fn paper_iterations(epochs: usize) -> usize {
    let ks = System::Ks.description();
    let study = ks.preset(Preset::Paper, 1).base;
    let trajectories = ks.training_trajectories(&study.data);
    iterations_for_epochs(
        trajectories,
        study.data.frames,
        study.unroll.horizon,
        study.batch,
        epochs,
    )
}

/// Iterations of the paper's full training of `system` (KS: `epochs` epochs; Kolmogorov: WIG's
/// three curriculum stages, the base config's iterations).
fn paper_budget(system: System, epochs: usize) -> usize {
    match system {
        System::Ks => paper_iterations(epochs),
        _ => {
            system
                .description()
                .preset(Preset::Paper, 1)
                .base
                .iterations
        }
    }
}

/// The run's iterations per training, from its config (`base.iterations`).
fn measured_iterations(results: &StudyResults) -> Option<usize> {
    Some(results.config.base.iterations)
}

fn budget(results: &StudyResults, published: &Published) -> String {
    let epochs = published.epochs.unwrap_or(PAPER_EPOCHS);
    let theirs = paper_budget(published.claim.system(), epochs);
    match measured_iterations(results) {
        Some(ours) => format!(
            "{ours} it. vs ≈ {theirs} it. ({epochs} epochs): {} % of the budget",
            percent(100.0 * ours as f64 / theirs as f64)
        ),
        None => format!("published at ≈ {theirs} it. ({epochs} epochs)"),
    }
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

/// The mean of `modality`'s relative error over ONE across every variant that has one.
fn mean_relative_to_one(results: &StudyResults, modality: Modality) -> Option<f64> {
    let values: Vec<f64> = results
        .variants
        .iter()
        .filter(|v| v.id.modality == modality)
        .filter_map(|v| v.relative_to_one.as_ref().map(|r| r.mean))
        .filter(|r| r.is_finite())
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The rows for every published number this run has a counterpart of.
pub fn paper_rows(results: &StudyResults) -> Vec<PaperRow> {
    PUBLISHED
        .iter()
        .flat_map(|published| rows_for(results, published))
        .collect()
}

fn rows_for(results: &StudyResults, published: &Published) -> Vec<PaperRow> {
    if published.claim.system() != results.system() {
        return Vec::new();
    }
    let row = |quantity: String, measured: String, reproduces: bool, finding: String| PaperRow {
        quantity,
        published: String::new(),
        measured,
        budget: budget(results, published),
        reproduces,
        finding,
        source: published.source,
    };
    match published.claim {
        Claim::HeadlineRatio => results
            .c_nog_over_p_wig()
            .filter(|r| r.is_finite())
            .map(|ratio| PaperRow {
                published: format!("{:.1}×", published.value),
                ..row(
                    "P-WIG error / C-NOG error".into(),
                    format!("{ratio:.2}×"),
                    ratio > 1.0,
                    format!(
                        "C-NOG beats P-WIG ({ratio:.1}×, paper {:.1}×)",
                        published.value
                    ),
                )
            })
            .into_iter()
            .collect(),
        Claim::RelativeToOne(modality) => mean_relative_to_one(results, modality)
            .map(|mean| PaperRow {
                published: format!("{:.2}", published.value),
                ..row(
                    format!("{} / ONE, mean over this run's variants", modality.label()),
                    format!("{mean:.2}"),
                    mean < 1.0,
                    format!(
                        "{} beats ONE ({mean:.2}, paper {:.2})",
                        modality.label(),
                        published.value
                    ),
                )
            })
            .into_iter()
            .collect(),
        Claim::KsError {
            channels,
            depth,
            modality,
        } => results
            .variants
            .iter()
            .filter(|v| {
                v.id.architecture == Architecture::Resnet
                    && v.id.channels == channels
                    && v.id.depth == depth
                    && v.id.modality == modality
            })
            .map(|v| {
                let measured = v.metrics.relative_error.mean;
                let ratio = measured / published.value;
                let close = (0.5..=2.0).contains(&ratio);
                PaperRow {
                    published: format!("{:.5}", published.value),
                    ..row(
                        format!("{} {channels}×{depth} relative error", v.id.label()),
                        format!("{measured:.5}"),
                        close,
                        format!(
                            "{} {channels}×{depth} within 2× of the blog ({ratio:.1}×)",
                            v.id.label()
                        ),
                    )
                }
            })
            .collect(),
        Claim::KolmogorovOne { channels, depth } => kolmogorov_variants(results, channels, depth)
            .filter(|v| v.id.modality == Modality::One)
            .map(|v| {
                let measured = v.metrics.relative_error.mean;
                let ratio = measured / published.value;
                PaperRow {
                    published: format!("{:.4}", published.value),
                    ..row(
                        format!("C-ONE {channels}×{depth} velocity MSE"),
                        format!("{measured:.4}"),
                        (0.5..=2.0).contains(&ratio),
                        format!("C-ONE {channels}×{depth} within 2× of the paper ({ratio:.1}×)"),
                    )
                }
            })
            .collect(),
        Claim::KolmogorovRatio {
            channels,
            depth,
            modality,
        } => kolmogorov_variants(results, channels, depth)
            .filter(|v| v.id.modality == modality)
            .filter_map(|v| v.relative_to_one.as_ref().map(|r| r.mean))
            .filter(|r| r.is_finite())
            .map(|ratio| PaperRow {
                published: format!("{:.2}", published.value),
                ..row(
                    format!("{} / ONE, 2-D ResNet {channels}×{depth}", modality.label()),
                    format!("{ratio:.2}"),
                    ratio <= 1.0,
                    format!(
                        "{} at or below ONE at {channels}×{depth} ({ratio:.2}, paper {:.2})",
                        modality.label(),
                        published.value
                    ),
                )
            })
            .collect(),
    }
}

/// The run's 2-D ResNet variants of size `channels × depth`.
fn kolmogorov_variants(
    results: &StudyResults,
    channels: usize,
    depth: usize,
) -> impl Iterator<Item = &VariantResult> {
    results.variants.iter().filter(move |v| {
        v.id.architecture == Architecture::Resnet2d
            && (v.id.channels, v.id.depth) == (channels, depth)
    })
}

/// One line: what reproduces and what does not at this run's budget (`None` without rows).
pub fn verdict(rows: &[PaperRow]) -> Option<String> {
    let first = rows.first()?;
    let list = |reproduces: bool| {
        let found: Vec<&str> = rows
            .iter()
            .filter(|r| r.reproduces == reproduces)
            .map(|r| r.finding.as_str())
            .collect();
        if found.is_empty() {
            "nothing".to_string()
        } else {
            found.join("; ")
        }
    };
    let budget = first.budget.split(':').next().unwrap_or_default();
    Some(format!(
        "At this budget ({budget}): reproduces — {}. Does not — {}.",
        list(true),
        list(false)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::study::data::results::StudyResults;

    fn fixture() -> StudyResults {
        let text = include_str!("../../tests/e2e/fixtures/cli-results.json");
        StudyResults::from_json(text).expect("fixture")
    }

    #[test]
    fn the_studys_budget_is_its_16_epochs() {
        assert_eq!(paper_iterations(16), 44_892);
        assert_eq!(paper_iterations(20), 56_115);
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
            headline.budget.contains("44892 it. (16 epochs)"),
            "{}",
            headline.budget
        );
        assert!(rows.iter().any(|r| r.quantity.starts_with("WIG / ONE")));
        assert!(rows.iter().any(|r| r.quantity.starts_with("NOG / ONE")));
        let line = verdict(&rows).expect("verdict");
        assert!(line.starts_with("At this budget ("), "{line}");
        assert!(
            line.contains("reproduces — ") && line.contains("Does not — "),
            "{line}"
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
            c_wig.budget.contains("56115 it. (20 epochs)"),
            "{}",
            c_wig.budget
        );
        assert!(c_wig.source.contains("blog"));
    }

    #[test]
    fn no_rows_no_verdict() {
        assert_eq!(verdict(&[]), None);
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
