//! Network-size convergence: mean relative error against trainable parameters on log–log
//! axes, one series per mode/modality group (`C-WIG` …) and architecture (overlaid, one marker
//! shape per architecture), each legend entry with the group's fitted slope ([`log_log_slope`]:
//! error ∝ params^slope) and its spread over seeds; the ETD1 baseline as a dashed line.

use crate::system_words::SystemWords;
use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    draw_legend, draw_message, label_font, log_axis, log_bounds, log_label, shaded, title_font,
    with_legend_strip, ChartError, ChartKind, Hue, Swatch, BASELINE_COLOR,
};
use unroll_core::metrics::log_log_slope;
use unroll_core::nets::{Architecture, Marker};
use unroll_core::study::data::convergence::{convergence_fits, ConvergenceFit};
use unroll_core::study::data::results::{StudyResults, VariantResult};

/// Pixel width of the legend strip (names like `C-WIG dilated (slope -0.47 ± 0.02)`).
const LEGEND_WIDTH: u32 = 230;

/// The variants of one mode/modality (and architecture, when those differ) at several sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeGroup {
    /// `C-WIG`-style name (plus the architecture when the file has several).
    pub name: String,
    /// Series colour (the label's hue).
    pub color: RGBColor,
    /// `(params, mean relative error)`, sorted by params.
    pub points: Vec<(f64, f64)>,
    /// Fitted log–log slope, when ≥ 2 positive points.
    pub slope: Option<f64>,
    /// Mean ± std of the per-seed slopes, with ≥ 2 seeds ([`convergence_fits`]).
    pub slope_spread: Option<(f64, f64)>,
    /// The architecture (its marker shape).
    pub architecture: Architecture,
}

/// The groups of `results` with at least two distinct parameter counts, in first-appearance
/// order.
pub fn size_groups(results: &StudyResults) -> Vec<SizeGroup> {
    let several_archs = results
        .variants
        .iter()
        .any(|v| v.id.architecture != results.variants[0].id.architecture);
    let key = |v: &VariantResult| {
        if several_archs {
            format!("{} {}", v.id.label(), v.id.architecture)
        } else {
            v.id.label()
        }
    };
    let firsts = first_of_each(results, key);
    let colors = shaded(
        &firsts
            .iter()
            .map(|v| (v.id.mode, v.id.modality))
            .collect::<Vec<Hue>>(),
    );
    let fits = convergence_fits(results);
    firsts
        .into_iter()
        .zip(colors)
        .filter_map(|(first, color)| {
            let name = key(first);
            let mut points: Vec<(f64, f64)> = results
                .variants
                .iter()
                .filter(|v| key(v) == name)
                .map(|v| (v.params as f64, v.metrics.relative_error.mean))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut sizes: Vec<f64> = points.iter().map(|p| p.0).collect();
            sizes.dedup();
            (sizes.len() >= 2).then(|| SizeGroup {
                slope: log_log_slope(&points),
                slope_spread: seed_spread(&fits, first),
                architecture: first.id.architecture,
                name,
                color,
                points,
            })
        })
        .collect()
}

/// The first variant of each group named by `key`, in first-appearance order.
fn first_of_each(
    results: &StudyResults,
    key: impl Fn(&VariantResult) -> String,
) -> Vec<&VariantResult> {
    let mut names: Vec<String> = Vec::new();
    let mut firsts = Vec::new();
    for v in &results.variants {
        let name = key(v);
        if !names.contains(&name) {
            names.push(name);
            firsts.push(v);
        }
    }
    firsts
}

/// Mean ± std of the per-seed slopes of `v`'s architecture, mode and modality.
fn seed_spread(fits: &[ConvergenceFit], v: &VariantResult) -> Option<(f64, f64)> {
    fits.iter()
        .find(|f| {
            f.architecture == v.id.architecture
                && f.mode == v.id.mode
                && f.modality == v.id.modality
        })
        .and_then(|f| f.seed_slope_stat())
}

/// The legend text of `group`: its name and fitted slope (± its spread over seeds).
fn legend_name(group: &SizeGroup) -> String {
    match (group.slope, group.slope_spread) {
        (Some(_), Some((mean, std))) => format!("{} (slope {mean:.2} ± {std:.2})", group.name),
        (Some(s), None) => format!("{} (slope {s:.2})", group.name),
        (None, _) => format!("{} (no slope)", group.name),
    }
}

/// A chart with log axes on both sides.
type LogLog<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>>;

