//! Vorticity maps of one Kolmogorov sample test at one snapshot: ground truth, each variant and
//! the coarse-solver baseline as a grid of square panels (x to the right, y upwards) on one
//! symmetric colour scale (the truth's max |ω| over all snapshots), with a colour bar.

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::space_time::{blit, draw_colorbar};
use super::{colormap, draw_message, series_names, title_font, ChartError};
use unroll_core::study::data::results::{SpaceTime, StudyResults};

/// Panels per row.
const COLUMNS: usize = 4;
/// Pixel height of one row of panels.
const ROW_HEIGHT: u32 = 190;

/// Canvas size (`(width, height)` px) for `variants` variants (+ truth + baseline panels).
pub(crate) fn canvas_size(variants: usize) -> (u32, u32) {
    let rows = (variants + 2).div_ceil(COLUMNS) as u32;
    (760, 40 + rows * ROW_HEIGHT)
}

/// Snapshots kept per sample (the slider's range), 0 when the file has none.
pub fn snapshots(results: &StudyResults, sample: usize) -> usize {
    results
        .samples
        .get(sample.min(results.samples.len().saturating_sub(1)))
        .map_or(0, |s| s.truth.frames.len())
}

/// Draws the vorticity maps of sample `sample` at snapshot `snapshot` (both clamped).
pub fn draw_vorticity<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
    snapshot: usize,
) -> Result<(), ChartError> {
    let Some(chosen) = results
        .samples
        .get(sample.min(results.samples.len().saturating_sub(1)))
    else {
        return draw_message(area, "Vorticity", "Vorticity samples: not in this file.");
    };
    let index = sample.min(results.samples.len() - 1);
    let snapshot = snapshot.min(chosen.truth.frames.len().saturating_sub(1));
    let heading = format!(
        "Vorticity ω at step {} (t = {:.2}), {} = {} (test {})",
        snapshot * chosen.truth.every,
        snapshot as f64 * chosen.truth.every as f64 * 0.02,
        results.facts().parameter.test,
        chosen.scale,
        chosen.test
    );
    let body = area.titled(&heading, title_font())?;
    let (panels_area, bar_area) = body.split_horizontally(body.dim_in_pixel().0 - 70);
    let a = match colormap::max_abs(&chosen.truth.frames) {
        m if m > 0.0 => m,
        _ => 1.0,
    };
    let mut panels: Vec<(String, Option<&SpaceTime>)> = vec![("truth".into(), Some(&chosen.truth))];
    panels.extend(
        results
            .variants
            .iter()
            .zip(series_names(results))
            .map(|(v, name)| (name, v.samples.get(index))),
    );
    panels.push((results.facts().baseline.name.into(), Some(&chosen.baseline)));
    let rows = panels.len().div_ceil(COLUMNS);
    let cells = panels_area.split_evenly((rows, COLUMNS));
    for ((name, field), cell) in panels.iter().zip(&cells) {
        draw_field(cell, name, field.and_then(|f| f.frames.get(snapshot)), a)?;
    }
    draw_colorbar(&bar_area, a, results.facts().maps.quantity)
}

/// One square panel of a flattened `N × N` field (rows = y), or a note when it is missing.
fn draw_field<DB: DrawingBackend>(
    cell: &DrawingArea<DB, Shift>,
    name: &str,
    frame: Option<&Vec<Option<f32>>>,
    a: f64,
) -> Result<(), ChartError> {
    let n = frame.map_or(0, |f| (f.len() as f64).sqrt().round() as usize);
    let Some(frame) = frame.filter(|_| n > 0) else {
        return draw_message(cell, name, "no rollout (diverged or not in this file)");
    };
    let rows: Vec<Vec<Option<f32>>> = frame.chunks(n).map(<[_]>::to_vec).collect();
    let titled = cell.titled(name, ("sans-serif", 12))?;
    let (w, h) = titled.dim_in_pixel();
    let side = w.min(h).saturating_sub(6);
    let square = titled.margin(0, h - side, (w - side) / 2, (w - side) / 2);
    let (w, h) = square.dim_in_pixel();
    blit(&square, colormap::field_rgb(&rows, a, w, h))
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{count, fixture, render};
    use super::*;

    /// A fixture whose samples are 4 × 4 fields: every panel is drawn, the slider clamps.
    #[test]
    fn panels_of_one_snapshot() {
        let mut results = fixture();
        results.config.system = unroll_core::system::System::Kolmogorov;
        let field = |scale: f32| SpaceTime {
            every: 10,
            frames: (0..3)
                .map(|k| {
                    (0..16)
                        .map(|i| Some(scale * (i + k) as f32 - 8.0))
                        .collect()
                })
                .collect(),
        };
        for sample in &mut results.samples {
            sample.truth = field(1.0);
            sample.baseline = field(0.5);
        }
        for v in &mut results.variants {
            v.samples = vec![field(0.9); results.samples.len()];
        }
        assert_eq!(snapshots(&results, 0), 3);
        let svg = render((380, 420), |area| draw_vorticity(area, &results, 0, 9));
        assert!(svg.contains("step 20"), "clamped to the last snapshot");
        assert!(svg.contains("truth") && svg.contains("C-WIG"));
        assert!(
            svg.contains(">\nω\n</text>"),
            "the colour bar is labelled ω"
        );
        assert!(count(&svg, "width=\"1\" height=\"1\"") > 1000);
    }
}
