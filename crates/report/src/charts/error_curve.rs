//! Error over rollout time: the mean per-frame relative error (over every test of every seed)
//! against the rollout step, one line per variant and the ETD1 baseline, log y.

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    draw_legend, draw_message, entries, linear_log_chart, log_bounds, with_legend_strip,
    ChartError, ChartKind, Swatch, BASELINE_COLOR,
};
use unroll_core::study::data::results::{StudyResults, ERROR_CURVE_CAP};

/// Pixel width of the legend strip.
const LEGEND_WIDTH: u32 = 130;

/// A curve to draw: legend name, colour, `(step, error)` points.
type Curve = (String, RGBColor, Vec<(f64, f64)>);

/// The positive finite points of `curve` (`(step, error)`) as `f64` pairs.
fn positive(curve: &[(usize, f64)]) -> Vec<(f64, f64)> {
    curve
        .iter()
        .filter(|(_, e)| e.is_finite() && *e > 0.0)
        .map(|&(k, e)| (k as f64, e))
        .collect()
}

/// One line per variant with an error curve, then the baseline; a dotted line marks the clip
/// value [`ERROR_CURVE_CAP`] when a curve reaches it. A message when no curve is in the file.
pub fn draw_error_curve<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title_text = ChartKind::ErrorCurve.title_for(results);
    let title = title_text.as_str();
    let entries = entries(results);
    let curves: Vec<Curve> = entries
        .into_iter()
        .map(|e| (e.name, e.color, positive(&e.metrics.error_curve)))
        .filter(|(_, _, points)| !points.is_empty())
        .collect();
    let all = || curves.iter().flat_map(|c| c.2.iter());
    let Some((lo, hi)) = log_bounds(all().map(|p| p.1)) else {
        return draw_message(area, title, "Error over rollout time: not in this file.");
    };
    let steps = all().map(|p| p.0).fold(1.0, f64::max);
    let (plot_area, legend_area) = with_legend_strip(area, LEGEND_WIDTH);
    let mut chart = linear_log_chart(
        &plot_area,
        title,
        steps,
        (lo, hi),
        ("rollout step", results.facts().metric.axis),
    )?;
    for (_, color, points) in &curves {
        let width = if *color == BASELINE_COLOR { 1 } else { 2 };
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))?;
    }
    if hi >= ERROR_CURVE_CAP {
        let cap = vec![(0.0, ERROR_CURVE_CAP), (steps, ERROR_CURVE_CAP)];
        chart.draw_series(DashedLineSeries::new(
            cap,
            2,
            4,
            BLACK.mix(0.5).stroke_width(1),
        ))?;
    }
    let items: Vec<(String, RGBColor)> = curves.iter().map(|c| (c.0.clone(), c.1)).collect();
    draw_legend(&legend_area, &items, Swatch::Line)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{fixture, old_file, render, stroked};
    use super::super::variant_colors;
    use super::*;

    #[test]
    fn one_line_per_variant_and_baseline() {
        let results = fixture();
        let svg = render((720, 360), |a| draw_error_curve(a, &results));
        // Each variant and the baseline: its curve and its legend line.
        for color in variant_colors(&results).into_iter().chain([BASELINE_COLOR]) {
            assert_eq!(stroked(&svg, color), 2, "{color:?}");
        }
        for name in ["P-ONE", "C-NOG", "C-WIG", "ETD1 only", "rollout step"] {
            assert!(svg.contains(name), "{name}");
        }
    }

    #[test]
    fn non_finite_points_and_missing_curves() {
        let mut results = fixture();
        results.variants[0].metrics.error_curve[3].1 = f64::NAN;
        results.variants[0].metrics.error_curve[4].1 = f64::INFINITY;
        results.variants[1].metrics.error_curve.clear();
        results.variants[2].metrics.error_curve[0].1 = ERROR_CURVE_CAP;
        let svg = render((720, 360), |a| draw_error_curve(a, &results));
        assert!(!svg.contains("C-NOG"), "no curve, no legend entry");
        assert!(svg.contains("P-ONE"));
        let svg = render((720, 360), |a| draw_error_curve(a, &old_file()));
        assert!(svg.contains("not in this file"));
    }

    #[test]
    fn single_variant_single_point() {
        let mut results = fixture();
        results.variants.truncate(1);
        results.variants[0].metrics.error_curve.truncate(1);
        results.baseline.error_curve.clear();
        let svg = render((720, 360), |a| draw_error_curve(a, &results));
        assert!(svg.contains("P-ONE"));
    }
}
