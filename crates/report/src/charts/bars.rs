//! The bar chart shared by the error, relative-to-ONE and correlation charts: one bar per entry
//! (named under it) with a ± std whisker, on a linear or log y axis, optionally a dashed
//! reference line.

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordusize;
use plotters::coord::Shift;
use plotters::element::ErrorBarOrientV;
use plotters::prelude::*;

use super::{label_font, title_font, ChartError};

/// One bar: `mean ± std` in `color`, or `mean` with a whisker over `interval`.
#[derive(Debug, Clone)]
pub(crate) struct Bar {
    /// Name under the bar.
    pub name: String,
    /// Fill colour.
    pub color: RGBColor,
    /// Bar height.
    pub mean: f64,
    /// Whisker half-length (non-finite: no whisker).
    pub std: f64,
    /// The whisker's ends where they are an interval, not `mean ± std` (a 95 % interval).
    pub interval: Option<(f64, f64)>,
}

impl Bar {
    /// The whisker's ends, if it has one.
    pub(crate) fn whisker_ends(&self) -> Option<(f64, f64)> {
        match self.interval {
            Some(ends) => Some(ends),
            None => (self.std.is_finite() && self.std > 0.0)
                .then_some((self.mean - self.std, self.mean + self.std)),
        }
    }
}

/// Title, y axis description and optional reference line (`y`) of a bar chart.
pub(crate) struct BarSpec<'t> {
    /// Chart title.
    pub title: &'t str,
    /// Y axis description.
    pub y_desc: &'t str,
    /// A dashed horizontal line at this value.
    pub reference: Option<f64>,
}

type XAxis = SegmentedCoord<RangedCoordusize>;

/// The mesh of a chart with one bar per category (`n` of them, `label` naming each under its
/// bar): no light grid lines, no vertical ones, the names at 10 px past six bars (else 12 px);
/// the y axis is the caller's to style.
pub(crate) fn category_mesh<'a, 'b, DB, Y>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<XAxis, Y>>,
    n: usize,
    label: &'b dyn Fn(&SegmentValue<usize>) -> String,
) -> MeshStyle<'a, 'b, XAxis, Y, DB>
where
    DB: DrawingBackend,
    Y: Ranged + ValueFormatter<<Y as Ranged>::ValueType>,
{
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(label)
        .x_label_style(("sans-serif", if n > 6 { 10 } else { 12 }));
    mesh
}

/// Draws `bars` on the y axis `y` (its range's start is the bars' base), tick labels by `fmt`.
/// Bars whose mean is not finite or not above the base are left out (their name stays).
pub(crate) fn draw_bars<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    spec: &BarSpec<'_>,
    bars: &[Bar],
    y: Y,
    fmt: &dyn Fn(&f64) -> String,
) -> Result<(), ChartError>
where
    DB: DrawingBackend,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let range = y.range();
    let (floor, top) = (range.start, range.end);
    let n = bars.len();
    let names: Vec<String> = bars.iter().map(|b| b.name.clone()).collect();
    let x_label = |v: &SegmentValue<usize>| match v {
        SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(spec.title, title_font())
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(64)
        .build_cartesian_2d((0..n.saturating_sub(1)).into_segmented(), y)?;
    category_mesh(&mut chart, n, &x_label)
        .y_label_formatter(fmt)
        .y_label_style(label_font())
        .y_desc(spec.y_desc)
        .axis_desc_style(label_font())
        .draw()?;
    let shown = |b: &&Bar| b.mean.is_finite() && b.mean > floor;
    let visible: Vec<(usize, &Bar)> = bars.iter().enumerate().filter(|(_, b)| shown(b)).collect();
    chart.draw_series(visible.iter().map(|(i, b)| bar_rect(*i, b, floor)))?;
    chart.draw_series(
        visible
            .iter()
            .filter_map(|(i, b)| Some(whisker(*i, b, b.whisker_ends()?, floor, top))),
    )?;
    if let Some(r) = spec.reference {
        draw_reference(&mut chart, n, r)?;
    }
    Ok(())
}

/// The filled bar `i` from the base `floor` to its mean.
fn bar_rect(i: usize, bar: &Bar, floor: f64) -> Rectangle<(SegmentValue<usize>, f64)> {
    let mut rect = Rectangle::new(
        [
            (SegmentValue::Exact(i), floor),
            (SegmentValue::Exact(i + 1), bar.mean),
        ],
        bar.color.filled(),
    );
    rect.set_margin(0, 0, 8, 8);
    rect
}

/// Bar `i`'s whisker from `low` to `high`, clamped to `[floor, top]`.
fn whisker(
    i: usize,
    bar: &Bar,
    (low, high): (f64, f64),
    floor: f64,
    top: f64,
) -> ErrorBar<SegmentValue<usize>, f64, ErrorBarOrientV<SegmentValue<usize>, f64>> {
    let lo = low.max(floor);
    let hi = high.min(top);
    ErrorBar::new_vertical(
        SegmentValue::CenterOf(i),
        lo,
        bar.mean,
        hi,
        BLACK.stroke_width(1),
        10,
    )
}

/// A dashed line across all `n` bars at `y`.
fn draw_reference<DB, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<XAxis, Y>>,
    n: usize,
    y: f64,
) -> Result<(), ChartError>
where
    DB: DrawingBackend,
    Y: Ranged<ValueType = f64>,
{
    chart.draw_series(DashedLineSeries::new(
        vec![(SegmentValue::Exact(0), y), (SegmentValue::Exact(n), y)],
        6,
        4,
        BLACK.stroke_width(1),
    ))?;
    Ok(())
}
