//! Stability classes per variant and the ETD1 baseline as stacked bars (counts over all tests
//! of all seeds): static, unstable, recurring, regular from the bottom, with a legend.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::category_mesh;
use super::kind::STABILITY_TITLE;
use super::{draw_legend, draw_message, entries, label_font, title_font, ChartError, Swatch};
use unroll_core::study::data::results::{StabilityCounts, StudyResults};

/// The classes bottom to top: name, colour, count.
type Class = (&'static str, RGBColor, fn(&StabilityCounts) -> usize);

const CLASSES: [Class; 4] = [
    ("static", RGBColor(140, 140, 140), |s| s.r#static),
    ("unstable", RGBColor(214, 39, 40), |s| s.unstable),
    ("recurring", RGBColor(255, 187, 51), |s| s.recurring),
    ("regular", RGBColor(44, 160, 44), |s| s.regular),
];

/// Stacked bars of the stability counts; a message when every count is zero.
pub fn draw_stability<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
) -> Result<(), ChartError> {
    let title = STABILITY_TITLE;
    let entries = entries(results);
    let totals: Vec<usize> = entries
        .iter()
        .map(|e| CLASSES.iter().map(|c| (c.2)(&e.metrics.stability)).sum())
        .collect();
    let top = totals.iter().copied().max().unwrap_or(0);
    if top == 0 {
        return draw_message(area, title, "Stability classes: not in this file.");
    }
    let n = entries.len();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    let x_label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) => names.get(*i).map(|s| s.to_string()).unwrap_or_default(),
        _ => String::new(),
    };
    let (w, _) = area.dim_in_pixel();
    let (plot_area, legend_area) = area.split_horizontally(w.saturating_sub(100));
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, title_font())
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(56)
        .build_cartesian_2d(
            (0..n.saturating_sub(1)).into_segmented(),
            0.0..top as f64 * 1.05,
        )?;
    category_mesh(&mut chart, n, &x_label)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("tests (all seeds)")
        .label_style(label_font())
        .draw()?;
    for (k, (_, color, _)) in CLASSES.iter().enumerate() {
        let rects = entries.iter().enumerate().filter_map(|(i, e)| {
            let s = &e.metrics.stability;
            let below: usize = CLASSES[..k].iter().map(|c| (c.2)(s)).sum();
            let count = (CLASSES[k].2)(s);
            (count > 0).then(|| segment(i, below, below + count, *color))
        });
        chart.draw_series(rects)?;
    }
    let items: Vec<(String, RGBColor)> = CLASSES
        .iter()
        .rev()
        .map(|(name, color, _)| (name.to_string(), *color))
        .collect();
    draw_legend(&legend_area, &items, Swatch::Box)
}

/// The part of bar `i` from `from` to `to` tests.
fn segment(
    i: usize,
    from: usize,
    to: usize,
    color: RGBColor,
) -> Rectangle<(SegmentValue<usize>, f64)> {
    let mut rect = Rectangle::new(
        [
            (SegmentValue::Exact(i), from as f64),
            (SegmentValue::Exact(i + 1), to as f64),
        ],
        color.filled(),
    );
    rect.set_margin(0, 0, 8, 8);
    rect
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{filled, fixture, render};
    use super::*;

    #[test]
    fn stacked_segments_and_legend() {
        let results = fixture();
        let svg = render((720, 360), |a| draw_stability(a, &results));
        for (name, color, _) in CLASSES {
            assert!(svg.contains(name), "legend {name}");
            // Segments with a non-zero count, plus the legend swatch.
            let bars = results
                .variants
                .iter()
                .map(|v| &v.metrics.stability)
                .chain([&results.baseline.stability])
                .filter(|s| (CLASSES.iter().find(|c| c.0 == name).expect("class").2)(s) > 0)
                .count();
            assert_eq!(filled(&svg, color), bars + 1, "{name}");
        }
        assert!(svg.contains("ETD1 only"));
    }

    #[test]
    fn all_zero_says_so() {
        let mut results = fixture();
        for v in &mut results.variants {
            v.metrics.stability = StabilityCounts::default();
        }
        results.baseline.stability = StabilityCounts::default();
        let svg = render((720, 360), |a| draw_stability(a, &results));
        assert!(svg.contains("not in this file"));
    }
}