/// Relative error vs parameter count, log–log; a message when no group has ≥ 2 sizes.
pub fn draw_sizes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title_text = ChartKind::Sizes.title_for(results);
    let title = title_text.as_str();
    let groups = size_groups(results);
    let all = || groups.iter().flat_map(|g| g.points.iter()).filter(positive);
    let baseline = results.baseline.relative_error.mean;
    let (Some((x_lo, x_hi)), Some((y_lo, y_hi))) = (
        log_bounds(all().map(|p| p.0)),
        log_bounds(all().map(|p| p.1).chain([baseline])),
    ) else {
        return draw_message(area, title, "Fewer than 2 network sizes in this file.");
    };
    let (plot_area, legend_area) = with_legend_strip(area, LEGEND_WIDTH);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, title_font())
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(log_axis(x_lo, x_hi), log_axis(y_lo, y_hi))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc("trainable parameters")
        .y_desc(results.facts().metric.axis)
        .x_label_formatter(&log_label)
        .y_label_formatter(&log_label)
        .label_style(label_font())
        .axis_desc_style(label_font())
        .draw()?;
    for g in &groups {
        draw_group(&mut chart, g)?;
    }
    let mut items: Vec<(String, RGBColor)> =
        groups.iter().map(|g| (legend_name(g), g.color)).collect();
    if baseline.is_finite() && baseline > 0.0 {
        let line = vec![(x_lo, baseline), (x_hi, baseline)];
        chart.draw_series(DashedLineSeries::new(
            line,
            6,
            4,
            BASELINE_COLOR.stroke_width(1),
        ))?;
        items.push((results.facts().baseline.name.to_string(), BASELINE_COLOR));
    }
    draw_legend(&legend_area, &items, Swatch::Line)
}

/// Whether a point can be drawn on log–log axes.
fn positive(p: &&(f64, f64)) -> bool {
    p.0 > 0.0 && p.1.is_finite() && p.1 > 0.0
}

