//! From per-test metrics to the results schema: mean over tests per model, then mean ± std
//! over seeds; stability classes counted over all tests; NOG / WIG relative to ONE of the same
//! configuration and seed.

use serde::{Deserialize, Serialize};

pub use super::results::relative_to_one;
use super::results::{
    Metrics, SampleTest, SeedStat, SeedTraining, SpaceTime, StabilityCounts, StudyResults,
    VariantResult, VorticityStats, RESULTS_SCHEMA,
};
use crate::metrics::Stability;
use crate::system::config::StudyConfig;
use crate::train::TrainConfig;
use crate::types::packed::Packed;
use crate::types::{TestMetrics, VorticityMetrics};

/// What one seed of one variant produced. `tests` is empty when training diverged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedOutcome {
    /// Training summary.
    pub training: SeedTraining,
    /// Metrics of every test (all sizes).
    pub tests: Vec<TestMetrics>,
    /// Rollouts of the sample tests (kept for the first seed only; empty otherwise).
    pub samples: Vec<SpaceTime>,
    /// The trained weights (every parameter in visiting order, f32:
    /// [`crate::nets::export::flat_weights`]);
    /// `None` for a diverged training and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Packed>,
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
    if count == 0 {
        f64::NAN
    } else {
        sum / count as f64
    }
}

/// Metrics over seeds: each seed's value is the mean over its tests.
pub fn metrics(per_seed_tests: &[&[TestMetrics]]) -> Metrics {
    metrics_without_diverged(per_seed_tests, None)
}

/// [`metrics`], leaving out (and counting) the seeds whose mean error is NaN or above
/// `diverged_above` (`None`: keep every seed).
pub fn metrics_without_diverged(
    per_seed_tests: &[&[TestMetrics]],
    diverged_above: Option<f64>,
) -> Metrics {
    let diverged = |tests: &[TestMetrics]| {
        diverged_above.is_some_and(|bound| {
            let error = mean(tests.iter().map(|t| t.relative_error));
            error.is_nan() || error > bound
        })
    };
    let evaluated: Vec<&[TestMetrics]> = per_seed_tests
        .iter()
        .copied()
        .filter(|t| !t.is_empty() && !diverged(t))
        .collect();
    let diverged_models = per_seed_tests
        .iter()
        .filter(|t| !t.is_empty() && diverged(t))
        .count();
    let stat = |f: &dyn Fn(&TestMetrics) -> f64| {
        SeedStat::from_values(
            evaluated
                .iter()
                .map(|tests| mean(tests.iter().map(f)))
                .collect(),
        )
    };
    let mut stability = StabilityCounts::default();
    for test in evaluated.iter().flat_map(|tests| tests.iter()) {
        match test.stability {
            Stability::Static => stability.r#static += 1,
            Stability::Unstable => stability.unstable += 1,
            Stability::Recurring => stability.recurring += 1,
            Stability::Regular => stability.regular += 1,
        }
    }
    Metrics {
        relative_error: stat(&|t| t.relative_error),
        l2: stat(&|t| t.l2),
        correlation_time: stat(&|t| t.correlation_time as f64),
        divergence_time: stat(&|t| t.divergence_time as f64),
        stability,
        error_curve: error_curve(&evaluated),
        diverged_models,
        vorticity: vorticity_stats(&evaluated),
        test_errors: test_errors(&evaluated),
        test_peaks: Vec::new(),
    }
}

/// The baseline's metrics (one "seed": the coarse solver), with the truth's per-frame peaks
/// of every test ([`Metrics::test_peaks`]).
pub fn baseline_metrics(tests: &[TestMetrics]) -> Metrics {
    let mut baseline = metrics(&[tests]);
    if tests.iter().all(|t| !t.truth_peaks.is_empty()) {
        baseline.test_peaks = tests.iter().map(|t| Packed::f32s(&t.truth_peaks)).collect();
    }
    baseline
}

/// Every evaluated seed's per-test squared-error curves (`[seed][test]`), or none when a test
/// has no curve (older files, systems without one).
fn test_errors(per_seed_tests: &[&[TestMetrics]]) -> Vec<Vec<Packed>> {
    let every_test = per_seed_tests.iter().flat_map(|t| t.iter());
    if every_test.clone().any(|t| t.frame_mse.is_empty()) {
        return Vec::new();
    }
    per_seed_tests
        .iter()
        .map(|tests| tests.iter().map(|t| Packed::f32s(&t.frame_mse)).collect())
        .collect()
}

