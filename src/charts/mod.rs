//! The results charts, drawn with plotters on any backend: SVG natively (tests, reports), the
//! HTML canvas in the browser (`ui::charts`). No browser code here.
//!
//! One chart per file, each a function generic over the plotters backend that draws into a
//! [`DrawingArea`] and returns [`ChartError`]; a chart whose data is missing from the file (older
//! files lack the error curves and the space–time samples) draws a "not in this file" message
//! instead of failing. [`ChartKind`] lists every chart; [`draw`] dispatches.
//!
//! Colours: [`variant_colors`] gives every variant of a file one colour, the same in every chart
//! (hue by label `P-ONE` … `T-WIG`, lighter shades for repeated labels), the ETD1 baseline is
//! [`BASELINE_COLOR`]; [`series_names`] makes the legend names unique.

mod bars;
pub mod colormap;
mod correlation;
mod error_bars;
mod error_curve;
mod live_field;
mod loss;
mod rollouts;
mod sizes;
mod space_time;
mod stability;
pub mod vorticity;

#[cfg(test)]
pub(crate) mod fixture;

use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

pub use correlation::draw_correlation;
pub use error_bars::{draw_error_bars, draw_relative_to_one};
pub use error_curve::draw_error_curve;
pub use live_field::LiveField;
pub use loss::{draw_loss, extend_curve, loss_curves, LossCurve};
pub use rollouts::draw_rollouts;
pub use sizes::{draw_sizes, size_groups};
pub use space_time::draw_space_time;
pub use stability::draw_stability;

use crate::numerics::train::{Modality, Mode};
use crate::report::results::{Metrics, StudyResults, VariantResult};

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

/// Every results chart, in page order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartKind {
    /// Space–time maps: truth, each variant, the baseline ([`draw_space_time`]).
    SpaceTime,
    /// Error over rollout time ([`draw_error_curve`]).
    ErrorCurve,
    /// Relative error per variant ± std ([`draw_error_bars`]).
    ErrorBars,
    /// NOG / WIG relative error ÷ ONE's ([`draw_relative_to_one`]).
    RelativeToOne,
    /// Stability classes as stacked bars ([`draw_stability`]).
    Stability,
    /// Correlation time ± std ([`draw_correlation`]).
    Correlation,
    /// Relative error vs parameter count ([`draw_sizes`]).
    Sizes,
    /// Training loss curves ([`draw_loss`]).
    Loss,
}

impl ChartKind {
    /// Every chart, in page order.
    pub const ALL: [ChartKind; 8] = [
        ChartKind::ErrorBars,
        ChartKind::RelativeToOne,
        ChartKind::ErrorCurve,
        ChartKind::SpaceTime,
        ChartKind::Stability,
        ChartKind::Correlation,
        ChartKind::Sizes,
        ChartKind::Loss,
    ];

