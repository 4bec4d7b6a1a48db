//! The results charts, drawn with plotters on any backend: SVG natively (tests, reports), the
//! HTML canvas in the browser (`ui::charts`). No browser code here.
//!
//! One chart per file, each a function generic over the plotters backend that draws into a
//! [`DrawingArea`](plotters::prelude::DrawingArea) and returns [`ChartError`]; a chart whose
//! data is missing from the file (older files lack the error curves and the sample maps) draws
//! a "not in this file" message instead of failing. `kind.rs` is the registry ([`ChartKind`]:
//! ids, titles and captions in the words of the file's system), `select.rs` picks the chart of
//! a kind ([`draw`]), `palette.rs` and `series.rs` give every variant one colour and one
//! legend name in every chart, `frame.rs` and `log_axis.rs` are the house drawing helpers.

mod bars;
mod beside;
pub mod colormap;
mod correlation;
mod error_bars;
mod error_curve;
mod frame;
mod horizons;
mod kind;
mod live_field;
mod log_axis;
mod loss;
mod palette;
mod per_test;
mod rollouts;
mod select;
mod series;
mod sizes;
mod space_time;
mod stability;
pub mod vorticity;
mod vorticity_correlation;

#[cfg(test)]
pub(crate) mod fixture;

use plotters::prelude::DrawingAreaErrorKind;

pub use beside::draw_relative_to_one_beside;
pub use correlation::draw_correlation;
pub use error_bars::{draw_error_bars, draw_relative_to_one};
pub use error_curve::draw_error_curve;
pub use frame::draw_message;
pub(crate) use frame::{
    draw_legend, label_font, linear_log_chart, title_font, with_legend_strip, Swatch,
};
pub use horizons::draw_horizons;
pub use kind::ChartKind;
pub use live_field::LiveField;
pub(crate) use log_axis::{log_axis, log_bounds, log_label};
pub use loss::{draw_loss, extend_curve, loss_curves, LossCurve};
pub use palette::{identity_color, lighten, shaded, variant_colors, Hue, BASELINE_COLOR};
pub use per_test::draw_per_test;
pub use rollouts::{draw_rollout_part, draw_rollouts, RolloutPart};
pub use select::{draw, draw_at};
pub(crate) use series::entries;
pub use series::series_names;
pub use sizes::{draw_sizes, size_groups};
pub use space_time::draw_space_time;
pub use stability::draw_stability;
pub use vorticity_correlation::draw_vorticity_correlation;

/// Why a chart could not be drawn (the backend failed; missing data is not an error).
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The drawing backend reported an error.
    #[error("cannot draw the chart: {0}")]
    Drawing(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for ChartError {
    fn from(err: DrawingAreaErrorKind<E>) -> Self {
        ChartError::Drawing(err.to_string())
    }
}
