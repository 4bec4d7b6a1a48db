//! Correlation time per variant (mean ± std over seeds, in rollout steps) and the ETD1
//! baseline, as bars on a linear axis from 0.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::{draw_bars, Bar, BarSpec};
use super::kind::CORRELATION_TITLE;
use super::{draw_message, entries, ChartError};
use unroll_core::study::data::results::StudyResults;

/// Bars of the correlation time (steps) per variant, then the baseline; whiskers ± std.
pub fn draw_correlation<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title = CORRELATION_TITLE;
    let bars: Vec<Bar> = entries(results)
        .into_iter()
        .map(|e| Bar {
            interval: None,
            name: e.name,
            color: e.color,
            mean: e.metrics.correlation_time.mean,
            std: e.metrics.correlation_time.std,
        })
        .collect();
    let top = bars
        .iter()
        .filter(|b| b.mean.is_finite())
        .map(|b| {
            b.mean
                + if b.std.is_finite() {
                    b.std.max(0.0)
                } else {
                    0.0
                }
        })
        .fold(0.0, f64::max);
    if top <= 0.0 {
        return draw_message(area, title, "Correlation times: none in this file.");
    }
    let spec = BarSpec {
        title,
        y_desc: "correlation time (steps)",
        reference: None,
    };
    let y = RangedCoordf64::from(0.0..top * 1.15);
    draw_bars(area, &spec, &bars, y, &|v| format!("{v:.0}"))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{filled, fixture, render};
    use super::super::{variant_colors, BASELINE_COLOR};
    use super::*;

    #[test]
    fn bars_per_variant_and_baseline() {
        let results = fixture();
        let svg = render((720, 360), |a| draw_correlation(a, &results));
        for color in variant_colors(&results) {
            assert_eq!(filled(&svg, color), 1);
        }
        assert_eq!(filled(&svg, BASELINE_COLOR), 1);
        assert!(svg.contains("correlation time (steps)"));
    }

    #[test]
    fn all_zero_or_nan_says_so() {
        let mut results = fixture();
        for v in &mut results.variants {
            v.metrics.correlation_time.mean = f64::NAN;
        }
        results.baseline.correlation_time.mean = 0.0;
        results.baseline.correlation_time.std = 0.0;
        let svg = render((720, 360), |a| draw_correlation(a, &results));
        assert!(svg.contains("none in this file"));
    }
}
