//! Space–time maps of one sample test: ground truth, each variant's rollout and the ETD1
//! baseline as a grid of small panels (grid point horizontally, rollout step upwards) on one
//! symmetric colour scale (the truth's max |u|), with a colour bar. Each field is one bitmap
//! ([`DrawingBackend::blit_bitmap`] of [`colormap::field_rgb`]).

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

use super::{colormap, draw_message, label_font, series_names, title_font, ChartError};
use unroll_core::study::data::results::{SpaceTime, StudyResults};

/// Panels per row.
const COLUMNS: usize = 4;
/// Pixel height of one row of panels.
const ROW_HEIGHT: u32 = 170;
/// Pixel width of the colour bar strip.
const BAR_WIDTH: u32 = 70;

/// Canvas size (`(width, height)` px) for `variants` variants (+ truth + baseline panels).
pub(crate) fn canvas_size(variants: usize) -> (u32, u32) {
    let rows = (variants + 2).div_ceil(COLUMNS) as u32;
    (720, 40 + rows * ROW_HEIGHT)
}

/// An RGB image (`3 · w · h` bytes, row-major) anchored at its top-left corner `corner`.
struct Bitmap<C> {
    corner: C,
    size: (u32, u32),
    rgb: Vec<u8>,
}

impl<'a, C> PointCollection<'a, C> for &'a Bitmap<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.corner)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Bitmap<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match points.next() {
            Some(pos) if self.size.0 > 0 && self.size.1 > 0 => {
                backend.blit_bitmap(pos, self.size, &self.rgb)
            }
            _ => Ok(()),
        }
    }
}

/// Fills all of `area` with `rgb` (`3 · w · h` bytes for `area`'s pixel size `w × h`).
pub(super) fn blit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rgb: Vec<u8>,
) -> Result<(), ChartError> {
    let size = area.dim_in_pixel();
    area.draw(&Bitmap {
        corner: (0i32, 0i32),
        size,
        rgb,
    })?;
    Ok(())
}

/// Draws the space–time maps of sample `sample` (clamped to the last one) of `results`.
/// Missing samples (older files) draw a "not in this file" message.
pub fn draw_space_time<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
) -> Result<(), ChartError> {
    let facts = results.facts();
    let title = &super::ChartKind::SpaceTime.title(&facts);
    let Some(chosen) = results
        .samples
        .get(sample.min(results.samples.len().saturating_sub(1)))
    else {
        return draw_message(area, title, "Space–time samples: not in this file.");
    };
    let index = sample.min(results.samples.len() - 1);
    let heading = format!(
        "{}, test {} = {} (test {})",
        facts.maps.title, facts.parameter.test, chosen.scale, chosen.test
    );
    let body = area.titled(&heading, title_font())?;
    let (panels_area, bar_area) = body.split_horizontally(body.dim_in_pixel().0 - BAR_WIDTH);
    let a = match colormap::max_abs(&chosen.truth.frames) {
        m if m > 0.0 => m,
        _ => 1.0,
    };
    let names = series_names(results);
    let mut panels: Vec<(String, Option<&SpaceTime>)> = vec![("truth".into(), Some(&chosen.truth))];
    panels.extend(
        results
            .variants
            .iter()
            .zip(names)
            .map(|(v, name)| (name, v.samples.get(index))),
    );
    panels.push((facts.baseline.name.into(), Some(&chosen.baseline)));
    let rows = panels.len().div_ceil(COLUMNS);
    let cells = panels_area.split_evenly((rows, COLUMNS));
    for ((name, field), cell) in panels.iter().zip(&cells) {
        draw_panel(cell, name, *field, a)?;
    }
    draw_colorbar(&bar_area, a, results.facts().maps.quantity)
}

/// One panel: `field` (`[frames][N]`) titled `name`, or a note when it is missing.
pub(super) fn draw_panel<DB: DrawingBackend>(
    cell: &DrawingArea<DB, Shift>,
    name: &str,
    field: Option<&SpaceTime>,
    a: f64,
) -> Result<(), ChartError> {
    let Some(field) = field.filter(|f| !f.frames.is_empty()) else {
        return draw_message(cell, name, "no rollout (diverged or not in this file)");
    };
    let n = field.frames.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let steps = field.frames.len() as f64 * field.every.max(1) as f64;
    let mut chart = ChartBuilder::on(cell)
        .caption(name, ("sans-serif", 12))
        .margin(4)
        .x_label_area_size(18)
        .y_label_area_size(32)
        .build_cartesian_2d(0f64..n as f64, 0f64..steps)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_mesh()
        .x_labels(3)
        .y_labels(4)
        .label_style(("sans-serif", 10))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    let plot = chart.plotting_area().strip_coord_spec();
    let (w, h) = plot.dim_in_pixel();
    blit(&plot, colormap::field_rgb(&field.frames, a, w, h))
}

/// The colour bar for `[-a, a]` with its axis, labelled `quantity` (`u`, `ω`).
pub(super) fn draw_colorbar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: f64,
    quantity: &str,
) -> Result<(), ChartError> {
    let mut chart = ChartBuilder::on(area)
        .caption(quantity, label_font())
        .margin_top(20)
        .margin_bottom(20)
        .margin_left(6)
        .right_y_label_area_size(38)
        .build_cartesian_2d(0f64..1f64, -a..a)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_mesh()
        .disable_x_axis()
        .y_labels(5)
        .label_style(("sans-serif", 10))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()?;
    let plot = chart.plotting_area().strip_coord_spec();
    let (w, h) = plot.dim_in_pixel();
    blit(&plot, colormap::colorbar_rgb(a, w, h))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{count, fixture, old_file, render};
    use super::*;

    #[test]
    fn panels_titles_and_colorbar() {
        let results = fixture();
        let svg = render((360, 300), |area| draw_space_time(area, &results, 0));
        for name in ["truth", "P-ONE", "C-NOG", "C-WIG", "ETD1 only", "s = 0.93"] {
            assert!(svg.contains(name), "missing {name}");
        }
        // The SVG backend blits pixel by pixel: thousands of 1×1 rects, some of them the missing
        // grey (the fixture's C-WIG rollout has a non-finite value).
        assert!(count(&svg, "width=\"1\" height=\"1\"") > 1000);
        assert!(svg.contains("#808080"));
    }

    #[test]
    fn missing_samples_say_so() {
        let svg = render((360, 300), |area| draw_space_time(area, &old_file(), 0));
        assert!(svg.contains("not in this file"));
        let mut results = fixture();
        results.variants[1].samples.clear();
        let svg = render((360, 300), |area| draw_space_time(area, &results, 7));
        assert!(svg.contains("no rollout"), "diverged variant");
    }

    #[test]
    fn canvas_grows_with_variants() {
        assert_eq!(canvas_size(2), (720, 40 + ROW_HEIGHT));
        assert_eq!(canvas_size(9), (720, 40 + 3 * ROW_HEIGHT));
    }
}
