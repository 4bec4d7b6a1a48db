//! Test helpers: hand-built results, the CLI's results fixture (an older file without the error
//! curves and samples) and rendering into an SVG string.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::ChartError;
use unroll_core::nets::Architecture;
use unroll_core::study::data::results::{
    Metrics, SampleTest, SeedStat, SeedTraining, SpaceTime, StabilityCounts, StudyResults,
    VariantId, VariantResult, VorticityStats, RESULTS_SCHEMA,
};
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};

/// Draws with `draw` into a `size` SVG and returns the SVG text (panics on a drawing error).
pub fn render(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), ChartError>,
) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root).expect("chart draws");
        root.present().expect("svg written");
    }
    svg
}

/// Occurrences of `needle` in `svg`.
pub fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// Occurrences of an element filled with `color` (`fill="#rrggbb"`).
pub fn filled(svg: &str, color: RGBColor) -> usize {
    count(
        svg,
        &format!("fill=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2),
    )
}

/// Occurrences of an element stroked with `color` (`stroke="#rrggbb"`).
pub fn stroked(svg: &str, color: RGBColor) -> usize {
    count(
        svg,
        &format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2),
    )
}

/// The CLI's results fixture (`tests/e2e/fixtures/cli-results.json`, as the CLI writes it).
pub fn cli_fixture() -> StudyResults {
    StudyResults::from_json(include_str!(
        "../../../../tests/e2e/fixtures/cli-results.json"
    ))
    .expect("fixture parses")
}

/// The CLI's fixture as a file written before the error curves and space–time samples
/// existed: those keys removed from the JSON, then parsed (their serde defaults: empty).
pub fn old_file() -> StudyResults {
    let text = include_str!("../../../../tests/e2e/fixtures/cli-results.json");
    let mut value: serde_json::Value = serde_json::from_str(text).expect("fixture is JSON");
    let strip_curve = |m: &mut serde_json::Value| {
        m.as_object_mut().map(|m| m.remove("error_curve"));
    };
    value.as_object_mut().map(|o| o.remove("samples"));
    strip_curve(&mut value["baseline"]);
    for v in value["variants"].as_array_mut().into_iter().flatten() {
        v.as_object_mut().map(|o| o.remove("samples"));
        strip_curve(&mut v["metrics"]);
    }
    let old = StudyResults::from_json(&value.to_string()).expect("old file parses");
    assert!(old.samples.is_empty() && old.baseline.error_curve.is_empty());
    old
}

fn stat(mean: f64, std: f64) -> SeedStat {
    SeedStat {
        mean,
        std,
        per_seed: vec![mean - std, mean + std],
    }
}

/// Metrics with relative error `err`, correlation time `corr` and an error curve growing from
/// `err / 4`.
fn metrics(err: f64, corr: f64, stability: [usize; 4]) -> Metrics {
    Metrics {
        relative_error: stat(err, err / 5.0),
        l2: stat(err * 2.0, err / 4.0),
        correlation_time: stat(corr, corr / 10.0),
        divergence_time: stat(60.0, 0.0),
        stability: StabilityCounts {
            r#static: stability[0],
            unstable: stability[1],
            recurring: stability[2],
            regular: stability[3],
        },
        error_curve: (0..30).map(|k| (k, err / 4.0 * (1.0 + k as f64))).collect(),
        diverged_models: 0,
        vorticity: None,
        test_errors: Vec::new(),
        test_peaks: Vec::new(),
    }
}

/// A 12-frame, 16-point travelling wave `amp · sin(x − shift·t)`, every 5 steps.
fn wave(amp: f32, shift: f32) -> SpaceTime {
    let frames = (0..12)
        .map(|t| {
            (0..16)
                .map(|j| Some(amp * (j as f32 * 0.4 - shift * t as f32).sin()))
                .collect()
        })
        .collect();
    SpaceTime { every: 5, frames }
}

fn variant(mode: Mode, modality: Modality, size: (usize, usize), err: f64) -> VariantResult {
    let relative = (modality != Modality::One).then(|| stat(0.5, 0.1));
    let loss = |s: f32| (0..50).map(|i| (i * 10, s / (1.0 + i as f32))).collect();
    VariantResult {
        id: VariantId {
            mode,
            modality,
            architecture: Architecture::Resnet,
            channels: size.0,
            depth: size.1,
            horizon: 3,
        },
        params: size.0 * size.0 * size.1 * 3,
        seeds: vec![0, 1],
        metrics: metrics(err, 20.0 / err.sqrt(), [1, 2, 3, 14]),
        relative_to_one: relative.clone(),
        relative_to_one_paired: relative,
        weights: Vec::new(),
        diverged: false,
        training: vec![
            SeedTraining {
                seed: 0,
                iterations_done: 500,
                iterations_per_sec: 10.0,
                diverged_at: None,
                loss_curve: loss(1.0),
                gradient_skips: 0,
            },
            SeedTraining {
                seed: 1,
                iterations_done: 500,
                iterations_per_sec: 10.0,
                diverged_at: None,
                loss_curve: loss(1.2),
                gradient_skips: 0,
            },
        ],
        samples: vec![wave(2.5, 0.3), wave(1.5, 0.2)],
    }
}

