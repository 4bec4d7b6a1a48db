//! The horizon as a lens: P-WIG / C-NOG and each NOG / ONE, WIG / ONE (ratio of the seeds'
//! means) against the error horizon H, every point re-scored exactly from the per-test curves;
//! the paper's 4.5× drawn dashed, 1 dotted, the paper's H = 12 and the shown H marked.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{draw_legend, draw_message, linear_log_chart, log_bounds, with_legend_strip, Swatch};
use super::{identity_color, ChartError, ChartKind};
use crate::horizons::{default_horizons, horizon_rows, ratio_label, HorizonRow};
use crate::orderings::HEADLINE_FACTOR;
use unroll_core::study::data::results::StudyResults;
use unroll_core::train::{Modality, Mode};

/// Pixel width of the legend strip.
const LEGEND_WIDTH: u32 = 130;
/// The paper's error horizon.
const PAPER_HORIZON: f64 = 12.0;

/// A line: name, colour, `(H, ratio)` points.
type Line = (String, RGBColor, Vec<(f64, f64)>);

/// The lines of `rows`.
fn lines(rows: &[HorizonRow]) -> Vec<Line> {
    let mut out = vec![(
        "P-WIG / C-NOG".to_string(),
        RGBColor(0, 0, 0),
        rows.iter()
            .filter_map(|r| Some((r.horizon as f64, r.p_wig_over_c_nog?)))
            .collect(),
    )];
    let variants: Vec<(Mode, Modality)> = rows
        .first()
        .map(|r| r.relative_to_one.iter().map(|&(m, v, _)| (m, v)).collect())
        .unwrap_or_default();
    for (mode, modality) in variants {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                r.relative_to_one
                    .iter()
                    .find(|&&(m, v, _)| (m, v) == (mode, modality))
                    .map(|&(_, _, ratio)| (r.horizon as f64, ratio))
            })
            .collect();
        out.push((
            ratio_label(mode, modality),
            identity_color((mode, modality)),
            points,
        ));
    }
    out.retain(|l| !l.2.is_empty());
    out
}

/// The ratios against H (up to 100 steps); a message when the file keeps no per-test curves.
pub fn draw_horizons<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title = ChartKind::Horizons.title_for(results);
    let longest = results.longest_horizon().unwrap_or(0).min(100);
    let rows = horizon_rows(results, &default_horizons(longest)).unwrap_or_default();
    let lines = lines(&rows);
    let values = lines
        .iter()
        .flat_map(|l| l.2.iter().map(|p| p.1))
        .chain([HEADLINE_FACTOR, 1.0]);
    let (Some((lo, hi)), false) = (log_bounds(values), lines.is_empty()) else {
        return draw_message(
            area,
            &title,
            "Ratios against the horizon: not in this file (re-run to keep every test).",
        );
    };
    let (plot_area, legend_area) = with_legend_strip(area, LEGEND_WIDTH);
    let x_max = longest as f64;
    let mut chart = linear_log_chart(
        &plot_area,
        &title,
        x_max,
        (lo, hi),
        ("error horizon H (network steps)", "ratio"),
    )?;
    for (_, color, points) in &lines {
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?;
    }
    let dashed = |y: f64, gap: u32| {
        DashedLineSeries::new(
            vec![(0.0, y), (x_max, y)],
            4,
            gap,
            BLACK.mix(0.5).stroke_width(1),
        )
    };
    chart.draw_series(dashed(HEADLINE_FACTOR, 4))?;
    chart.draw_series(dashed(1.0, 2))?;
    for (h, style) in [
        (PAPER_HORIZON, BLACK.mix(0.4)),
        (results.config.eval.error_horizon as f64, RED.mix(0.6)),
    ] {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(h, lo), (h, hi)],
            style.stroke_width(1),
        )))?;
    }
    let mut items: Vec<(String, RGBColor)> = lines.iter().map(|l| (l.0.clone(), l.1)).collect();
    items.push(("paper: 4.5×, H = 12".to_string(), RGBColor(128, 128, 128)));
    draw_legend(&legend_area, &items, Swatch::Line)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{every_test_fixture, fixture, render};
    use super::*;

    /// The headline factor and each ratio to ONE as lines over H; the paper's 4.5× and H = 12
    /// marked; a file without curves says so.
    #[test]
    fn ratios_against_the_horizon() {
        let results = every_test_fixture();
        let rows = horizon_rows(&results, &[1, 12, 40]).expect("rows");
        assert_eq!(rows.len(), 3);
        // P-WIG's errors grow faster than C-NOG's, so the factor grows with H.
        let factor = |r: &HorizonRow| r.p_wig_over_c_nog.expect("factor");
        assert!(factor(&rows[2]) > factor(&rows[1]) && factor(&rows[1]) > factor(&rows[0]));
        assert_eq!(
            rows[1].relative_to_one.len(),
            1,
            "C-NOG / ONE has no C-ONE here"
        );
        let svg = render((720, 360), |a| draw_horizons(a, &results));
        for name in ["P-WIG / C-NOG", "paper: 4.5×, H = 12", "error horizon H"] {
            assert!(svg.contains(name), "{name}");
        }
        let svg = render((720, 360), |a| draw_horizons(a, &fixture()));
        assert!(svg.contains("not in this file"));
    }
}