    /// The DOM id of the chart's canvas (`chart-error-bars` …).
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::SpaceTime => "chart-space-time",
            ChartKind::ErrorCurve => "chart-error-curve",
            ChartKind::ErrorBars => "chart-error-bars",
            ChartKind::RelativeToOne => "chart-relative-to-one",
            ChartKind::Stability => "chart-stability",
            ChartKind::Correlation => "chart-correlation",
            ChartKind::Sizes => "chart-sizes",
            ChartKind::Loss => "chart-loss",
        }
    }

    /// The chart's title (drawn on the chart and used as the figure caption).
    pub fn title(self) -> &'static str {
        match self {
            ChartKind::SpaceTime => "Space–time: truth, variants, ETD1 baseline",
            ChartKind::ErrorCurve => "Relative error over rollout time",
            ChartKind::ErrorBars => "Relative error (mean ± std over seeds)",
            ChartKind::RelativeToOne => "Relative error ÷ ONE (same configuration and seed)",
            ChartKind::Stability => "Stability classes (all tests, all seeds)",
            ChartKind::Correlation => "Correlation time (mean ± std over seeds)",
            ChartKind::Sizes => "Relative error vs network size",
            ChartKind::Loss => "Training loss",
        }
    }

    /// The title for `results`: Kolmogorov's name its metric (velocity MSE) and its baseline.
    pub fn title_for(self, results: &StudyResults) -> String {
        if is_kolmogorov(results) {
            self.title()
                .replace("Relative error", "Velocity MSE")
                .replace("relative error", "velocity MSE")
                .replace(
                    "Space–time: truth, variants, ETD1 baseline",
                    "Vorticity maps: truth, variants, coarse-solver baseline",
                )
        } else {
            self.title().to_string()
        }
    }

    /// One sentence on what the chart shows (the figure caption's detail).
    pub fn description(self) -> &'static str {
        match self {
            ChartKind::SpaceTime => {
                "Grid point horizontally, rollout step upwards; one symmetric colour scale \
                 (the truth's max |u|); grey where the rollout was not finite."
            }
            ChartKind::ErrorCurve => {
                "Mean per-frame relative error over every test and seed, log scale, clipped \
                 where a rollout blew up."
            }
            ChartKind::ErrorBars => "Lower is better; whiskers are ± one std over seeds.",
            ChartKind::RelativeToOne => {
                "Below the line at 1 the unrolled modality beats one-step training."
            }
            ChartKind::Stability => {
                "static: settles; unstable: residual beyond 500; recurring: periodic; \
                 regular: chaotic like the truth."
            }
            ChartKind::Correlation => "Steps until the rollout decorrelates from the truth.",
            ChartKind::Sizes => {
                "Log–log; one marker shape per architecture; the legend gives each group's \
                 fitted slope (error ∝ params^slope), ± its spread over seeds."
            }
            ChartKind::Loss => "Per variant and seed, log scale; non-finite losses skipped.",
        }
    }

    /// Canvas size in pixels (`(width, height)`); the space–time grid grows with the variants.
    pub fn size(self, results: &StudyResults) -> (u32, u32) {
        match self {
            ChartKind::SpaceTime if is_kolmogorov(results) => {
                vorticity::canvas_size(results.variants.len())
            }
            ChartKind::SpaceTime => space_time::canvas_size(results.variants.len()),
            _ => (720, 360),
        }
    }
}

/// Draws chart `kind` of `results` into `area`; `sample` picks the space–time test (an index
/// into [`StudyResults::samples`]); Kolmogorov's maps show their last snapshot.
pub fn draw<DB: DrawingBackend>(
    kind: ChartKind,
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
) -> Result<(), ChartError> {
    draw_at(kind, area, results, sample, usize::MAX)
}

/// [`draw`] with the snapshot of Kolmogorov's vorticity maps (clamped; ignored for KS).
pub fn draw_at<DB: DrawingBackend>(
    kind: ChartKind,
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
    snapshot: usize,
) -> Result<(), ChartError> {
    area.fill(&WHITE)?;
    match kind {
        ChartKind::SpaceTime if is_kolmogorov(results) => {
            vorticity::draw_vorticity(area, results, sample, snapshot)
        }
        ChartKind::SpaceTime => draw_space_time(area, results, sample),
        ChartKind::ErrorCurve => draw_error_curve(area, results),
        ChartKind::ErrorBars => draw_error_bars(area, results),
        ChartKind::RelativeToOne => draw_relative_to_one(area, results),
        ChartKind::Stability => draw_stability(area, results),
        ChartKind::Correlation => draw_correlation(area, results),
        ChartKind::Sizes => draw_sizes(area, results),
        ChartKind::Loss => draw_loss(
            area,
            &loss_curves(results),
            "Training loss curves: not in this file.",
        ),
    }?;
    area.present()?;
    Ok(())
}

/// The axis name of the error metric of `results` (`relative error`, `velocity MSE`).
pub(crate) fn metric_axis(results: &StudyResults) -> &'static str {
    if is_kolmogorov(results) {
        "velocity MSE"
    } else {
        "relative error"
    }
}

/// Whether `results` are of Kolmogorov flow (2-D samples).
pub fn is_kolmogorov(results: &StudyResults) -> bool {
    use crate::report::results::ResultsText;
    results.system() == crate::numerics::system::System::Kolmogorov
}

/// The baseline's colour (near-black).
pub const BASELINE_COLOR: RGBColor = RGBColor(34, 34, 34);

