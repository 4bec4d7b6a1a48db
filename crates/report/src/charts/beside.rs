//! The relative-to-ONE bars of the page's results beside a committed run of the same study:
//! each NOG / WIG variant's error ÷ ONE's (mean ± std over seeds), the page's bar in the
//! variant's colour, the committed run's lighter beside it; log y, a dashed line at 1.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::{draw_bars, Bar, BarSpec};
use super::{
    draw_message, lighten, log_axis, log_bounds, log_label, series_names, variant_colors,
    ChartError, ChartKind,
};
use unroll_core::study::data::results::{StudyResults, VariantResult};

/// Name suffix of the page's bars.
pub const HERE: &str = "here";
/// Name suffix of the committed run's bars.
pub const COMMITTED: &str = "committed";

/// Draws the paired bars: the committed run's variants in its order, then those only `here`
/// has (matched by full identity); a variant without a ratio on one side has one bar.
pub fn draw_relative_to_one_beside<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    here: &StudyResults,
    committed: &StudyResults,
) -> Result<(), ChartError> {
    let title = format!(
        "{}: here and committed",
        ChartKind::RelativeToOne.title_for(committed)
    );
    let bars = paired_bars(here, committed);
    let values = bars.iter().flat_map(|b| {
        let std = if b.std.is_finite() { b.std } else { 0.0 };
        [b.mean, b.mean + std]
    });
    let bounds = log_bounds(values.clone()).and_then(|_| log_bounds(values.chain([1.0])));
    let Some((lo, hi)) = bounds else {
        return draw_message(
            area,
            &title,
            "Relative to ONE: in neither run (no ONE variant to compare with).",
        );
    };
    let spec = BarSpec {
        title: &title,
        y_desc: "error ÷ ONE's",
        reference: Some(1.0),
    };
    draw_bars(area, &spec, &bars, log_axis(lo, hi), &log_label)
}

/// Every variant of `results` with its series name and colour.
fn named(results: &StudyResults) -> Vec<(VariantResult, String, RGBColor)> {
    let names = series_names(results);
    let colors = variant_colors(results);
    results
        .variants
        .iter()
        .zip(names)
        .zip(colors)
        .map(|((v, name), color)| (v.clone(), name, color))
        .collect()
}

/// The bars in drawing order: per variant, the page's ratio to ONE in its colour, then the
/// committed run's lighter (each only where that side has a ratio).
fn paired_bars(here: &StudyResults, committed: &StudyResults) -> Vec<Bar> {
    let (ours, theirs) = (named(here), named(committed));
    let only_here = ours
        .iter()
        .filter(|(v, _, _)| !committed.variants.iter().any(|o| o.id == v.id));
    let mut bars = Vec::new();
    for (variant, name, color) in theirs.iter().chain(only_here) {
        let ratio = |results: &StudyResults| {
            results
                .variants
                .iter()
                .find(|o| o.id == variant.id)
                .and_then(|o| o.relative_to_one.clone())
        };
        for (side, ratio, shade) in [
            (HERE, ratio(here), *color),
            (COMMITTED, ratio(committed), lighten(*color, 0.55)),
        ] {
            if let Some(r) = ratio {
                bars.push(Bar {
                    interval: None,
                    name: format!("{name} {side}"),
                    color: shade,
                    mean: r.mean,
                    std: r.std,
                });
            }
        }
    }
    bars
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{filled, fixture, render};
    use super::*;

    #[test]
    fn paired_bars_here_and_committed() {
        let committed = fixture();
        let mut here = fixture();
        here.variants[1]
            .relative_to_one
            .as_mut()
            .expect("ratio")
            .mean = 0.3;
        let svg = render((960, 360), |a| {
            draw_relative_to_one_beside(a, &here, &committed)
        });
        let colors = variant_colors(&committed);
        for color in &colors[1..] {
            assert_eq!(filled(&svg, *color), 1, "the page's bar");
            assert_eq!(filled(&svg, lighten(*color, 0.55)), 1, "the committed bar");
        }
        assert!(svg.contains("C-NOG here") && svg.contains("C-NOG committed"));
        assert!(svg.contains("here and committed"));
    }

    #[test]
    fn without_ratios_a_message() {
        let mut committed = fixture();
        committed
            .variants
            .iter_mut()
            .for_each(|v| v.relative_to_one = None);
        let svg = render((960, 360), |a| {
            draw_relative_to_one_beside(a, &committed, &committed)
        });
        assert!(svg.contains("in neither run"));
    }
}
