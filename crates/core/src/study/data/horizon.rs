//! A finished study re-scored at another error horizon, exactly: every variant's and the
//! baseline's relative and L2 errors recomputed from the per-test curves the results keep
//! ([`Metrics::test_errors`], the baseline's [`Metrics::test_peaks`]) with
//! [`errors_at_horizon`], then relative to ONE again. The paper's horizon is 12 network steps;
//! any `1 ≤ H ≤` the evaluation rollout is a lens on the same rollouts.

use super::results::{relative_to_one, Metrics, SeedStat, StudyResults};
use crate::metrics::errors_at_horizon;
use crate::types::packed::Packed;

/// Why a results file cannot be re-scored at a horizon.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HorizonError {
    /// Written before results kept every test, or by a system whose metric has no horizon.
    #[error("these results keep no per-test error curves (older file, or a system whose metric covers the whole rollout): re-run the study to re-score it at another horizon")]
    NoCurves,
    /// Outside the evaluated rollout.
    #[error("horizon {horizon} is outside 1..={longest} (the evaluation rollout)")]
    OutOfRange {
        /// Asked for.
        horizon: usize,
        /// The longest the curves allow.
        longest: usize,
    },
    /// A packed curve that does not decode.
    #[error("a per-test curve is malformed: {0}")]
    Malformed(String),
}

/// Unpacks every curve of `packed`.
fn unpack(packed: &[Packed]) -> Result<Vec<Vec<f32>>, HorizonError> {
    packed
        .iter()
        .map(|p| p.to_f32s().map_err(HorizonError::Malformed))
        .collect()
}

impl StudyResults {
    /// The longest horizon the kept curves allow (frames − 1), if every variant and the
    /// baseline keep them.
    pub fn longest_horizon(&self) -> Option<usize> {
        let peaks = &self.baseline.test_peaks;
        let kept = |m: &Metrics| !m.test_errors.is_empty() || m.relative_error.per_seed.is_empty();
        if peaks.is_empty() || !self.variants.iter().all(|v| kept(&v.metrics)) {
            return None;
        }
        let frames = peaks.iter().map(|p| p.bytes() / 4).min()?;
        Some(frames.saturating_sub(1))
    }

    /// These results with every relative and L2 error re-scored at `horizon` (and the study's
    /// `error_horizon` set to it, so every view names the horizon it judged at).
    pub fn at_horizon(&self, horizon: usize) -> Result<StudyResults, HorizonError> {
        let longest = self.longest_horizon().ok_or(HorizonError::NoCurves)?;
        if horizon == 0 || horizon > longest {
            return Err(HorizonError::OutOfRange { horizon, longest });
        }
        let peaks = unpack(&self.baseline.test_peaks)?;
        let mut results = self.clone();
        results.config.eval.error_horizon = horizon;
        rescore(&mut results.baseline, &peaks, horizon)?;
        for variant in &mut results.variants {
            rescore(&mut variant.metrics, &peaks, horizon)?;
        }
        relative_to_one(&mut results.variants);
        Ok(results.with_aggregation(self.aggregation))
    }
}

/// `metrics`' relative and L2 errors at `horizon`: per seed the mean over its tests.
fn rescore(metrics: &mut Metrics, peaks: &[Vec<f32>], horizon: usize) -> Result<(), HorizonError> {
    let mut relative = Vec::with_capacity(metrics.test_errors.len());
    let mut l2 = Vec::with_capacity(metrics.test_errors.len());
    for seed in &metrics.test_errors {
        let curves = unpack(seed)?;
        if curves.len() != peaks.len() {
            return Err(HorizonError::Malformed(format!(
                "{} test curves for {} tests",
                curves.len(),
                peaks.len()
            )));
        }
        let scores: Vec<(f64, f64)> = curves
            .iter()
            .zip(peaks)
            .map(|(mse, peak)| errors_at_horizon(mse, peak, horizon))
            .collect();
        let count = scores.len().max(1) as f64;
        relative.push(scores.iter().map(|s| s.0).sum::<f64>() / count);
        l2.push(scores.iter().map(|s| s.1).sum::<f64>() / count);
    }
    metrics.relative_error = SeedStat::from_values(relative);
    metrics.l2 = SeedStat::from_values(l2);
    Ok(())
}