/// One group's line and its markers, one marker shape per architecture: ResNet1D circle, GCN
/// triangle, dilated ResNet square, U-Net diamond, FNO cross, 2-D ResNet ring.
fn draw_group<DB: DrawingBackend>(
    chart: &mut LogLog<'_, DB>,
    g: &SizeGroup,
) -> Result<(), ChartError> {
    let points: Vec<(f64, f64)> = g.points.iter().filter(positive).copied().collect();
    chart.draw_series(LineSeries::new(points.clone(), g.color.stroke_width(2)))?;
    let style = g.color.filled();
    let points = points.into_iter();
    match g.architecture.facts().marker {
        Marker::Circle => {
            chart.draw_series(points.map(|p| Circle::new(p, 4, style)))?;
        }
        Marker::Triangle => {
            chart.draw_series(points.map(|p| TriangleMarker::new(p, 5, style)))?;
        }
        Marker::Square => {
            chart.draw_series(
                points.map(|p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], style)),
            )?;
        }
        Marker::Diamond => {
            chart.draw_series(points.map(|p| {
                EmptyElement::at(p) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], style)
            }))?;
        }
        Marker::Cross => {
            chart.draw_series(points.map(|p| Cross::new(p, 4, g.color.stroke_width(2))))?;
        }
        Marker::Ring => {
            chart.draw_series(points.map(|p| Circle::new(p, 4, g.color.stroke_width(2))))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{cli_fixture, count, fixture, render, sizes_fixture};
    use super::*;
    use unroll_core::nets::Architecture;
    use unroll_core::study::data::convergence::convergence_fits;
    use unroll_core::train::{Modality, Mode};

    #[test]
    fn per_seed_slopes_recover_known_exponents() {
        // Fixture: C-WIG at sizes P with seed k's error = a_k · P^(−1/3 + 0.02·k).
        let mut results = fixture();
        let template = results.variants[0].clone();
        results.variants.clear();
        for (i, params) in [250usize, 1_700, 9_600, 50_000].into_iter().enumerate() {
            let mut v = template.clone();
            v.id.mode = Mode::Correct;
            v.id.modality = Modality::Wig;
            v.id.architecture = Architecture::Fno;
            v.id.channels = i + 1;
            v.params = params;
            v.seeds = vec![0, 1, 2];
            v.training.clear();
            let per_seed: Vec<f64> = (0..3)
                .map(|k| {
                    let slope = -1.0 / 3.0 + 0.02 * k as f64;
                    (1.0 + k as f64) * (params as f64).powf(slope)
                })
                .collect();
            v.metrics.relative_error =
                unroll_core::study::data::results::SeedStat::from_values(per_seed);
            results.variants.push(v);
        }
        let fits = convergence_fits(&results);
        assert_eq!(fits.len(), 1);
        let fit = &fits[0];
        assert_eq!(fit.architecture, Architecture::Fno);
        assert_eq!(fit.seed_slopes.len(), 3);
        for (k, slope) in fit.seed_slopes.iter().enumerate() {
            assert!(
                (slope - (-1.0 / 3.0 + 0.02 * k as f64)).abs() < 1e-9,
                "{slope}"
            );
        }
        let (mean, std) = fit.seed_slope_stat().expect("3 seeds");
        assert!((mean + 1.0 / 3.0 - 0.02).abs() < 1e-9);
        assert!((std - 0.02 * (2.0f64 / 3.0).sqrt()).abs() < 1e-9);
        assert_eq!(fit.paper_slope(), Some(-1.0 / 3.0));
        assert!(
            fit.slope_text().starts_with("-0.313 ± 0.016"),
            "{}",
            fit.slope_text()
        );
        // A diverged seed is matched by its seed number, not its position.
        let mut diverged = results.clone();
        for v in &mut diverged.variants {
            v.training = template.training.clone();
            v.training.truncate(1);
            v.training[0].seed = 1;
            v.training[0].diverged_at = None;
            v.seeds = vec![1];
            let e = v.metrics.relative_error.per_seed[1];
            v.metrics.relative_error =
                unroll_core::study::data::results::SeedStat::from_values(vec![e]);
        }
        // Without the smallest size: the three largest only.
        let tail =
            &unroll_core::study::data::convergence::convergence_fits_skipping(&results, 1)[0];
        assert_eq!(tail.points.len(), 3);
        assert!((tail.points[0].0 - 1_700.0).abs() < 1e-9);
        assert!((tail.seed_slopes[2] - (-1.0 / 3.0 + 0.04)).abs() < 1e-9);
        assert!(
            unroll_core::study::data::convergence::convergence_fits_skipping(&results, 3)
                .is_empty()
        );
        let fit = &convergence_fits(&diverged)[0];
        assert_eq!(fit.seed_slopes.len(), 1);
        assert!((fit.seed_slopes[0] + 1.0 / 3.0 - 0.02).abs() < 1e-9);
        assert_eq!(fit.seed_slope_stat(), None);
    }

    #[test]
    fn architectures_overlay_with_slope_and_spread() {
        let mut results = sizes_fixture();
        let mut fno = results.variants.clone();
        for v in &mut fno {
            v.id.architecture = Architecture::Fno;
            v.metrics.relative_error.mean *= 2.0;
        }
        results.variants.extend(fno);
        let groups = size_groups(&results);
        assert_eq!(groups.len(), 4);
        assert!(groups.iter().any(|g| g.name == "C-WIG fno"), "{groups:?}");
        let svg = render((720, 360), |a| draw_sizes(a, &results));
        assert!(svg.contains("C-NOG resnet") && svg.contains("C-NOG fno"));
        // ResNet circles, FNO crosses (two strokes each).
        assert_eq!(count(&svg, "<circle"), 6);
        assert_eq!(
            count(&svg, "<line"),
            12 + count(
                &render((720, 360), |a| draw_sizes(a, &sizes_fixture())),
                "<line"
            )
        );
        // Several seeds: the legend gives the spread of the per-seed slopes.
        let mut seeded = results.clone();
        for v in &mut seeded.variants {
            let e = v.metrics.relative_error.mean;
            v.seeds = vec![0, 1];
            v.training.clear();
            v.metrics.relative_error =
                unroll_core::study::data::results::SeedStat::from_values(vec![
                    e,
                    e * (v.params as f64).powf(0.1),
                ]);
        }
        let groups = size_groups(&seeded);
        assert!(
            groups.iter().all(|g| g.slope_spread.is_some()),
            "{groups:?}"
        );
        let svg = render((720, 360), |a| draw_sizes(a, &seeded));
        assert!(svg.contains(" ± "), "{}", &svg[..300]);
    }

    #[test]
    fn groups_with_slopes() {
        let groups = size_groups(&sizes_fixture());
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].name, "C-NOG");
        assert_eq!(groups[0].points.len(), 3);
        let slope = groups[1].slope.expect("slope");
        assert!((slope + 0.5).abs() < 1e-9, "{slope}");
        assert_ne!(groups[0].color, groups[1].color);
    }

    #[test]
    fn legend_has_the_slopes() {
        let svg = render((720, 360), |a| draw_sizes(a, &sizes_fixture()));
        // Two seeds with the same exponent: no spread.
        assert_eq!(count(&svg, "(slope -0.50 ± 0.00)"), 2, "{}", &svg[..200]);
        assert!(svg.contains("C-WIG") && svg.contains("trainable parameters"));
        assert_eq!(count(&svg, "<circle"), 6);
    }

    #[test]
    fn fewer_than_two_sizes_says_so() {
        for results in [fixture(), cli_fixture()] {
            assert!(size_groups(&results).is_empty());
            let svg = render((720, 360), |a| draw_sizes(a, &results));
            assert!(svg.contains("Fewer than 2 network sizes"));
        }
    }

    #[test]
    fn non_finite_error_is_skipped() {
        let mut results = sizes_fixture();
        results.variants[0].metrics.relative_error.mean = f64::NAN;
        results.variants[1].metrics.relative_error.mean = f64::INFINITY;
        let svg = render((720, 360), |a| draw_sizes(a, &results));
        assert!(svg.contains("C-NOG"));
        assert_eq!(count(&svg, "<circle"), 4);
    }
}
