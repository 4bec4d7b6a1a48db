//! The study's results file, `unroll-lab/results@1` (JSON; a flat CSV view), shared by the CLI
//! and the browser: written by [`crate::study`], read back by the importer.

use serde::{Deserialize, Serialize};

use crate::metrics::mean_std;
use crate::system::config::{Preset, StudyConfig};
pub use crate::train::variant::VariantId;
use crate::train::{Modality, Mode};
use crate::types::nullable;
pub use crate::types::packed::Packed;
pub use crate::types::SpaceTime;
use crate::types::System;

/// The schema tag.
pub const RESULTS_SCHEMA: &str = "unroll-lab/results@1";

/// Mean ± standard deviation over seeds, with the per-seed values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedStat {
    /// Mean over seeds (NaN, `null` in the file, when no seed was evaluated).
    #[serde(deserialize_with = "nullable::f64")]
    pub mean: f64,
    /// Population standard deviation over seeds.
    #[serde(deserialize_with = "nullable::f64")]
    pub std: f64,
    /// One value per seed (each the mean over the tests of that seed's model).
    #[serde(deserialize_with = "nullable::f64s")]
    pub per_seed: Vec<f64>,
}

impl SeedStat {
    /// From per-seed values.
    pub fn from_values(per_seed: Vec<f64>) -> Self {
        let (mean, std) = mean_std(&per_seed);
        Self {
            mean,
            std,
            per_seed,
        }
    }
}

/// Counts of the stability classes over all tests and seeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StabilityCounts {
    /// Settles to a steady state.
    pub r#static: usize,
    /// Physics residual beyond 500.
    pub unstable: usize,
    /// Periodic return.
    pub recurring: usize,
    /// Chaotic, like the truth.
    pub regular: usize,
}

/// The metrics of one variant (or of the baseline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Relative error over H = 12 steps.
    pub relative_error: SeedStat,
    /// L2 error over H steps.
    pub l2: SeedStat,
    /// Correlation time (steps).
    pub correlation_time: SeedStat,
    /// Divergence time (steps; the rollout length when stable).
    pub divergence_time: SeedStat,
    /// Stability classes over all tests of all seeds.
    pub stability: StabilityCounts,
    /// Error over rollout time: `(step, mean over every test of every seed of the per-frame
    /// relative error)` — the study's relative-error summand at each frame,
    /// [`crate::metrics::relative_error_per_frame`], clipped at
    /// [`crate::metrics::FRAME_ERROR_CLIP`] (a blown-up rollout counts as the clip);
    /// at most 200 points. Empty in files written before it existed.
    #[serde(default)]
    pub error_curve: Vec<(usize, f64)>,
    /// Seeds whose model diverged (mean error NaN or above the system's bound, Kolmogorov:
    /// velocity MSE > 100): left out of every mean above and counted here (absent when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub diverged_models: usize,
    /// Kochkov et al.'s vorticity measures (2-D flows; not the paper's metrics; absent for
    /// 1-D systems and in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vorticity: Option<VorticityStats>,
    /// Every test kept, `[seed][test]` (the seeds of [`SeedStat::per_seed`], tests in the
    /// samples' order): `mean_x (ũ_t − u_t)²` of every frame of the evaluation rollout, packed
    /// f32. With the baseline's [`Self::test_peaks`] it re-scores the relative and L2 errors
    /// exactly at any horizon ([`StudyResults::at_horizon`]). Empty in older files and for
    /// systems whose metric has no horizon.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_errors: Vec<Vec<Packed>>,
    /// The baseline's only: `max_x u_t²` of each test's truth, every frame (packed f32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_peaks: Vec<Packed>,
}

/// Kochkov et al.'s vorticity measures over seeds ([`crate::types::VorticityMetrics`]
/// per test: each seed's value is the mean over its tests).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VorticityStats {
    /// Coarse steps until the vorticity correlation drops below 0.95.
    pub steps_above_095: SeedStat,
    /// The same below 0.8.
    pub steps_above_080: SeedStat,
    /// [`Self::steps_above_095`] in the paper's integral time scales of each test's truth.
    pub time_scales_above_095: SeedStat,
    /// [`Self::steps_above_080`] in time scales.
    pub time_scales_above_080: SeedStat,
    /// Velocity MSE over the first 8 steps (one time scale).
    pub early_mse: SeedStat,
    /// `(step, mean vorticity correlation over every test of every seed)`, at most 200 points.
    pub correlation_curve: Vec<(usize, f64)>,
}

/// Largest value of [`Metrics::error_curve`] (a frame that is not finite scores this).
pub const ERROR_CURVE_CAP: f64 = crate::metrics::FRAME_ERROR_CLIP;