/// Colour-blind-safe hues, one per mode × modality in the order P-ONE, P-NOG, P-WIG, C-ONE, …
/// T-WIG: the six of the study's headline are Okabe–Ito's (blue, orange, bluish green,
/// vermillion, reddish purple, sky blue; its yellow and black are left out: yellow is too light
/// on white, black is the baseline's), the transition mode's three are from Paul Tol's
/// colour-blind-safe "muted" scheme (wine, teal, olive).
const IDENTITY_HUES: [RGBColor; 9] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(136, 34, 85),
    RGBColor(68, 170, 153),
    RGBColor(153, 153, 51),
];

/// The colour identity of a series: its variant's mode and modality.
pub type Hue = (Mode, Modality);

/// The hue of a variant's mode × modality (the same in every chart).
pub fn identity_color((mode, modality): Hue) -> RGBColor {
    let row = Mode::ALL.iter().position(|m| *m == mode).unwrap_or(0);
    let col = Modality::ALL
        .iter()
        .position(|m| *m == modality)
        .unwrap_or(0);
    IDENTITY_HUES[(row * Modality::ALL.len() + col) % IDENTITY_HUES.len()]
}

/// `color` mixed toward white by `t` ∈ [0, 1].
pub fn lighten(color: RGBColor, t: f64) -> RGBColor {
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(color.0), mix(color.1), mix(color.2))
}

/// Colour of the `j`-th of `k` series sharing a hue: the hue itself, then lighter shades.
fn shade(color: RGBColor, j: usize, k: usize) -> RGBColor {
    if k <= 1 {
        color
    } else {
        lighten(color, 0.6 * j as f64 / k as f64)
    }
}

/// One colour per variant of `results` (same order), stable across charts.
pub fn variant_colors(results: &StudyResults) -> Vec<RGBColor> {
    let hues: Vec<Hue> = results
        .variants
        .iter()
        .map(|v| (v.id.mode, v.id.modality))
        .collect();
    shaded(&hues)
}

/// Colours for series of identity `hues` (one each): the identity's hue, lighter for each
/// repeat of it.
pub fn shaded(hues: &[Hue]) -> Vec<RGBColor> {
    hues.iter()
        .enumerate()
        .map(|(i, hue)| {
            let k = hues.iter().filter(|h| *h == hue).count();
            let j = hues[..i].iter().filter(|h| *h == hue).count();
            shade(identity_color(*hue), j, k)
        })
        .collect()
}

/// Unique legend names for the variants of `results` (same order): the label, plus `C×D` when
/// variants with that label differ in size, `m=…` when they differ in horizon, the architecture
/// when that differs, and `#i` as a last resort.
pub fn series_names(results: &StudyResults) -> Vec<String> {
    let variants = &results.variants;
    let names: Vec<String> = variants
        .iter()
        .map(|v| {
            let same: Vec<&VariantResult> = variants
                .iter()
                .filter(|o| o.id.is(v.id.mode, v.id.modality))
                .collect();
            let differ = |f: &dyn Fn(&VariantResult) -> String| {
                same.iter().any(|o| f(o) != f(v)).then(|| f(v))
            };
            let parts = [
                differ(&|o| format!("{}×{}", o.id.channels, o.id.depth)),
                differ(&|o| format!("m={}", o.id.horizon)),
                differ(&|o| o.id.architecture.to_string()),
            ];
            std::iter::once(v.id.label())
                .chain(parts.into_iter().flatten())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if names.iter().filter(|n| *n == name).count() > 1 {
                format!("{name} #{}", i + 1)
            } else {
                name.clone()
            }
        })
        .collect()
}

/// One bar / line of a chart: a variant or the baseline.
pub(crate) struct Entry<'a> {
    /// Legend name.
    pub name: String,
    /// Colour.
    pub color: RGBColor,
    /// Its metrics.
    pub metrics: &'a Metrics,
    /// The variant (`None` for the baseline).
    pub variant: Option<&'a VariantResult>,
}

