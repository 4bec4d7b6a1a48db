//! Relative error per variant (and the ETD1 baseline) as bars with ± std over seeds, log y; and
//! the relative-to-ONE view (NOG / WIG error ÷ ONE's, reference line at 1).

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::{draw_bars, Bar, BarSpec};
use super::{draw_message, entries, log_axis, log_bounds, log_label, ChartError, ChartKind};
use crate::ratio_to_one::ratios_to_one;
use unroll_core::study::data::results::StudyResults;

/// Bars of the mean relative error over H steps (± std over seeds) per variant, then the
/// baseline; log y. Variants whose error is not finite are left out (their name stays).
pub fn draw_error_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title_text = ChartKind::ErrorBars.title_for(results);
    let title = title_text.as_str();
    let bars: Vec<Bar> = entries(results)
        .into_iter()
        .map(|e| Bar {
            name: e.name,
            color: e.color,
            mean: e.metrics.relative_error.mean,
            std: e.metrics.relative_error.std,
            interval: None,
        })
        .collect();
    draw_log_bars(area, title, results.facts().metric.axis, &bars, None)
}

/// Bars of each NOG / WIG variant's relative error ÷ ONE's (same configuration, the ratio of
/// the seeds' means) with its 95 % interval over seeds and tests as the whisker (± std over
/// seeds where there is none: one seed), log y, a dashed line at 1. A message when no variant has the ratio
/// (ONE not run, or an older file).
pub fn draw_relative_to_one<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title_text = ChartKind::RelativeToOne.title_for(results);
    let title = title_text.as_str();
    let intervals = ratios_to_one(results);
    let bars: Vec<Bar> = entries(results)
        .into_iter()
        .filter_map(|e| {
            let variant = e.variant?;
            let ratio = variant.relative_to_one.as_ref()?;
            let index = results
                .variants
                .iter()
                .position(|v| std::ptr::eq(v, variant))?;
            Some(Bar {
                name: e.name,
                color: e.color,
                mean: ratio.mean,
                std: ratio.std,
                interval: intervals[index].and_then(|r| r.interval.bounds),
            })
        })
        .collect();
    if bars.is_empty() {
        return draw_message(
            area,
            title,
            "Relative to ONE: not in this file (no ONE variant to compare with).",
        );
    }
    draw_log_bars(area, title, "error ÷ ONE's", &bars, Some(1.0))
}

/// `bars` on a log axis covering their whiskers (and `reference`); a message when no bar has
/// a positive finite value.
fn draw_log_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    bars: &[Bar],
    reference: Option<f64>,
) -> Result<(), ChartError> {
    let values = bars.iter().flat_map(|b| {
        let top = b.whisker_ends().map_or(b.mean, |(_, high)| high);
        [b.mean, top]
    });
    let Some((lo, hi)) = log_bounds(values.chain(reference)) else {
        return draw_message(area, title, "No finite values in this file.");
    };
    let spec = BarSpec {
        title,
        y_desc,
        reference,
    };
    draw_bars(area, &spec, bars, log_axis(lo, hi), &log_label)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{count, filled, fixture, old_file, render};
    use super::super::{variant_colors, BASELINE_COLOR};
    use super::*;

    #[test]
    fn one_bar_per_variant_and_baseline() {
        let results = fixture();
        let svg = render((720, 360), |a| draw_error_bars(a, &results));
        for (color, name) in variant_colors(&results)
            .iter()
            .zip(["P-ONE", "C-NOG", "C-WIG"])
        {
            assert_eq!(filled(&svg, *color), 1, "{name}");
            assert!(svg.contains(name));
        }
        assert_eq!(filled(&svg, BASELINE_COLOR), 1);
        assert!(svg.contains("ETD1 only"));
        // Whiskers: an ErrorBar is three lines; four bars.
        assert!(count(&svg, "<line") >= 4 * 3);
    }

    #[test]
    fn non_finite_error_is_left_out() {
        let mut results = fixture();
        results.variants[0].metrics.relative_error.mean = f64::NAN;
        results.variants[1].metrics.relative_error.std = f64::INFINITY;
        let svg = render((720, 360), |a| draw_error_bars(a, &results));
        assert_eq!(filled(&svg, variant_colors(&results)[0]), 0);
        assert_eq!(filled(&svg, variant_colors(&results)[1]), 1);
        assert!(svg.contains("P-ONE"), "the name stays");
    }

    #[test]
    fn relative_to_one_skips_one_and_draws_the_line() {
        let results = fixture();
        let svg = render((720, 360), |a| draw_relative_to_one(a, &results));
        let colors = variant_colors(&results);
        assert_eq!(filled(&svg, colors[0]), 0, "ONE has no ratio");
        assert_eq!(filled(&svg, colors[1]), 1);
        assert_eq!(filled(&svg, colors[2]), 1);
        assert!(!svg.contains("ETD1 only"));
        assert!(svg.contains("C-WIG"));
    }

    #[test]
    fn relative_to_one_without_one() {
        let mut results = fixture();
        results
            .variants
            .iter_mut()
            .for_each(|v| v.relative_to_one = None);
        let svg = render((720, 360), |a| draw_relative_to_one(a, &results));
        assert!(svg.contains("not in this file"));
        let svg = render((720, 360), |a| draw_error_bars(a, &old_file()));
        assert!(svg.contains("C-NOG"), "old files still have the error bars");
    }

    #[test]
    fn single_variant() {
        let mut results = fixture();
        results.variants.truncate(1);
        let svg = render((720, 360), |a| draw_error_bars(a, &results));
        assert!(svg.contains("P-ONE") && svg.contains("ETD1 only"));
    }
}