/// The chosen test of one test size: its ground truth and the coarse-solver-only baseline.
/// Every [`VariantResult::samples`] holds the same tests, in the same order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleTest {
    /// Test domain scale `s` (domain length `s · BASE_DOMAIN_SIZE`).
    pub scale: f64,
    /// Index of the test within its size.
    pub test: usize,
    /// Ground truth.
    pub truth: SpaceTime,
    /// ETD1 without a network.
    pub baseline: SpaceTime,
}

/// Training summary of one seed of a variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedTraining {
    /// The seed.
    pub seed: u64,
    /// Iterations completed.
    pub iterations_done: usize,
    /// Iterations per second.
    pub iterations_per_sec: f64,
    /// Iteration of the first non-finite loss.
    pub diverged_at: Option<usize>,
    /// The loss curve, downsampled to at most 200 `(iteration, loss)` points (a non-finite loss
    /// is `null` in the file).
    #[serde(deserialize_with = "nullable::f32_points")]
    pub loss_curve: Vec<(usize, f32)>,
    /// Updates the gradient guard skipped (Kolmogorov training; absent when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gradient_skips: usize,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// One trained variant over its seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    /// Which variant (flattened: `mode`, `modality`, `architecture`, `channels`, `depth`,
    /// `horizon`).
    #[serde(flatten)]
    pub id: VariantId,
    /// Trainable parameters.
    pub params: usize,
    /// Seeds trained.
    pub seeds: Vec<u64>,
    /// Evaluation metrics (seeds whose training diverged are left out).
    pub metrics: Metrics,
    /// NOG / WIG relative error relative to ONE of the same configuration as `ks_eval.py`
    /// computes it (agg_mode 3): the mean over seeds divided by ONE's mean over seeds, the
    /// standard deviation and each seed's value divided the same way (`null` for ONE, or when
    /// ONE was not run). Recomputed from the per-seed errors when a file is read.
    pub relative_to_one: Option<SeedStat>,
    /// The paired alternative: the mean ± std of per-seed ratios (each seed's error over ONE's
    /// of the same seed). Recomputed when a file is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relative_to_one_paired: Option<SeedStat>,
    /// True when any seed's training diverged.
    pub diverged: bool,
    /// Per-seed training summaries.
    pub training: Vec<SeedTraining>,
    /// The first seed's rollouts of [`StudyResults::samples`]' tests, in their order (empty when
    /// that seed diverged, and in files written before it existed).
    #[serde(default)]
    pub samples: Vec<SpaceTime>,
    /// Each seed's trained weights (every parameter in visiting order, packed f32:
    /// [`crate::nets::export::flat_weights`]; `null` where it diverged), in the
    /// order of `seeds`: a committed run's networks roll out again without retraining. Empty
    /// where they were not kept (older files; the page's own runs store none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<Option<Packed>>,
}

/// A complete study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyResults {
    /// [`RESULTS_SCHEMA`].
    pub schema: String,
    /// The study's preset (its name in the file).
    pub preset: Preset,
    /// The full study configuration, read once at import (written with its keys sorted, as a
    /// JSON value writes them, so files stay byte-identical).
    #[serde(serialize_with = "sorted_keys")]
    pub config: StudyConfig,
    /// Every variant.
    pub variants: Vec<VariantResult>,
    /// The coarse-solver-only baseline (ETD1, no network).
    pub baseline: Metrics,
    /// Wall time of the whole study (seconds).
    pub wall_secs: f64,
    /// One chosen test per test size for the space–time maps (empty in older files).
    #[serde(default)]
    pub samples: Vec<SampleTest>,
    /// Trainings absent from a partial merge of a cluster run (empty when complete); their
    /// variants are over the seeds that are there, or left out when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_cells: Vec<MissingCell>,
    /// Which aggregation `relative_to_one` holds in this view (not in the file, which always
    /// holds `ks_eval.py`'s, with the paired one beside it).
    #[serde(skip)]
    pub aggregation: Aggregation,
}

/// How NOG / WIG are set relative to ONE over seeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Aggregation {
    /// `ks_eval.py`'s (agg_mode 3): the ratio of the seeds' means.
    #[default]
    RatioOfMeans,
    /// The paired alternative: the mean of per-seed ratios (same seed of both).
    Paired,
}

impl Aggregation {
    /// How a verdict names it.
    pub fn words(self) -> &'static str {
        match self {
            Aggregation::RatioOfMeans => "the ratio of the seeds' means, as ks_eval.py",
            Aggregation::Paired => "the mean of per-seed ratios (paired; not the paper's)",
        }
    }
}

impl StudyResults {
    /// These results without the trained weights (the browser's storage keeps runs without
    /// them: a quick run's 18 networks would take ≈ 1.5 MB of its few; the exported JSON keeps
    /// them).
    pub fn without_weights(&self) -> StudyResults {
        let mut lighter = self.clone();
        for variant in &mut lighter.variants {
            variant.weights.clear();
        }
        lighter
    }