/// The variants of `results` then the baseline, with names and colours.
pub(crate) fn entries(results: &StudyResults) -> Vec<Entry<'_>> {
    let names = series_names(results);
    let colors = variant_colors(results);
    let variants = results
        .variants
        .iter()
        .zip(names)
        .zip(colors)
        .map(|((v, name), color)| Entry {
            name,
            color,
            metrics: &v.metrics,
            variant: Some(v),
        });
    variants
        .chain(std::iter::once(Entry {
            name: crate::report::results::ResultsText::baseline_name(results).to_string(),
            color: BASELINE_COLOR,
            metrics: &results.baseline,
            variant: None,
        }))
        .collect()
}

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

/// `(lo, hi)` for a log axis covering the positive finite `values`: whole decades (plotters
/// places log ticks from the first power of ten inside the range, so a range without one would
/// get no ticks), padded by 5 % before rounding and at least one decade; `None` when there are
/// no such values.
pub(crate) fn log_bounds(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return None;
    }
    let lo = 10f64.powf((lo / 1.05).log10().floor());
    let hi = 10f64.powf((hi * 1.05).log10().ceil()).max(lo * 10.0);
    // A hair beyond the decades, so rounding in `powf` never drops the end ticks.
    Some((lo * (1.0 - 1e-6), hi * (1.0 + 1e-6)))
}

/// The ticks of a log axis from `lo` to `hi`: `1`, `2` and `5` times each power of ten over up
/// to three decades, powers of ten only beyond (so labels and grid lines never crowd).
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let mantissas: &[f64] = if (hi / lo).log10() > 3.0 + 1e-3 {
        &[1.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let first = lo.log10().floor() as i32;
    let last = hi.log10().ceil() as i32;
    (first..=last)
        .flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e)))
        .filter(|v| *v >= lo && *v <= hi)
        .collect()
}

