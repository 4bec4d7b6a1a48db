//! Vorticity correlation over rollout time (Kochkov et al.'s measure, not the paper's): the mean
//! correlation of each variant's and the coarse solver's vorticity with the truth's against the
//! rollout step, with dashed lines at the levels 0.95 and 0.8 whose crossing times the table
//! gives.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    draw_legend, draw_message, entries, label_font, title_font, with_legend_strip, ChartError,
    ChartKind, Swatch, BASELINE_COLOR,
};
use unroll_core::study::data::results::{Metrics, StudyResults};
use unroll_core::types::vorticity_metrics::CORRELATION_LEVELS;

/// Pixel width of the legend strip.
const LEGEND_WIDTH: u32 = 150;

/// A curve to draw: legend name, colour, `(step, correlation)` points.
type Curve = (String, RGBColor, Vec<(f64, f64)>);

/// The finite points of `m`'s correlation curve (none when `m` has no vorticity measures).
fn points(m: &Metrics) -> Vec<(f64, f64)> {
    m.vorticity.as_ref().map_or_else(Vec::new, |v| {
        v.correlation_curve
            .iter()
            .filter(|(_, c)| c.is_finite())
            .map(|&(k, c)| (k as f64, c))
            .collect()
    })
}

/// One integral time scale in coarse steps, from the baseline's times in steps and in time
/// scales (`None` when they do not give one).
fn time_scale_steps(results: &StudyResults) -> Option<f64> {
    let v = results.baseline.vorticity.as_ref()?;
    let tau = v.steps_above_080.mean / v.time_scales_above_080.mean;
    (tau.is_finite() && tau > 0.0).then_some(tau)
}

/// One line per variant with the measures, then the baseline; dashed lines at 0.95 and 0.8.
/// A message when the file has no correlation curve.
pub fn draw_vorticity_correlation<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title = ChartKind::VorticityCorrelation.title_for(results);
    let curves: Vec<Curve> = entries(results)
        .into_iter()
        .map(|e| (e.name, e.color, points(e.metrics)))
        .filter(|(_, _, points)| !points.is_empty())
        .collect();
    let all = || curves.iter().flat_map(|c| c.2.iter());
    if curves.is_empty() {
        return draw_message(area, &title, "Vorticity correlation: not in this file.");
    }
    let steps = all().map(|p| p.0).fold(1.0, f64::max);
    let low = all().map(|p| p.1).fold(0.0, f64::min);
    let x_desc = time_scale_steps(results).map_or("rollout step".to_string(), |tau| {
        format!("rollout step (one time scale τ ≈ {tau:.1} steps)")
    });
    let (plot_area, legend_area) = with_legend_strip(area, LEGEND_WIDTH);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(&title, title_font())
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..steps, low..1.02)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(x_desc)
        .y_desc("vorticity correlation ρ")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.2}"))
        .label_style(label_font())
        .axis_desc_style(label_font())
        .draw()?;
    for level in CORRELATION_LEVELS {
        let line = vec![(0.0, level), (steps, level)];
        let style = BLACK.mix(0.5).stroke_width(1);
        chart.draw_series(DashedLineSeries::new(line, 4, 4, style))?;
        let label = Text::new(format!("ρ = {level}"), (steps * 0.01, level), label_font());
        chart.draw_series(std::iter::once(label))?;
    }
    for (_, color, points) in &curves {
        let width = if *color == BASELINE_COLOR { 1 } else { 2 };
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))?;
    }
    let items: Vec<(String, RGBColor)> = curves.iter().map(|c| (c.0.clone(), c.1)).collect();
    draw_legend(&legend_area, &items, Swatch::Line)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{count, fixture, kolmogorov_fixture, render, stroked};
    use super::super::variant_colors;
    use super::*;

    #[test]
    fn one_line_per_variant_and_baseline_and_the_levels() {
        let results = kolmogorov_fixture();
        let svg = render((720, 360), |a| draw_vorticity_correlation(a, &results));
        for color in variant_colors(&results).into_iter().chain([BASELINE_COLOR]) {
            assert_eq!(stroked(&svg, color), 2, "curve and legend line: {color:?}");
        }
        for text in [
            "C-ONE",
            "C-WIG",
            "PISO only",
            "τ ≈ 8.0 steps",
            "ρ = 0.95",
            "ρ = 0.8",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(count(&svg, "<polyline") >= 4 + 2, "four curves and dashes");
    }

    #[test]
    fn files_without_the_measures_say_so() {
        let mut results = kolmogorov_fixture();
        results.baseline.vorticity = None;
        results.variants[0].metrics.vorticity = None;
        let svg = render((720, 360), |a| draw_vorticity_correlation(a, &results));
        assert!(!svg.contains("C-ONE") && svg.contains("C-NOG"));
        assert!(!svg.contains("τ ≈"), "no baseline, no time scale");
        let svg = render((720, 360), |a| draw_vorticity_correlation(a, &fixture()));
        assert!(svg.contains("not in this file"));
    }
}
