//! From a results file to a drawn chart: [`draw`] picks the function of a [`ChartKind`] (the
//! sample maps by the system's [`MapKind`]) and fills the area first.

use crate::system_words::SystemWords;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    draw_correlation, draw_error_bars, draw_error_curve, draw_horizons, draw_loss, draw_per_test,
    draw_relative_to_one, draw_sizes, draw_space_time, draw_stability, draw_vorticity_correlation,
    loss_curves, vorticity, ChartError, ChartKind,
};
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::MapKind;

/// Draws chart `kind` of `results` into `area`; `sample` picks the map's test (an index into
/// [`StudyResults::samples`]); field snapshots show their last snapshot.
pub fn draw<DB: DrawingBackend>(
    kind: ChartKind,
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
) -> Result<(), ChartError> {
    draw_at(kind, area, results, sample, usize::MAX)
}

/// [`draw`] at `snapshot` of field-snapshot maps (clamped; space–time maps show every frame).
pub fn draw_at<DB: DrawingBackend>(
    kind: ChartKind,
    area: &DrawingArea<DB, Shift>,
    results: &StudyResults,
    sample: usize,
    snapshot: usize,
) -> Result<(), ChartError> {
    area.fill(&WHITE)?;
    match kind {
        ChartKind::SpaceTime => match results.facts().maps.kind {
            MapKind::FieldSnapshots => vorticity::draw_vorticity(area, results, sample, snapshot),
            MapKind::SpaceTime => draw_space_time(area, results, sample),
        },
        ChartKind::ErrorCurve => draw_error_curve(area, results),
        ChartKind::PerTest => draw_per_test(area, results),
        ChartKind::Horizons => draw_horizons(area, results),
        ChartKind::ErrorBars => draw_error_bars(area, results),
        ChartKind::RelativeToOne => draw_relative_to_one(area, results),
        ChartKind::Stability => draw_stability(area, results),
        ChartKind::Correlation => draw_correlation(area, results),
        ChartKind::Sizes => draw_sizes(area, results),
        ChartKind::VorticityCorrelation => draw_vorticity_correlation(area, results),
        ChartKind::Loss => draw_loss(
            area,
            &loss_curves(results),
            "Training loss curves: not in this file.",
        ),
    }?;
    area.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{self, count, fixture, render, sizes_fixture};
    use super::*;

    #[test]
    fn every_kind_draws_fixture_and_old_file() {
        let old = fixture::old_file();
        for kind in ChartKind::ALL {
            assert!(kind.id().starts_with("chart-"));
            for results in [
                fixture(),
                sizes_fixture(),
                fixture::cli_fixture(),
                fixture::kolmogorov_fixture(),
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
            ("kolmogorov", fixture::kolmogorov_fixture()),
            ("sizes", sizes_fixture()),
            ("cli", fixture::cli_fixture()),
        ] {
            for kind in ChartKind::all_for(&results) {
                let svg = render(kind.size(&results), |area| draw(kind, area, &results, 0));
                let path = format!("{dir}/{tag}-{}.svg", kind.id());
                std::fs::write(path, svg).expect("written");
            }
        }
    }

    /// A Kolmogorov file draws field snapshots, a KS file space–time maps, each titled by its
    /// system.
    #[test]
    fn the_maps_follow_the_system() {
        let ks = fixture();
        let mut flow = fixture();
        flow.config.system = unroll_core::system::System::Kolmogorov;
        assert_ne!(
            ChartKind::SpaceTime.size(&ks),
            ChartKind::SpaceTime.size(&flow)
        );
        let svg = render(ChartKind::ErrorBars.size(&flow), |a| {
            draw(ChartKind::ErrorBars, a, &flow, 0)
        });
        assert!(svg.contains("Velocity MSE") && svg.contains("PISO only"));
        let svg = render(ChartKind::ErrorBars.size(&ks), |a| {
            draw(ChartKind::ErrorBars, a, &ks, 0)
        });
        assert!(svg.contains("Relative error") && svg.contains("ETD1 only"));
    }

    /// A Kolmogorov file lists no KS-only chart; its vorticity correlation is drawn, or says it
    /// is not in the file (the committed run predates the measures).
    #[test]
    fn a_flow_file_has_its_own_charts() {
        let flow = fixture::kolmogorov_fixture();
        let kinds = ChartKind::all_for(&flow);
        assert!(kinds.contains(&ChartKind::VorticityCorrelation));
        assert!(!kinds.contains(&ChartKind::Stability) && !kinds.contains(&ChartKind::Correlation));
        assert!(!ChartKind::all_for(&fixture()).contains(&ChartKind::VorticityCorrelation));
        let kind = ChartKind::VorticityCorrelation;
        let svg = render(kind.size(&flow), |a| draw(kind, a, &flow, 0));
        assert!(svg.contains("Vorticity correlation over rollout time") && svg.contains("C-WIG"));
        let committed = StudyResults::from_json(include_str!(
            "../../../../results/kolmogorov-quick/results.json"
        ))
        .expect("committed Kolmogorov run");
        let svg = render(kind.size(&committed), |a| draw(kind, a, &committed, 0));
        assert!(svg.contains("not in this file"), "predates the measures");
    }
}
