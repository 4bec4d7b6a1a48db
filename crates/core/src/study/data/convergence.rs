//! Network-size convergence of a study: per architecture, mode and modality, the mean relative
//! error against the parameter count on log–log axes, the fitted slope of the seed means, and
//! its spread over seeds (one fit per seed across the sizes): error ∝ P^slope. The paper
//! reports ≈ −1/3 in correction and ≈ −1/4 in prediction, for every architecture it tried.

use super::results::{StudyResults, VariantResult};
use crate::metrics::{log_log_slope, mean_std};
use crate::nets::Architecture;
use crate::train::{Modality, Mode};

/// The paper's slopes: `(mode, slope)`.
pub const PAPER_SLOPES: [(Mode, f64); 2] = [(Mode::Predict, -0.25), (Mode::Correct, -1.0 / 3.0)];

/// One architecture × mode × modality over its network sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvergenceFit {
    /// The architecture.
    pub architecture: Architecture,
    /// The mode.
    pub mode: Mode,
    /// The modality.
    pub modality: Modality,
    /// `(parameters, mean relative error, its std over seeds)`, sorted by parameters.
    pub points: Vec<(f64, f64, f64)>,
    /// Slope of the seed means' least-squares line (≥ 2 sizes with positive error).
    pub slope: Option<f64>,
    /// One slope per seed with ≥ 2 sizes evaluated, in seed order.
    pub seed_slopes: Vec<f64>,
}

impl ConvergenceFit {
    /// Mean and (population) std of [`Self::seed_slopes`]; `None` with fewer than 2 seeds.
    pub fn seed_slope_stat(&self) -> Option<(f64, f64)> {
        (self.seed_slopes.len() >= 2).then(|| mean_std(&self.seed_slopes))
    }

    /// The paper's slope for this fit's mode (`None` for transition).
    pub fn paper_slope(&self) -> Option<f64> {
        PAPER_SLOPES
            .iter()
            .find(|(mode, _)| *mode == self.mode)
            .map(|(_, slope)| *slope)
    }

    /// `−0.31 ± 0.05` (mean ± std of the seed slopes), or the slope of the means with one
    /// seed, or `—`.
    pub fn slope_text(&self) -> String {
        match (self.seed_slope_stat(), self.slope) {
            (Some((mean, std)), _) => format!("{mean:.3} ± {std:.3}"),
            (None, Some(slope)) => format!("{slope:.3}"),
            (None, None) => "—".into(),
        }
    }
}

/// `(seed, relative error)` of every evaluated seed of `v` (seeds whose training diverged are
/// not in the metrics).
fn seed_errors(v: &VariantResult) -> Vec<(u64, f64)> {
    let evaluated: Vec<u64> = if v.training.is_empty() {
        v.seeds.clone()
    } else {
        v.training
            .iter()
            .filter(|t| t.diverged_at.is_none())
            .map(|t| t.seed)
            .collect()
    };
    let per_seed = &v.metrics.relative_error.per_seed;
    if evaluated.len() != per_seed.len() {
        return Vec::new();
    }
    evaluated
        .into_iter()
        .zip(per_seed.iter().copied())
        .collect()
}

/// Every architecture × mode × modality of `results` with ≥ 2 distinct parameter counts, in
/// first-appearance order.
pub fn convergence_fits(results: &StudyResults) -> Vec<ConvergenceFit> {
    convergence_fits_skipping(results, 0)
}

/// [`convergence_fits`] without the `skip` smallest parameter counts of each group (the fit of
/// the larger networks only; groups left with fewer than 2 sizes are dropped).
pub fn convergence_fits_skipping(results: &StudyResults, skip: usize) -> Vec<ConvergenceFit> {
    let mut keys: Vec<(Architecture, Mode, Modality)> = Vec::new();
    for v in &results.variants {
        let key = (v.id.architecture, v.id.mode, v.id.modality);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.into_iter()
        .filter_map(|(architecture, mode, modality)| {
            let group: Vec<&VariantResult> = results
                .variants
                .iter()
                .filter(|v| {
                    v.id.architecture == architecture
                        && v.id.mode == mode
                        && v.id.modality == modality
                })
                .collect();
            let variants = without_smallest(group, skip);
            let mut points: Vec<(f64, f64, f64)> = variants
                .iter()
                .map(|v| {
                    let e = &v.metrics.relative_error;
                    (v.params as f64, e.mean, e.std)
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut sizes: Vec<f64> = points.iter().map(|p| p.0).collect();
            sizes.dedup();
            if sizes.len() < 2 {
                return None;
            }
            let means: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.1)).collect();
            Some(ConvergenceFit {
                architecture,
                mode,
                modality,
                slope: log_log_slope(&means),
                points,
                seed_slopes: seed_slopes(&variants),
            })
        })
        .collect()
}

/// The variants of `group` without those of its `skip` smallest parameter counts.
fn without_smallest(group: Vec<&VariantResult>, skip: usize) -> Vec<&VariantResult> {
    let mut all_sizes: Vec<usize> = group.iter().map(|v| v.params).collect();
    all_sizes.sort_unstable();
    all_sizes.dedup();
    let kept = all_sizes.get(skip..).unwrap_or_default();
    group
        .into_iter()
        .filter(|v| kept.contains(&v.params))
        .collect()
}

/// One log–log slope per seed of `variants` (in seed order), over the sizes that seed was
/// evaluated at; seeds with fewer than 2 positive points have none.
fn seed_slopes(variants: &[&VariantResult]) -> Vec<f64> {
    let mut seeds: Vec<u64> = variants.iter().flat_map(|v| v.seeds.clone()).collect();
    seeds.sort_unstable();
    seeds.dedup();
    seeds
        .iter()
        .filter_map(|seed| {
            let points: Vec<(f64, f64)> = variants
                .iter()
                .filter_map(|v| {
                    seed_errors(v)
                        .into_iter()
                        .find(|(s, _)| s == seed)
                        .map(|(_, e)| (v.params as f64, e))
                })
                .collect();
            log_log_slope(&points)
        })
        .collect()
}