/// Kochkov et al.'s measures over seeds, where every test has them (else `None`).
fn vorticity_stats(per_seed_tests: &[&[TestMetrics]]) -> Option<VorticityStats> {
    let tests = per_seed_tests.iter().flat_map(|t| t.iter());
    let has_all = tests.clone().all(|t| t.vorticity.is_some()) && tests.clone().next().is_some();
    if !has_all {
        return None;
    }
    let stat = |f: &dyn Fn(&VorticityMetrics) -> f64| {
        SeedStat::from_values(
            per_seed_tests
                .iter()
                .map(|tests| mean(tests.iter().filter_map(|t| t.vorticity.as_ref()).map(f)))
                .collect(),
        )
    };
    let curves: Vec<&[f64]> = tests
        .filter_map(|t| t.vorticity.as_ref())
        .map(|v| v.correlation.as_slice())
        .collect();
    Some(VorticityStats {
        steps_above_095: stat(&|v| v.steps_above(0) as f64),
        steps_above_080: stat(&|v| v.steps_above(1) as f64),
        time_scales_above_095: stat(&|v| v.time_scales_above(0)),
        time_scales_above_080: stat(&|v| v.time_scales_above(1)),
        early_mse: stat(&|v| v.early_mse),
        correlation_curve: mean_curve(&curves),
    })
}

/// The frame-wise mean of `curves` over their common length, at most 200 points.
fn mean_curve(curves: &[&[f64]]) -> Vec<(usize, f64)> {
    let frames = curves.iter().map(|c| c.len()).min().unwrap_or(0);
    let curve: Vec<f64> = (0..frames)
        .map(|f| mean(curves.iter().map(|c| c[f])))
        .collect();
    downsample(&curve, 200)
}

/// The mean per-frame relative error over every test of every seed, at most 200 points.
fn error_curve(per_seed_tests: &[&[TestMetrics]]) -> Vec<(usize, f64)> {
    let curves: Vec<&[f64]> = per_seed_tests
        .iter()
        .flat_map(|t| t.iter())
        .map(|t| t.frame_errors.as_slice())
        .collect();
    mean_curve(&curves)
}

/// The result of one variant over its seeds (`relative_to_one` filled by [`relative_to_one`]);
/// a seed whose mean error is NaN or above `diverged_above` (the system's
/// `PhysicalSystem::diverged_error`) is left out of the means and counted.
pub fn variant_result(
    config: &TrainConfig,
    seeds: &[u64],
    outcomes: &[SeedOutcome],
    diverged_above: Option<f64>,
) -> VariantResult {
    let tests: Vec<&[TestMetrics]> = outcomes.iter().map(|o| o.tests.as_slice()).collect();
    let metrics = metrics_without_diverged(&tests, diverged_above);
    VariantResult {
        id: config.variant_id(),
        params: config.net.parameter_count(),
        seeds: seeds.to_vec(),
        relative_to_one: None,
        diverged: outcomes.iter().any(|o| o.training.diverged_at.is_some())
            || metrics.diverged_models > 0,
        metrics,
        training: outcomes.iter().map(|o| o.training.clone()).collect(),
        samples: outcomes
            .first()
            .map(|o| o.samples.clone())
            .unwrap_or_default(),
        weights: if outcomes.iter().any(|o| o.weights.is_some()) {
            outcomes.iter().map(|o| o.weights.clone()).collect()
        } else {
            Vec::new()
        },
        relative_to_one_paired: None,
    }
}

/// The results file of a study: its `variants` (each over its seeds; `relative_to_one` is
/// filled here), the baseline, the sample tests and `wall_secs`. The one-process study and the
/// merge of a cluster run both end here.
pub fn study_results(
    config: &StudyConfig,
    mut variants: Vec<VariantResult>,
    baseline: Metrics,
    samples: Vec<SampleTest>,
    wall_secs: f64,
) -> StudyResults {
    relative_to_one(&mut variants);
    StudyResults {
        schema: RESULTS_SCHEMA.to_string(),
        preset: config.preset,
        config: config.clone(),
        variants,
        baseline,
        wall_secs,
        samples,
        missing_cells: Vec::new(),
        aggregation: Default::default(),
    }
}

