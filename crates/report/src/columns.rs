//! The results table's measure columns after the error and its ratio to ONE, chosen by the
//! system's [`unroll_core::system::Measures`]: the study's correlation time and stability
//! classes (1-D systems), or Kochkov et al.'s vorticity measures (2-D flows, when the file has
//! them). The text table and the page's table both read them.

use super::system_words::SystemWords;
use unroll_core::study::data::results::{Metrics, StudyResults};

/// Marks a header whose measure is not the paper's; [`KOCHKOV_NOTE`] explains it.
pub const KOCHKOV_MARK: &str = "†";

/// The footnote of the vorticity columns.
pub const KOCHKOV_NOTE: &str = "† Kochkov et al. 2021, not the paper's metric: velocity MSE \
     over the first 8 steps, and coarse steps until the vorticity correlation with the truth \
     first drops below 0.95 and 0.8 (mean ± std over seeds; in brackets in τ, the paper's \
     integral time scale of each test's truth).";

/// One measure column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeasureColumn {
    /// The text table's header (`corr. time`).
    pub short: &'static str,
    /// The page's header (`correlation time`).
    pub long: &'static str,
    /// The text table's column width (characters).
    pub width: usize,
    /// Kochkov et al.'s measure (not the paper's; marked with [`KOCHKOV_MARK`]).
    pub kochkov: bool,
    /// Which cell.
    cell: Cell,
}

/// The value a column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    CorrelationTime,
    Stability,
    EarlyMse,
    /// Time above level 0 (0.95) or 1 (0.8).
    TimeAbove(usize),
}

impl MeasureColumn {
    /// The cell of `m`, `plus_minus` between mean and std (the page spaces it); `—` where `m`
    /// lacks the measure.
    pub fn cell(&self, m: &Metrics, plus_minus: &str) -> String {
        let s = m.stability;
        let vorticity = m.vorticity.as_ref();
        let dash = || "—".to_string();
        match self.cell {
            Cell::CorrelationTime => format!(
                "{:.1}{plus_minus}{:.1}",
                m.correlation_time.mean, m.correlation_time.std
            ),
            Cell::Stability => format!(
                "{}/{}/{}/{}",
                s.r#static, s.unstable, s.recurring, s.regular
            ),
            Cell::EarlyMse => vorticity.map_or_else(dash, |v| {
                format!(
                    "{:.3e}{plus_minus}{:.1e}",
                    v.early_mse.mean, v.early_mse.std
                )
            }),
            Cell::TimeAbove(level) => vorticity.map_or_else(dash, |v| {
                let (steps, scales) = if level == 0 {
                    (&v.steps_above_095, &v.time_scales_above_095)
                } else {
                    (&v.steps_above_080, &v.time_scales_above_080)
                };
                format!(
                    "{:.1}{plus_minus}{:.1} ({:.1} τ)",
                    steps.mean, steps.std, scales.mean
                )
            }),
        }
    }

    /// The page's header with its mark.
    pub fn header(&self) -> String {
        let mark = if self.kochkov { KOCHKOV_MARK } else { "" };
        format!("{}{mark}", self.long)
    }

    /// The text table's header with its mark.
    pub fn short_header(&self) -> String {
        let mark = if self.kochkov { KOCHKOV_MARK } else { "" };
        format!("{}{mark}", self.short)
    }
}

const CORRELATION: MeasureColumn = MeasureColumn {
    short: "corr. time",
    long: "correlation time",
    width: 14,
    kochkov: false,
    cell: Cell::CorrelationTime,
};
const STABILITY: MeasureColumn = MeasureColumn {
    short: "stat/unst/recur/reg",
    long: "static/unstable/recurring/regular",
    width: 22,
    kochkov: false,
    cell: Cell::Stability,
};
const VORTICITY: [MeasureColumn; 3] = [
    MeasureColumn {
        short: "early MSE (8 steps)",
        long: "early velocity MSE (8 steps)",
        width: 20,
        kochkov: true,
        cell: Cell::EarlyMse,
    },
    MeasureColumn {
        short: "steps to ρ < 0.95",
        long: "steps until ρ < 0.95",
        width: 22,
        kochkov: true,
        cell: Cell::TimeAbove(0),
    },
    MeasureColumn {
        short: "steps to ρ < 0.8",
        long: "steps until ρ < 0.8",
        width: 22,
        kochkov: true,
        cell: Cell::TimeAbove(1),
    },
];

/// Whether any variant or the baseline of `results` has the vorticity measures.
pub fn has_vorticity(results: &StudyResults) -> bool {
    results.baseline.vorticity.is_some()
        || results
            .variants
            .iter()
            .any(|v| v.metrics.vorticity.is_some())
}

/// The measure columns of `results`: those its system has, the vorticity ones only when the
/// file holds them (older files do not).
pub fn measure_columns(results: &StudyResults) -> Vec<MeasureColumn> {
    let measures = results.facts().measures;
    let mut out = Vec::new();
    if measures.correlation_time {
        out.push(CORRELATION);
    }
    if measures.stability_classes {
        out.push(STABILITY);
    }
    if measures.vorticity && has_vorticity(results) {
        out.extend(VORTICITY);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::fixture::kolmogorov_fixture;
    use unroll_core::system::System;

    #[test]
    fn columns_follow_the_system_and_the_file() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let mut results = StudyResults::from_json(text).expect("fixture");
        let shorts = |r: &StudyResults| -> Vec<&str> {
            measure_columns(r).iter().map(|c| c.short).collect()
        };
        assert_eq!(shorts(&results), ["corr. time", "stat/unst/recur/reg"]);
        results.config.system = System::Kolmogorov;
        assert!(
            shorts(&results).is_empty(),
            "no KS measures, no vorticity in the file"
        );
        let flow = kolmogorov_fixture();
        let columns = measure_columns(&flow);
        assert_eq!(columns.len(), 3);
        assert!(columns
            .iter()
            .all(|c| c.kochkov && c.header().ends_with('†')));
        let cell = columns[1].cell(&flow.baseline, "±");
        assert!(cell.ends_with(" τ)"), "{cell}");
        assert_eq!(columns[0].cell(&results.baseline, "±"), "—");
    }
}