    /// This view with `aggregation` in `relative_to_one` (the file's pair swapped for the
    /// paired one).
    pub fn with_aggregation(&self, aggregation: Aggregation) -> StudyResults {
        let mut view = self.clone();
        if view.aggregation != aggregation {
            for variant in &mut view.variants {
                std::mem::swap(
                    &mut variant.relative_to_one,
                    &mut variant.relative_to_one_paired,
                );
            }
            view.aggregation = aggregation;
        }
        view
    }
}

/// A training of a cluster run that is not in its merged results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissingCell {
    /// The cell's index in its plan (its job-array task id).
    pub cell: usize,
    /// `C-NOG 16×10 m=3 seed 1`.
    pub label: String,
    /// Why: `missing`, `failed: …` or `foreign: …`.
    pub reason: String,
}

/// Writes `config` through a JSON value: its keys sorted, as results files always had them.
fn sorted_keys<S: serde::Serializer>(
    config: &StudyConfig,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serde_json::to_value(config)
        .map_err(serde::ser::Error::custom)?
        .serialize(serializer)
}

/// Why an imported results file is rejected.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Not JSON or not the schema's shape.
    #[error("not a results file: {0}")]
    Malformed(String),
    /// The study configuration inside is not one this version reads.
    #[error("the results file's study config cannot be read: {0}")]
    Config(String),
    /// A different schema.
    #[error("unsupported schema '{0}' (expected {RESULTS_SCHEMA})")]
    Schema(String),
    /// The file holds no variant.
    #[error("the results file has no variants (nothing was trained)")]
    Empty,
}

impl StudyResults {
    /// Parses and checks the schema tag; a file without variants is refused (there is nothing
    /// to show).
    pub fn from_json(text: &str) -> Result<Self, ResultsError> {
        // Read straight from the text, never through `serde_json::Value`: a second deserializer
        // would instantiate every type's visitor again in the page's module.
        #[derive(Deserialize)]
        struct Schema {
            schema: Option<String>,
        }
        #[derive(Deserialize)]
        struct Config {
            config: Option<StudyConfig>,
        }
        let malformed = |err: serde_json::Error| ResultsError::Malformed(err.to_string());
        let schema = serde_json::from_str::<Schema>(text)
            .map_err(malformed)?
            .schema
            .ok_or_else(|| ResultsError::Malformed("missing \"schema\"".into()))?;
        if schema != RESULTS_SCHEMA {
            return Err(ResultsError::Schema(schema));
        }
        serde_json::from_str::<Config>(text)
            .map_err(|err| ResultsError::Config(err.to_string()))?
            .config
            .ok_or_else(|| ResultsError::Malformed("missing \"config\"".into()))?;
        let mut results: Self = serde_json::from_str(text).map_err(malformed)?;
        if results.variants.is_empty() {
            return Err(ResultsError::Empty);
        }
        relative_to_one(&mut results.variants);
        Ok(results)
    }

    /// The one-line description of a stored results file (`preset 'quick', 6 variants, 398 s`),
    /// read without building the whole file (the variants are skipped, not parsed into values).
    pub fn summary_from_json(text: &str) -> Result<String, ResultsError> {
        #[derive(Deserialize)]
        struct Summary {
            schema: String,
            preset: String,
            variants: Vec<serde::de::IgnoredAny>,
            wall_secs: f64,
            #[serde(default)]
            missing_cells: Vec<serde::de::IgnoredAny>,
        }
        let summary: Summary =
            serde_json::from_str(text).map_err(|err| ResultsError::Malformed(err.to_string()))?;
        if summary.schema != RESULTS_SCHEMA {
            return Err(ResultsError::Schema(summary.schema));
        }
        let partial = match summary.missing_cells.len() {
            0 => String::new(),
            n => format!(", partial: {n} training(s) missing"),
        };
        Ok(format!(
            "preset '{}', {} variants, {:.0} s{partial}",
            summary.preset,
            summary.variants.len(),
            summary.wall_secs
        ))
    }

    /// The simulated system.
    pub fn system(&self) -> System {
        self.config.system
    }

    /// The first variant of `mode` × `modality`, if present.
    pub fn find(&self, mode: Mode, modality: Modality) -> Option<&VariantResult> {
        self.variants.iter().find(|v| v.id.is(mode, modality))
    }

    /// C-NOG's mean relative error divided into P-WIG's (the study: ≈ 4.5): how many times
    /// better non-differentiable correction is than differentiable prediction.
    pub fn c_nog_over_p_wig(&self) -> Option<f64> {
        let c_nog = self
            .find(Mode::Correct, Modality::Nog)?
            .metrics
            .relative_error
            .mean;
        let p_wig = self
            .find(Mode::Predict, Modality::Wig)?
            .metrics
            .relative_error
            .mean;
        (c_nog > 0.0).then(|| p_wig / c_nog)
    }

