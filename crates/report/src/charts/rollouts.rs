//! The playground's figure: the space–time map of every rollout from the reader's initial
//! state side by side (truth, coarse solver, each trained variant; grid point across, step
//! upwards, on the truth's colour scale), and the relative error of each against the truth over
//! the rollout (log y) below.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::space_time::{draw_colorbar, draw_panel};
use super::{
    colormap, draw_legend, draw_message, identity_color, linear_log_chart, log_bounds,
    with_legend_strip, ChartError, Swatch, BASELINE_COLOR,
};
use crate::experiment::playground::Rollout;
use unroll_core::study::data::results::SpaceTime;

const BAR_WIDTH: u32 = 60;
const LEGEND_WIDTH: u32 = 120;

/// A legend name, its colour and its `(step, error)` points.
type Curve = (String, RGBColor, Vec<(f64, f64)>);

fn color(rollout: &Rollout) -> RGBColor {
    rollout
        .id
        .map_or(BASELINE_COLOR, |id| identity_color((id.mode, id.modality)))
}

/// The two parts of the figure, which a caller may draw in separate tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolloutPart {
    /// The space–time maps and their colour bar (upper 60 %); clears the whole figure first.
    Maps,
    /// The error against the truth (lower 40 %).
    Errors,
}

/// Draws `rollouts` (the first is the truth): the maps on the upper 60 %, the error below.
pub fn draw_rollouts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rollouts: &[Rollout],
) -> Result<(), ChartError> {
    draw_rollout_part(area, rollouts, RolloutPart::Maps)?;
    draw_rollout_part(area, rollouts, RolloutPart::Errors)
}

/// Draws one part of [`draw_rollouts`]'s figure (both parts in turn: the whole figure).
pub fn draw_rollout_part<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rollouts: &[Rollout],
    part: RolloutPart,
) -> Result<(), ChartError> {
    let (_, h) = area.dim_in_pixel();
    let (maps, errors) = area.split_vertically(h * 3 / 5);
    match (part, rollouts.first()) {
        (RolloutPart::Maps, None) => {
            area.fill(&WHITE)?;
            draw_message(
                area,
                "Your initial state",
                "Roll out to see the models here.",
            )
        }
        (RolloutPart::Maps, Some(_)) => {
            area.fill(&WHITE)?;
            draw_maps(&maps, rollouts)
        }
        (RolloutPart::Errors, None) => Ok(()),
        (RolloutPart::Errors, Some(truth)) => draw_errors(&errors, truth, rollouts),
    }
}

/// Every rollout's space–time map side by side on the truth's colour scale, and the colour bar.
fn draw_maps<DB: DrawingBackend>(
    maps: &DrawingArea<DB, Shift>,
    rollouts: &[Rollout],
) -> Result<(), ChartError> {
    let fields: Vec<SpaceTime> = rollouts
        .iter()
        .map(|r| SpaceTime::from_rollout(&r.frames, 200))
        .collect();
    let a = match colormap::max_abs(&fields[0].frames) {
        m if m > 0.0 => m,
        _ => 1.0,
    };
    let (panels, bar) = maps.split_horizontally(maps.dim_in_pixel().0.saturating_sub(BAR_WIDTH));
    let cells = panels.split_evenly((1, rollouts.len()));
    for ((rollout, field), cell) in rollouts.iter().zip(&fields).zip(&cells) {
        draw_panel(cell, &rollout.name, Some(field), a)?;
    }
    draw_colorbar(&bar, a, "u")
}

/// The relative error of each rollout after the truth against it, over the rollout (log y).
fn draw_errors<DB: DrawingBackend>(
    errors: &DrawingArea<DB, Shift>,
    truth: &Rollout,
    rollouts: &[Rollout],
) -> Result<(), ChartError> {
    let curves: Vec<Curve> = rollouts[1..]
        .iter()
        .map(|r| {
            let points = r
                .error
                .iter()
                .enumerate()
                .filter(|(_, e)| e.is_finite() && **e > 0.0)
                .map(|(k, &e)| (k as f64, e))
                .collect();
            (r.name.clone(), color(r), points)
        })
        .collect();
    let Some((lo, hi)) = log_bounds(curves.iter().flat_map(|c| c.2.iter().map(|p| p.1))) else {
        return draw_message(errors, "Error against the truth", "No error to show yet.");
    };
    let steps = truth.frames.len().saturating_sub(1).max(1) as f64;
    let (plot, legend) = with_legend_strip(errors, LEGEND_WIDTH);
    let mut chart = linear_log_chart(
        &plot,
        "Error against the truth",
        steps,
        (lo, hi),
        ("step", "relative error"),
    )?;
    for (_, color, points) in &curves {
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?;
    }
    let items: Vec<(String, RGBColor)> = curves.iter().map(|c| (c.0.clone(), c.1)).collect();
    draw_legend(&legend, &items, Swatch::Line)
}

#[cfg(test)]
mod tests {
    use super::super::fixture::render;
    use super::*;
    use crate::experiment::initial_state::InitialState;
    use crate::experiment::playground::reference_rollouts;

    #[test]
    fn maps_side_by_side_and_the_error() {
        let ks = unroll_core::system::System::Ks.description();
        let state = InitialState::first(ks.playground().expect("a playground"));
        let rollouts = reference_rollouts(ks, &state, 20).expect("rollouts");
        let svg = render((720, 400), |area| draw_rollouts(area, &rollouts));
        for name in [
            "truth (ETRK2)",
            "ETD1 only",
            "Error against the truth",
            "relative error",
        ] {
            assert!(svg.contains(name), "{name}");
        }
        let empty = render((720, 400), |area| draw_rollouts(area, &[]));
        assert!(empty.contains("Roll out"));
        // The two parts, drawn one after the other, are the whole figure.
        let parts = render((720, 400), |area| {
            draw_rollout_part(area, &rollouts, RolloutPart::Maps)?;
            draw_rollout_part(area, &rollouts, RolloutPart::Errors)
        });
        assert_eq!(parts, svg);
        let maps = render((720, 400), |area| {
            draw_rollout_part(area, &rollouts, RolloutPart::Maps)
        });
        assert!(maps.contains("ETD1 only") && !maps.contains("Error against the truth"));
    }
}