/// Three variants (P-ONE, C-NOG, C-WIG), every new field filled, a non-finite value in C-WIG's
/// rollout and NaN / inf in P-ONE's loss.
pub fn fixture() -> StudyResults {
    let mut variants = vec![
        variant(Mode::Predict, Modality::One, (16, 10), 0.4),
        variant(Mode::Correct, Modality::Nog, (16, 10), 0.05),
        variant(Mode::Correct, Modality::Wig, (16, 10), 0.08),
    ];
    variants[2].samples[0].frames[6][3] = None;
    variants[0].training[0].loss_curve[3].1 = f32::NAN;
    variants[0].training[0].loss_curve[4].1 = f32::INFINITY;
    StudyResults {
        schema: RESULTS_SCHEMA.into(),
        preset: unroll_core::system::config::Preset::Quick,
        config: System::default()
            .description()
            .preset(unroll_core::system::config::Preset::Quick, 1),
        variants,
        baseline: metrics(0.9, 4.0, [0, 0, 4, 16]),
        wall_secs: 12.0,
        samples: vec![
            SampleTest {
                scale: 0.93,
                test: 3,
                truth: wave(2.0, 0.25),
                baseline: wave(1.0, 0.5),
            },
            SampleTest {
                scale: 1.15,
                test: 0,
                truth: wave(2.0, 0.2),
                baseline: wave(1.0, 0.4),
            },
        ],
        missing_cells: Vec::new(),
        aggregation: Default::default(),
    }
}

/// The sizes preset: C-NOG and C-WIG at three sizes each, error ∝ params^−0.5.
pub fn sizes_fixture() -> StudyResults {
    let mut results = fixture();
    results.variants = [Modality::Nog, Modality::Wig]
        .into_iter()
        .zip([3.0, 5.0])
        .flat_map(|(m, scale)| {
            [(8, 4), (16, 6), (32, 8)].into_iter().map(move |size| {
                let params = (size.0 * size.0 * size.1 * 3) as f64;
                variant(Mode::Correct, m, size, scale / params.sqrt())
            })
        })
        .collect();
    results
}

/// Kochkov et al.'s measures of a rollout whose correlation stays above 0.95 for `steps` steps
/// (time scale 8 steps) and decays over 100 steps.
fn vorticity(steps: f64) -> VorticityStats {
    let curve = (0..=100)
        .step_by(2)
        .map(|k| (k, (-(k as f64) / (steps * 20.0)).exp()))
        .collect();
    VorticityStats {
        steps_above_095: stat(steps, steps / 10.0),
        steps_above_080: stat(steps * 4.0, steps / 5.0),
        time_scales_above_095: stat(steps / 8.0, steps / 80.0),
        time_scales_above_080: stat(steps / 2.0, steps / 40.0),
        early_mse: stat(1e-3 / steps, 1e-4 / steps),
        correlation_curve: curve,
    }
}

/// The first system in menu order scored by Kochkov et al.'s vorticity measures (a 2-D flow).
fn flow_system() -> System {
    System::ALL
        .into_iter()
        .find(|system| system.description().facts().measures.vorticity)
        .expect("a system with vorticity measures")
}

/// A Kolmogorov run (C-ONE, C-NOG, C-WIG and PISO alone) with the vorticity measures: C-WIG
/// stays correlated longest, the baseline shortest.
pub fn kolmogorov_fixture() -> StudyResults {
    let mut results = fixture();
    results.config.system = flow_system();
    results.variants = [
        (Modality::One, 0.3, 8.0),
        (Modality::Nog, 0.25, 10.0),
        (Modality::Wig, 0.2, 12.0),
    ]
    .into_iter()
    .map(|(modality, err, steps)| {
        let mut v = variant(Mode::Correct, modality, (16, 10), err);
        v.metrics.vorticity = Some(vorticity(steps));
        v
    })
    .collect();
    results.baseline.vorticity = Some(vorticity(4.0));
    results
}

/// [`fixture`] keeping every test: P-WIG added, 2 seeds × 4 tests of 41 frames per variant,
/// each test's squared error growing at its variant's rate (one test of C-NOG blows up), the
/// truths' peaks 1.
pub fn every_test_fixture() -> StudyResults {
    use unroll_core::types::packed::Packed;
    let mut results = fixture();
    let mut p_wig = results.variants[0].clone();
    p_wig.id.modality = Modality::Wig;
    results.variants.push(p_wig);
    let curve = |rate: f64, test: usize| -> Packed {
        let values: Vec<f32> = (0..41)
            .map(|t| (1e-4 * (rate * t as f64).exp() * (1.0 + test as f64 / 4.0)) as f32)
            .collect();
        Packed::f32s(&values)
    };
    let rates = [0.30, 0.10, 0.08, 0.20];
    for (variant, rate) in results.variants.iter_mut().zip(rates) {
        variant.metrics.test_errors = (0..2)
            .map(|_| (0..4).map(|test| curve(rate, test)).collect())
            .collect();
    }
    results.variants[1].metrics.test_errors[0][3] = Packed::f32s(&[f32::INFINITY; 41]);
    results.baseline.test_errors = vec![(0..4).map(|test| curve(0.35, test)).collect()];
    results.baseline.test_peaks = (0..4).map(|_| Packed::f32s(&[1.0; 41])).collect();
    results.config.eval.error_horizon = 12;
    results
}