/// At most `points` `(index, value)` pairs spread evenly over `history`.
pub fn downsample<T: Copy>(history: &[T], points: usize) -> Vec<(usize, T)> {
    if history.len() <= points {
        return history.iter().copied().enumerate().collect();
    }
    let stride = history.len() as f64 / points as f64;
    (0..points)
        .map(|i| {
            let index = ((i as f64 * stride) as usize).min(history.len() - 1);
            (index, history[index])
        })
        .chain(std::iter::once((
            history.len() - 1,
            history[history.len() - 1],
        )))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ks::preset::paper;
    use crate::train::{Modality, Mode};

    fn test(error: f64, class: Stability) -> TestMetrics {
        TestMetrics {
            relative_error: error,
            l2: 2.0 * error,
            correlation_time: 10,
            divergence_time: 750,
            stability: class,
            frame_errors: vec![0.0, error, 2.0 * error],
            vorticity: None,
            frame_mse: vec![0.0, error as f32],
            truth_peaks: vec![1.0, 1.0],
        }
    }

    fn outcome(seed: u64, tests: Vec<TestMetrics>) -> SeedOutcome {
        SeedOutcome {
            training: SeedTraining {
                seed,
                iterations_done: 1,
                iterations_per_sec: 1.0,
                diverged_at: None,
                loss_curve: vec![],
                gradient_skips: 0,
            },
            tests,
            samples: vec![],
            weights: None,
        }
    }

    /// A test with the vorticity measures: correlation `[1, c, c²]`, MSE per frame `[0, e, e]`,
    /// time scale 2 steps.
    fn flow_test(c: f64, e: f64) -> TestMetrics {
        TestMetrics {
            vorticity: Some(VorticityMetrics::new(
                vec![1.0, c, c * c],
                &[0.0, e, e],
                2.0,
            )),
            ..test(e, Stability::Regular)
        }
    }

    #[test]
    fn vorticity_measures_average_over_tests_then_seeds() {
        // Seed 0: crossings of 0.95 at steps 1 and 2 (c = 0.9, 0.96) → 1.5; seed 1: 2 and 2.
        let seed0 = [flow_test(0.9, 1.0), flow_test(0.96, 3.0)];
        let seed1 = [flow_test(0.97, 2.0), flow_test(0.97, 2.0)];
        let stats = metrics(&[&seed0, &seed1])
            .vorticity
            .expect("every test has them");
        assert_eq!(stats.steps_above_095.per_seed, vec![1.5, 2.0]);
        assert_eq!(stats.time_scales_above_095.per_seed, vec![0.75, 1.0]);
        assert_eq!(stats.early_mse.per_seed, vec![2.0, 2.0]);
        let curve: Vec<f64> = stats.correlation_curve.iter().map(|p| p.1).collect();
        assert!((curve[1] - (0.9 + 0.96 + 0.97 + 0.97) / 4.0).abs() < 1e-12);
        let mixed = [flow_test(0.9, 1.0), test(1.0, Stability::Regular)];
        assert!(
            metrics(&[&mixed]).vorticity.is_none(),
            "only where every test has them"
        );
    }

    #[test]
    fn mean_over_tests_then_over_seeds_and_relative_to_one() {
        // Seed 0: tests 1, 3 → 2; seed 1: tests 4, 4 → 4. Mean 3, std 1.
        let seeds = [0, 1];
        let nog = [
            outcome(
                0,
                vec![test(1.0, Stability::Regular), test(3.0, Stability::Static)],
            ),
            outcome(
                1,
                vec![
                    test(4.0, Stability::Regular),
                    test(4.0, Stability::Unstable),
                ],
            ),
        ];
        let one = [
            outcome(
                0,
                vec![test(2.0, Stability::Regular), test(2.0, Stability::Regular)],
            ),
            outcome(
                1,
                vec![test(8.0, Stability::Regular), test(8.0, Stability::Regular)],
            ),
        ];
        let mut variants = vec![
            variant_result(&paper(Mode::Correct, Modality::One), &seeds, &one, None),
            variant_result(&paper(Mode::Correct, Modality::Nog), &seeds, &nog, None),
        ];
        relative_to_one(&mut variants);
        let m = &variants[1].metrics;
        assert_eq!(m.relative_error.per_seed, vec![2.0, 4.0]);
        assert_eq!((m.relative_error.mean, m.relative_error.std), (3.0, 1.0));
        assert_eq!(m.l2.mean, 6.0);
        // Error over time: frame f of every test of every seed, (0, e, 2e) per test → mean 3.
        assert_eq!(m.error_curve, vec![(0, 0.0), (1, 3.0), (2, 6.0)]);
        assert_eq!(
            (
                m.stability.regular,
                m.stability.r#static,
                m.stability.unstable
            ),
            (2, 1, 1)
        );
        // ks_eval.py's ratio of means: NOG 3 ± 1 over ONE's mean (2 + 8) / 2 = 5 → 0.6 ± 0.2.
        let relative = variants[1].relative_to_one.as_ref().expect("ratio");
        assert!((relative.mean - 0.6).abs() < 1e-15 && (relative.std - 0.2).abs() < 1e-15);
        assert_eq!(relative.per_seed, vec![0.4, 0.8]);
        // Paired: per seed 2/2 and 4/8 → 0.75 ± 0.25.
        let paired = variants[1].relative_to_one_paired.as_ref().expect("paired");
        assert_eq!((paired.mean, paired.std), (0.75, 0.25));
        assert!(variants[0].relative_to_one.is_none());
        // Every test kept: [seed][test] curves.
        assert_eq!(m.test_errors.len(), 2);
        assert_eq!(m.test_errors[1][0].to_f32s(), Ok(vec![0.0, 4.0]));
    }

    #[test]
    fn diverged_seeds_are_left_out_of_the_metrics() {
        let mut diverged = outcome(1, vec![]);
        diverged.training.diverged_at = Some(3);
        let result = variant_result(
            &paper(Mode::Predict, Modality::Wig),
            &[0, 1],
            &[outcome(0, vec![test(1.0, Stability::Regular)]), diverged],
            None,
        );
        assert!(result.diverged);
        assert_eq!(result.metrics.relative_error.per_seed, vec![1.0]);
    }

    #[test]
    fn downsampling_keeps_the_ends() {
        let history: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let points = downsample(&history, 100);
        assert!(points.len() <= 101);
        assert_eq!(points[0], (0, 0.0));
        assert_eq!(*points.last().expect("last"), (999, 999.0));
    }
}
