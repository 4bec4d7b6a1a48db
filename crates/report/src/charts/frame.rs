//! The house frame of every chart: fonts, the "not in this file" message, the legend strip
//! beside the plot and the linear × log chart of the curves.

use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::log_axis::{log_axis, log_label};
use super::ChartError;

/// Font for titles.
pub(crate) fn title_font() -> TextStyle<'static> {
    ("sans-serif", 16).into_font().color(&BLACK)
}

/// Font for axis labels and legends.
pub(crate) fn label_font() -> TextStyle<'static> {
    ("sans-serif", 12).into_font().color(&BLACK)
}

/// Writes `text` centred in `area` under `title` (the chart's data is missing).
pub fn draw_message<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    text: &str,
) -> Result<(), ChartError> {
    let (w, h) = area.dim_in_pixel();
    let centred = |size: u32| {
        ("sans-serif", size)
            .into_font()
            .color(&RGBColor(80, 80, 80))
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Center,
            ))
    };
    let (cx, cy) = ((w / 2) as i32, (h / 2) as i32);
    area.draw(&Text::new(title.to_string(), (cx, cy - 14), centred(16)))?;
    area.draw(&Text::new(text.to_string(), (cx, cy + 12), centred(14)))?;
    Ok(())
}

/// How a legend entry is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Swatch {
    /// A filled square (bars).
    Box,
    /// A short line (curves).
    Line,
}

/// A legend in its own strip `area` (beside the plot, so it never hides data): one row per
/// `(name, colour)`, from the top.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor)],
    swatch: Swatch,
) -> Result<(), ChartError> {
    let font =
        ("sans-serif", 11)
            .into_font()
            .color(&BLACK)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Center,
            ));
    for (row, (name, color)) in items.iter().enumerate() {
        let y = 44 + 18 * row as i32;
        match swatch {
            Swatch::Box => area.draw(&Rectangle::new([(4, y - 5), (16, y + 5)], color.filled()))?,
            Swatch::Line => area.draw(&PathElement::new(
                vec![(2, y), (18, y)],
                color.stroke_width(2),
            ))?,
        }
        area.draw(&Text::new(name.clone(), (22, y), font.clone()))?;
    }
    Ok(())
}

/// Splits `area` into the plot and a legend strip `legend_width` px wide on the right.
pub(crate) fn with_legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend_width: u32,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = area.dim_in_pixel();
    area.split_horizontally(w.saturating_sub(legend_width))
}

/// Coordinates of [`linear_log_chart`]: linear x, log y with 1-2-5 key points.
pub(crate) type LinearLogChart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, WithKeyPoints<LogCoord<f64>>>>;

/// A chart over `0..x_max` (linear, integer labels) × `lo..hi` (log, 1-2-5 labels) with the
/// house caption, label areas and mesh: the frame of the error-over-time and loss charts.
pub(crate) fn linear_log_chart<'a, DB: DrawingBackend>(
    plot_area: &'a DrawingArea<DB, Shift>,
    title: &str,
    x_max: f64,
    (lo, hi): (f64, f64),
    (x_desc, y_desc): (&str, &str),
) -> Result<LinearLogChart<'a, DB>, ChartError> {
    let mut chart = ChartBuilder::on(plot_area)
        .caption(title, title_font())
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..x_max, log_axis(lo, hi))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&log_label)
        .label_style(label_font())
        .axis_desc_style(label_font())
        .draw()?;
    Ok(chart)
}
