//! Training loss curves (log y): live while a study trains, and from a finished file's
//! `training[*].loss_curve`. Curves sharing a name (the seeds of one variant) share a colour
//! and one legend entry.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::kind::LOSS_TITLE;
use super::{
    draw_legend, draw_message, linear_log_chart, log_bounds, series_names, shaded,
    with_legend_strip, ChartError, Hue, Swatch,
};
use unroll_core::study::data::results::StudyResults;

/// A loss curve: its legend name, its colour identity and its `(iteration, loss)` points.
#[derive(Debug, Clone, PartialEq)]
pub struct LossCurve {
    /// Legend name (curves sharing it — the seeds of one variant — share a legend entry).
    pub name: String,
    /// The variant's mode × modality (its colour).
    pub hue: Hue,
    /// `(iteration, loss)`.
    pub points: Vec<(usize, f32)>,
}

/// A drawable curve: its name, its hue and its positive points.
type Series<'a> = (&'a str, Hue, Vec<(f64, f64)>);

/// Pixel width of the legend strip.
const LEGEND_WIDTH: u32 = 130;

/// The loss curves of `results`: one per variant and seed, named like the other charts'
/// series (the seeds of a variant share the name).
pub fn loss_curves(results: &StudyResults) -> Vec<LossCurve> {
    results
        .variants
        .iter()
        .zip(series_names(results))
        .flat_map(|(v, name)| {
            v.training.iter().map(move |t| LossCurve {
                name: name.clone(),
                hue: (v.id.mode, v.id.modality),
                points: t.loss_curve.clone(),
            })
        })
        .collect()
}

/// Adds live loss points to the curve named `name` (created, with `hue`, when new): curves
/// stay in first-appearance order.
pub fn extend_curve(
    curves: &mut Vec<LossCurve>,
    name: &str,
    hue: Hue,
    points: impl IntoIterator<Item = (usize, f32)>,
) {
    match curves.iter_mut().find(|c| c.name == name) {
        Some(curve) => curve.points.extend(points),
        None => curves.push(LossCurve {
            name: name.to_string(),
            hue,
            points: points.into_iter().collect(),
        }),
    }
}

/// The positive finite points of `curve` as `f64` pairs (log scale: zero and non-finite
/// losses are skipped).
fn positive(curve: &[(usize, f32)]) -> Vec<(f64, f64)> {
    curve
        .iter()
        .filter(|(_, l)| l.is_finite() && *l > 0.0)
        .map(|&(i, l)| (i as f64, f64::from(l)))
        .collect()
}

/// Draws `curves` (log y, iterations on x); `empty` is the message when no curve has a
/// drawable point. The first curve of a name is drawn 2 px wide, later ones (other seeds) 1 px.
pub fn draw_loss<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[LossCurve],
    empty: &str,
) -> Result<(), ChartError> {
    let title = LOSS_TITLE;
    let points: Vec<Series> = curves
        .iter()
        .map(|c| (c.name.as_str(), c.hue, positive(&c.points)))
        .filter(|(_, _, p)| !p.is_empty())
        .collect();
    let all = || points.iter().flat_map(|p| p.2.iter());
    let Some((lo, hi)) = log_bounds(all().map(|p| p.1)) else {
        return draw_message(area, title, empty);
    };
    let iterations = all().map(|p| p.0).fold(1.0, f64::max);
    let mut names: Vec<String> = Vec::new();
    let mut hues: Vec<Hue> = Vec::new();
    for (name, hue, _) in &points {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
            hues.push(*hue);
        }
    }
    let colors = shaded(&hues);
    let color_of = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .map_or(BLACK, |i| colors[i])
    };
    let (plot_area, legend_area) = with_legend_strip(area, LEGEND_WIDTH);
    let mut chart = linear_log_chart(
        &plot_area,
        title,
        iterations,
        (lo, hi),
        ("iteration", "loss"),
    )?;
    let mut seen: Vec<&str> = Vec::new();
    for (name, _, p) in &points {
        let width = if seen.contains(name) { 1 } else { 2 };
        seen.push(name);
        chart.draw_series(LineSeries::new(
            p.clone(),
            color_of(name).stroke_width(width),
        ))?;
    }
    let items: Vec<(String, RGBColor)> = names
        .iter()
        .zip(&colors)
        .map(|(n, c)| (n.clone(), *c))
        .collect();
    draw_legend(&legend_area, &items, Swatch::Line)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{count, fixture, old_file, render, stroked};
    use super::super::variant_colors;
    use super::*;
    use unroll_core::train::{Modality, Mode};

    #[test]
    fn one_line_per_seed_one_legend_entry_per_variant() {
        let results = fixture();
        let curves = loss_curves(&results);
        assert_eq!(curves.len(), 6);
        let svg = render((720, 360), |a| draw_loss(a, &curves, "none"));
        // Per variant: two seeds' curves and one legend line, in the variant's colour.
        for color in variant_colors(&results) {
            assert_eq!(stroked(&svg, color), 3, "{color:?}");
        }
        assert_eq!(count(&svg, "C-NOG"), 1, "one legend entry");
    }

    #[test]
    fn live_points_grouped_by_name() {
        let c_nog = (Mode::Correct, Modality::Nog);
        let mut curves = Vec::new();
        extend_curve(&mut curves, "C-NOG", c_nog, [(0, 1.0)]);
        extend_curve(
            &mut curves,
            "P-WIG",
            (Mode::Predict, Modality::Wig),
            [(0, 2.0)],
        );
        extend_curve(&mut curves, "C-NOG", c_nog, [(10, 0.5)]);
        assert_eq!(curves.len(), 2);
        assert_eq!(curves[0].points, vec![(0, 1.0), (10, 0.5)]);
        assert_eq!(curves[1].points, vec![(0, 2.0)]);
    }

    #[test]
    fn live_curves_and_empty() {
        let mut live: Vec<LossCurve> = Vec::new();
        let (c_nog, p_wig) = (
            (Mode::Correct, Modality::Nog),
            (Mode::Predict, Modality::Wig),
        );
        extend_curve(
            &mut live,
            "C-NOG",
            c_nog,
            [(0, 1.0), (10, f32::NAN), (20, 0.5)],
        );
        extend_curve(&mut live, "P-WIG", p_wig, [(0, f32::INFINITY), (5, 0.0)]);
        let svg = render((720, 360), |a| draw_loss(a, &live, "waiting"));
        assert!(svg.contains("C-NOG") && !svg.contains("P-WIG"));
        let svg = render((720, 360), |a| {
            draw_loss(a, &[], "waiting for the first loss")
        });
        assert!(svg.contains("waiting for the first loss"));
        let old = old_file();
        let svg = render((720, 360), |a| draw_loss(a, &loss_curves(&old), "none"));
        assert!(svg.contains("<svg"));
    }
}