    /// The C-NOG / P-WIG comparison in words ("C-NOG is 4.50× better than P-WIG …", or
    /// "… worse …" when the ratio is below 1) with the paper's `published` ratio beside it where
    /// there is one; `None` when either variant is missing.
    pub fn ratio_sentence(&self, published: Option<&str>) -> Option<String> {
        let ratio = self.c_nog_over_p_wig()?;
        let study = published.map_or(String::new(), |p| format!(" (study: ≈ {p}× better)"));
        Some(if ratio >= 1.0 {
            format!("C-NOG is {ratio:.2}× better than P-WIG in relative error{study}.")
        } else {
            format!(
                "C-NOG is {:.2}× worse than P-WIG in relative error here{study}.",
                1.0 / ratio
            )
        })
    }
}

/// Fills `relative_to_one` (the ratio of means, `ks_eval.py`'s) and `relative_to_one_paired`
/// (the mean of per-seed ratios) of every NOG / WIG variant against ONE with the same mode,
/// architecture, size and horizon (seeds where either is missing are skipped in the paired one).
pub fn relative_to_one(variants: &mut [VariantResult]) {
    let ones: Vec<VariantResult> = variants
        .iter()
        .filter(|v| v.id.modality == Modality::One)
        .cloned()
        .collect();
    for variant in variants
        .iter_mut()
        .filter(|v| v.id.modality != Modality::One)
    {
        let same_but_modality = VariantId {
            modality: Modality::One,
            ..variant.id
        };
        let Some(one) = ones.iter().find(|o| o.id == same_but_modality) else {
            variant.relative_to_one = None;
            variant.relative_to_one_paired = None;
            continue;
        };
        let (errors, ones) = (&variant.metrics.relative_error, &one.metrics.relative_error);
        let ratios: Vec<f64> = errors
            .per_seed
            .iter()
            .zip(&ones.per_seed)
            .filter(|(_, o)| **o > 0.0)
            .map(|(v, o)| v / o)
            .collect();
        variant.relative_to_one_paired =
            (!ratios.is_empty()).then(|| SeedStat::from_values(ratios));
        variant.relative_to_one = ratio_of_means(errors, ones);
    }
}

/// `errors` relative to `ones` as `ks_eval.py` divides (agg_mode 3): mean, std and each seed's
/// value over ONE's mean (none without a positive finite ONE mean or seeds).
fn ratio_of_means(errors: &SeedStat, ones: &SeedStat) -> Option<SeedStat> {
    let one = ones.mean;
    if !(one.is_finite() && one > 0.0) || errors.per_seed.is_empty() {
        return None;
    }
    Some(SeedStat {
        mean: errors.mean / one,
        std: errors.std / one,
        per_seed: errors.per_seed.iter().map(|v| v / one).collect(),
    })
}

#[cfg(test)]
mod space_time_tests {
    use super::SpaceTime;

    #[test]
    fn summary_of_a_results_file() {
        let text = include_str!("../../../../../tests/e2e/fixtures/cli-results.json");
        let full = super::StudyResults::from_json(text).expect("fixture");
        let summary = super::StudyResults::summary_from_json(text).expect("summary");
        assert_eq!(
            summary,
            format!("preset 'quick', 6 variants, {:.0} s", full.wall_secs)
        );
        let err = super::StudyResults::summary_from_json(&text.replace("results@1", "results@9"))
            .expect_err("schema");
        assert!(err.to_string().contains("unsupported schema"));
        assert!(super::StudyResults::summary_from_json("[]").is_err());
    }

    #[test]
    fn keeps_evenly_strided_rounded_frames() {
        // 251 frames (250 steps) into at most 100: every 3rd step (0, 3, …, 249) = 84 frames.
        let rollout: Vec<Vec<f64>> = (0..251).map(|t| vec![t as f64 + 0.12345, -1e-4]).collect();
        let kept = SpaceTime::from_rollout(&rollout, 100);
        assert_eq!(kept.every, 3);
        assert_eq!(kept.frames.len(), 84);
        assert_eq!(kept.frames[1], vec![Some(3.123), Some(-0.0)]);
        // Short rollouts are kept whole.
        assert_eq!(
            SpaceTime::from_rollout(&rollout[..50], 100).frames.len(),
            50
        );
        // Non-finite and f32-overflowing values become None.
        let wild = vec![vec![f64::NAN, f64::INFINITY, 1e300, 2.0]];
        assert_eq!(
            SpaceTime::from_rollout(&wild, 100).frames[0],
            vec![None, None, None, Some(2.0)]
        );
    }
}
