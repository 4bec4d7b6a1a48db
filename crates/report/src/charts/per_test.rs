//! Every test kept: each test's relative error (of every seed) per variant and the baseline, as
//! a strip of points on a log axis with the mean marked, at the results' error horizon. The
//! heavy tail of rollouts that blow up (clipped at the cap) is what a mean hides.

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{draw_message, log_axis, log_bounds, log_label, series_names, variant_colors};
use super::{title_font, ChartError, ChartKind, BASELINE_COLOR};
use crate::horizons::per_test_errors;
use unroll_core::study::data::results::StudyResults;

/// A deterministic jitter in `[-0.3, 0.3]` for point `i` (golden-ratio sequence).
fn jitter(i: usize) -> f64 {
    ((i as f64 * 0.618_033_988_75).fract() - 0.5) * 0.6
}

/// One column per variant and one for the baseline: a point per test and seed, the mean as a
/// bar; a message when the file keeps no per-test curves.
pub fn draw_per_test<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title = ChartKind::PerTest.title_for(results);
    let columns = per_test_errors(results);
    let positive = || {
        columns
            .iter()
            .flat_map(|c| c.1.iter())
            .copied()
            .filter(|e| *e > 0.0)
    };
    let Some((lo, hi)) = log_bounds(positive()) else {
        return draw_message(
            area,
            &title,
            "Per-test errors: not in this file (re-run to keep them).",
        );
    };
    let (names, colors) = (series_names(results), variant_colors(results));
    let baseline = results.facts().baseline.short.to_string();
    let label = |i: Option<usize>| i.map_or(baseline.clone(), |i| names[i].clone());
    let color = |i: Option<usize>| i.map_or(BASELINE_COLOR, |i| colors[i]);
    let count = columns.len();
    let mut chart = ChartBuilder::on(area)
        .caption(&title, title_font())
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.5..count as f64 - 0.5, log_axis(lo, hi))?;
    let labels: Vec<String> = columns.iter().map(|c| label(c.0)).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(count)
        .x_label_formatter(&|x| labels.get(x.round() as usize).cloned().unwrap_or_default())
        .y_label_formatter(&log_label)
        .y_desc(format!(
            "{} per test (H = {})",
            results.facts().metric.axis,
            results.config.eval.error_horizon
        ))
        .draw()?;
    for (column, (index, errors)) in columns.iter().enumerate() {
        draw_strip(&mut chart, column as f64, errors, color(*index))?;
    }
    Ok(())
}

/// The chart [`draw_per_test`] draws on: columns × log error.
type StripChart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::combinators::WithKeyPoints<plotters::coord::combinators::LogCoord<f64>>,
    >,
>;

/// One column at `x`: a jittered point per error, a bar at their mean.
fn draw_strip<DB: DrawingBackend>(
    chart: &mut StripChart<'_, DB>,
    x: f64,
    errors: &[f64],
    color: RGBColor,
) -> Result<(), ChartError> {
    let points = errors
        .iter()
        .enumerate()
        .filter(|(_, e)| **e > 0.0)
        .map(|(i, &e)| Circle::new((x + jitter(i), e), 2, color.mix(0.6).filled()));
    chart.draw_series(points)?;
    let mean = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
    if mean > 0.0 {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x - 0.4, mean), (x + 0.4, mean)],
            color.stroke_width(3),
        )))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{every_test_fixture, fixture, render};
    use super::*;

    /// A point per test and seed in every column, the baseline's too; the blown-up test sits
    /// at the clip; a file without curves says so.
    #[test]
    fn a_point_per_test_and_seed() {
        let results = every_test_fixture();
        let columns = per_test_errors(&results);
        assert_eq!(columns.len(), 5);
        assert!(columns[..4].iter().all(|(_, e)| e.len() == 8));
        assert_eq!(columns[4].1.len(), 4);
        assert_eq!(columns[1].1[3], unroll_core::metrics::FRAME_ERROR_CLIP);
        let svg = render((720, 360), |a| draw_per_test(a, &results));
        assert_eq!(svg.matches("<circle").count(), 4 * 8 + 4);
        for name in ["P-ONE", "C-NOG", "P-WIG", "H = 12"] {
            assert!(svg.contains(name), "{name}");
        }
        let svg = render((720, 360), |a| draw_per_test(a, &fixture()));
        assert!(svg.contains("not in this file"));
    }
}
