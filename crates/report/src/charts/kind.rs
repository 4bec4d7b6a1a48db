//! The registry of results charts: [`ChartKind`] lists every chart in page order with its DOM
//! id, its title and caption (worded by the system's [`SystemFacts`]: metric, baseline, maps)
//! and its canvas size.

use super::{space_time, vorticity};
use crate::system_words::SystemWords;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::{MapKind, SystemFacts};

/// Title of the stability chart (the same for every system).
pub(crate) const STABILITY_TITLE: &str = "Stability classes (all tests, all seeds)";
/// Title of the correlation-time chart.
pub(crate) const CORRELATION_TITLE: &str = "Correlation time (mean ± std over seeds)";
/// Title of the vorticity-correlation chart.
pub(crate) const VORTICITY_CORRELATION_TITLE: &str = "Vorticity correlation over rollout time";
/// Title of the training-loss chart.
pub(crate) const LOSS_TITLE: &str = "Training loss";

/// Every results chart, in page order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartKind {
    /// The sample maps: truth, each variant, the baseline (space–time pictures
    /// [`super::draw_space_time`] or field snapshots [`vorticity::draw_vorticity`]).
    SpaceTime,
    /// Error over rollout time ([`super::draw_error_curve`]).
    ErrorCurve,
    /// The error per variant ± std ([`super::draw_error_bars`]).
    ErrorBars,
    /// NOG / WIG error ÷ ONE's ([`super::draw_relative_to_one`]).
    RelativeToOne,
    /// Stability classes as stacked bars ([`super::draw_stability`]).
    Stability,
    /// Correlation time ± std ([`super::draw_correlation`]).
    Correlation,
    /// The error vs parameter count ([`super::draw_sizes`]).
    Sizes,
    /// Training loss curves ([`super::draw_loss`]).
    Loss,
    /// Kochkov et al.'s vorticity correlation over rollout time
    /// ([`super::draw_vorticity_correlation`]; 2-D flows).
    VorticityCorrelation,
    /// Every test's error per variant ([`super::draw_per_test`]; files that keep every test).
    PerTest,
    /// The paper's ratios against the error horizon ([`super::draw_horizons`]; files that
    /// keep every test).
    Horizons,
}

impl ChartKind {
    /// Every chart, in page order.
    pub const ALL: [ChartKind; 11] = [
        ChartKind::ErrorBars,
        ChartKind::RelativeToOne,
        ChartKind::PerTest,
        ChartKind::Horizons,
        ChartKind::ErrorCurve,
        ChartKind::VorticityCorrelation,
        ChartKind::SpaceTime,
        ChartKind::Stability,
        ChartKind::Correlation,
        ChartKind::Sizes,
        ChartKind::Loss,
    ];