/// A log axis from `lo` to `hi` with [`log_ticks`] (plotters' own log ticks start at the first
/// power of ten and crowd or vanish on short ranges).
pub(crate) fn log_axis(lo: f64, hi: f64) -> WithKeyPoints<LogCoord<f64>> {
    (lo..hi).log_scale().with_key_points(log_ticks(lo, hi))
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

/// Tick label for a log axis: `1`, `2` and `5` times a power of ten (`0.02`, `5`, `1e5`);
/// other ticks stay unlabelled.
pub(crate) fn log_label(v: &f64) -> String {
    if !(v.is_finite() && *v > 0.0) {
        return String::new();
    }
    let power = 10f64.powf(v.log10().floor());
    let mantissa = v / power;
    let nice = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|m| (mantissa - m).abs() < 1e-6 * m);
    if !nice {
        String::new()
    } else if *v >= 1e-3 && *v < 1e6 {
        format!("{}", (v * 1e3).round() / 1e3)
    } else {
        format!("{v:.0e}")
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::{count, fixture, render, sizes_fixture};
    use super::*;

    #[test]
    fn names_are_unique_and_distinguish_sizes() {
        let names = series_names(&sizes_fixture());
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        assert!(names.iter().any(|n| n == "C-WIG 8×4"), "{names:?}");
        assert_eq!(series_names(&fixture()), ["P-ONE", "C-NOG", "C-WIG"]);
    }

    #[test]
    fn horizons_named_by_m() {
        let mut results = fixture();
        let mut other = results.variants[2].clone();
        other.id.horizon = 8;
        results.variants.push(other);
        let names = series_names(&results);
        assert_eq!(names[2], "C-WIG m=3");
        assert_eq!(names[3], "C-WIG m=8");
    }

    #[test]
    fn colors_follow_identity() {
        let c_nog = (Mode::Correct, Modality::Nog);
        assert_ne!(
            identity_color(c_nog),
            identity_color((Mode::Correct, Modality::Wig))
        );
        let hues: Vec<Hue> = Mode::ALL
            .into_iter()
            .flat_map(|m| Modality::ALL.map(|d| (m, d)))
            .collect();
        let distinct: Vec<RGBColor> = hues.iter().map(|h| identity_color(*h)).collect();
        assert!(distinct
            .iter()
            .enumerate()
            .all(|(i, c)| !distinct[..i].contains(c)));
        let colors = variant_colors(&sizes_fixture());
        assert_eq!(colors.len(), sizes_fixture().variants.len());
        assert_eq!(colors[0], identity_color(c_nog));
        assert_ne!(colors[0], colors[1], "repeated labels get shades");
    }

    #[test]
    fn every_kind_draws_fixture_and_old_file() {
        let old = fixture::old_file();
        for kind in ChartKind::ALL {
            assert!(kind.id().starts_with("chart-"));
            for results in [
                fixture(),
                sizes_fixture(),
                fixture::cli_fixture(),
                old.clone(),
            ] {
                for sample in [0, 1, 99] {
                    let svg = render(kind.size(&results), |a| draw(kind, a, &results, sample));
                    assert!(svg.contains("<svg"), "{kind:?}");
                }
            }
        }
        let svg = render((720, 360), |a| draw(ChartKind::ErrorCurve, a, &old, 0));
        assert!(svg.contains("not in this file"));
        assert_eq!(count(&svg, "<polyline"), 0);
        let svg = render((720, 600), |a| draw(ChartKind::SpaceTime, a, &old, 0));
        assert!(svg.contains("not in this file"));
    }

    #[test]
    fn current_cli_file_has_curves_and_maps() {
        let results = fixture::cli_fixture();
        for (kind, missing) in [
            (
                ChartKind::ErrorCurve,
                "Error over rollout time: not in this file",
            ),
            (ChartKind::SpaceTime, "Space–time samples: not in this file"),
        ] {
            let svg = render(kind.size(&results), |a| draw(kind, a, &results, 0));
            assert!(!svg.contains(missing), "{kind:?}");
        }
    }

    /// Writes every chart of the fixtures as SVG into `$CHARTS_DUMP` (for looking at them):
    /// `CHARTS_DUMP=/tmp/charts cargo test --lib dump_svgs -- --ignored`.
    #[test]
    #[ignore]
    fn dump_svgs() {
        let dir = std::env::var("CHARTS_DUMP").unwrap_or_else(|_| "target/charts".into());
        std::fs::create_dir_all(&dir).expect("dump dir");
        for (tag, results) in [
            ("paper", fixture()),
            ("sizes", sizes_fixture()),
            ("cli", fixture::cli_fixture()),
        ] {
            for kind in ChartKind::ALL {
                let svg = render(kind.size(&results), |area| draw(kind, area, &results, 0));
                let path = format!("{dir}/{tag}-{}.svg", kind.id());
                std::fs::write(path, svg).expect("written");
            }
        }
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = ChartKind::ALL.iter().map(|k| k.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ChartKind::ALL.len());
    }

    #[test]
    fn log_labels_only_nice_values() {
        assert_eq!(log_label(&0.02), "0.02");
        assert_eq!(log_label(&5.0), "5");
        assert_eq!(log_label(&20000.0), "20000");
        assert_eq!(log_label(&1e-5), "1e-5");
        assert_eq!(log_label(&0.3), "");
        assert_eq!(log_label(&f64::NAN), "");
        let close = |a: &[f64], b: &[f64]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x / y - 1.0).abs() < 1e-9)
        };
        let short = log_ticks(0.1 * (1.0 - 1e-6), 10.0 * (1.0 + 1e-6));
        assert!(
            close(&short, &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]),
            "{short:?}"
        );
        let wide = log_ticks(1e-4, 10.0);
        assert!(
            close(&wide, &[1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0]),
            "{wide:?}"
        );
        assert!(log_ticks(1.0, 1.0).is_empty());
    }

    #[test]
    fn log_bounds_pad_and_skip() {
        assert_eq!(log_bounds([0.0, f64::NAN, -1.0]), None);
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-5;
        let (lo, hi) = log_bounds([1e-3, 1e-1, f64::INFINITY]).expect("bounds");
        assert!(close(lo, 1e-4) && close(hi, 1.0), "{lo} {hi}");
        let (lo, hi) = log_bounds([0.5]).expect("single");
        assert!(close(lo, 0.1) && close(hi, 1.0), "{lo} {hi}");
        let (lo, hi) = log_bounds([0.27, 1.6]).expect("narrow");
        assert!(close(lo, 0.1) && close(hi, 10.0), "{lo} {hi}");
    }
}