    /// The DOM id of the chart's canvas (`chart-error-bars` …).
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::SpaceTime => "chart-space-time",
            ChartKind::ErrorCurve => "chart-error-curve",
            ChartKind::ErrorBars => "chart-error-bars",
            ChartKind::RelativeToOne => "chart-relative-to-one",
            ChartKind::Stability => "chart-stability",
            ChartKind::Correlation => "chart-correlation",
            ChartKind::Sizes => "chart-sizes",
            ChartKind::Loss => "chart-loss",
            ChartKind::VorticityCorrelation => "chart-vorticity-correlation",
            ChartKind::PerTest => "chart-per-test",
            ChartKind::Horizons => "chart-horizons",
        }
    }

    /// Whether the chart shows a measure a system with `facts` has (the study's stability
    /// classes and correlation time are 1-D measures; the vorticity correlation a 2-D flow's).
    pub fn applies(self, facts: &SystemFacts) -> bool {
        let measures = facts.measures;
        match self {
            ChartKind::Stability => measures.stability_classes,
            ChartKind::Correlation => measures.correlation_time,
            ChartKind::VorticityCorrelation => measures.vorticity,
            _ => true,
        }
    }

    /// The charts of `results`' system, in page order (the per-test and horizon charts where
    /// the file keeps every test).
    pub fn all_for(results: &StudyResults) -> Vec<ChartKind> {
        let facts = results.facts();
        let every_test = results.longest_horizon().is_some();
        Self::ALL
            .into_iter()
            .filter(|kind| kind.applies(&facts))
            .filter(|kind| every_test || !matches!(kind, ChartKind::PerTest | ChartKind::Horizons))
            .collect()
    }

    /// The chart's title for a system's `facts` (drawn on the chart and the figure caption):
    /// `Relative error (mean ± std over seeds)`, `Velocity MSE (mean ± std over seeds)`.
    pub fn title(self, facts: &SystemFacts) -> String {
        let metric = facts.metric.title;
        match self {
            ChartKind::SpaceTime => format!(
                "{}: truth, variants, {} baseline",
                facts.maps.title, facts.baseline.short
            ),
            ChartKind::ErrorCurve => format!("{metric} over rollout time"),
            ChartKind::ErrorBars => format!("{metric} (mean ± std over seeds)"),
            ChartKind::RelativeToOne => {
                format!("{metric} ÷ ONE (same configuration and seed)")
            }
            ChartKind::Stability => STABILITY_TITLE.into(),
            ChartKind::Correlation => CORRELATION_TITLE.into(),
            ChartKind::Sizes => format!("{metric} vs network size"),
            ChartKind::Loss => LOSS_TITLE.into(),
            ChartKind::VorticityCorrelation => VORTICITY_CORRELATION_TITLE.into(),
            ChartKind::PerTest => format!("{metric} of every test and seed"),
            ChartKind::Horizons => "The paper's ratios against the error horizon".into(),
        }
    }

    /// The title for `results` (their system's words).
    pub fn title_for(self, results: &StudyResults) -> String {
        self.title(&results.facts())
    }

    /// One sentence on what the chart shows for a system's `facts` (the caption's detail).
    pub fn description(self, facts: &SystemFacts) -> String {
        match self {
            ChartKind::SpaceTime => facts.maps.caption.into(),
            ChartKind::ErrorCurve => format!(
                "Mean per-frame {} over every test and seed, log scale, clipped where a \
                 rollout blew up.",
                facts.metric.axis
            ),
            ChartKind::ErrorBars => "Lower is better; whiskers are ± one std over seeds.".into(),
            ChartKind::RelativeToOne => {
                "Below the line at 1 the unrolled modality beats one-step training.".into()
            }
            ChartKind::Stability => "static: settles; unstable: residual beyond 500; \
                                     recurring: periodic; regular: chaotic like the truth."
                .into(),
            ChartKind::Correlation => "Steps until the rollout decorrelates from the truth.".into(),
            ChartKind::Sizes => "Log–log; one marker shape per architecture; the legend gives \
                                 each group's fitted slope (error ∝ params^slope), ± its spread \
                                 over seeds."
                .into(),
            ChartKind::Loss => "Per variant and seed, log scale; non-finite losses skipped.".into(),
            ChartKind::VorticityCorrelation => "Kochkov et al. 2021's measure, not the paper's: \
                 the correlation of the rollout's vorticity with the truth's, mean over every \
                 test and seed; dashed lines at 0.95 and 0.8, whose crossing times the table \
                 gives."
                .into(),
            ChartKind::PerTest => "One point per test and seed (log scale), the bar their mean, \
                                   at the error horizon shown: the heavy tail of rollouts that \
                                   blow up is what the mean hides."
                .into(),
            ChartKind::Horizons => "P-WIG / C-NOG and NOG, WIG ÷ ONE (ratio of the seeds' \
                                    means) re-scored exactly at every H; dashed: the paper's \
                                    4.5×; dotted: 1; grey line: the paper's H = 12, red: the H \
                                    shown."
                .into(),
        }
    }

    /// Canvas size in pixels (`(width, height)`); the map grid grows with the variants.
    pub fn size(self, results: &StudyResults) -> (u32, u32) {
        match (self, results.facts().maps.kind) {
            (ChartKind::SpaceTime, MapKind::FieldSnapshots) => {
                vorticity::canvas_size(results.variants.len())
            }
            (ChartKind::SpaceTime, MapKind::SpaceTime) => {
                space_time::canvas_size(results.variants.len())
            }
            _ => (720, 360),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::system::System;

    /// KS and Burgers keep their charts; Kolmogorov trades KS's stability classes and
    /// correlation time for the vorticity correlation.
    #[test]
    fn charts_follow_the_system_measures() {
        let ks = System::Ks.description().facts();
        let flow = System::Kolmogorov.description().facts();
        for (kind, one_d, two_d) in [
            (ChartKind::Stability, true, false),
            (ChartKind::Correlation, true, false),
            (ChartKind::VorticityCorrelation, false, true),
            (ChartKind::ErrorCurve, true, true),
        ] {
            assert_eq!(kind.applies(&ks), one_d, "{kind:?}");
            assert_eq!(kind.applies(&flow), two_d, "{kind:?}");
        }
        let burgers = System::Burgers.description().facts();
        assert!(!ChartKind::VorticityCorrelation.applies(&burgers));
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = ChartKind::ALL.iter().map(|k| k.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ChartKind::ALL.len());
    }

    /// Every system words every title and caption; KS keeps the study's words.
    #[test]
    fn titles_follow_the_system() {
        let ks = System::Ks.description().facts();
        assert_eq!(
            ChartKind::SpaceTime.title(&ks),
            "Space–time: truth, variants, ETD1 baseline"
        );
        assert_eq!(
            ChartKind::ErrorBars.title(&ks),
            "Relative error (mean ± std over seeds)"
        );
        assert!(ChartKind::ErrorCurve
            .description(&ks)
            .starts_with("Mean per-frame relative error"));
        let flow = System::Kolmogorov.description().facts();
        assert_eq!(
            ChartKind::SpaceTime.title(&flow),
            "Vorticity maps: truth, variants, coarse-solver baseline"
        );
        assert_eq!(
            ChartKind::Sizes.title(&flow),
            "Velocity MSE vs network size"
        );
        for system in System::ALL {
            let facts = system.description().facts();
            for kind in ChartKind::ALL {
                assert!(!kind.title(&facts).is_empty() && !kind.description(&facts).is_empty());
            }
        }
    }
}
