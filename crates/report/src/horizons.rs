//! The paper's ratios against the error horizon: for each H the results re-scored exactly
//! ([`StudyResults::at_horizon`]) and the C-NOG / P-WIG factor and every NOG / ONE and
//! WIG / ONE (ratio of means, per mode). The paper judges at H = 12; the lens shows where a
//! difference in size appears.

use super::interval::Verdict;
use super::ratio_to_one::ratios_to_one;
use unroll_core::study::data::horizon::HorizonError;
use unroll_core::study::data::results::StudyResults;
use unroll_core::train::{Modality, Mode};

/// The ratios of one horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct HorizonRow {
    /// The error horizon H.
    pub horizon: usize,
    /// P-WIG error / C-NOG error (the study: ≈ 4.5).
    pub p_wig_over_c_nog: Option<f64>,
    /// `(mode, modality, ratio over ONE)` for every NOG and WIG variant with a ONE
    /// ([`ratio_label`] names one).
    pub relative_to_one: Vec<(Mode, Modality, f64)>,
    /// The verdict on "better than ONE" of each of `relative_to_one`, from its 95 % interval
    /// over seeds and tests ([`crate::ratio_to_one`]; not resolved where there is none).
    pub verdicts: Vec<Verdict>,
    /// The coarse solver's relative error.
    pub baseline: f64,
}

/// The name of a ratio over ONE: `C-NOG / ONE`.
pub fn ratio_label(mode: Mode, modality: Modality) -> String {
    format!("{}-{} / ONE", mode.letter(), modality.label())
}

/// The rows at each of `horizons`.
pub fn horizon_rows(
    results: &StudyResults,
    horizons: &[usize],
) -> Result<Vec<HorizonRow>, HorizonError> {
    horizons
        .iter()
        .map(|&horizon| {
            let at = results.at_horizon(horizon)?;
            let judged = ratios_to_one(&at);
            let (relative_to_one, verdicts) = [Mode::Correct, Mode::Predict]
                .into_iter()
                .flat_map(|mode| [(mode, Modality::Nog), (mode, Modality::Wig)])
                .filter_map(|(mode, modality)| {
                    let variant = at.find(mode, modality)?;
                    let ratio = variant.relative_to_one.as_ref()?.mean;
                    let index = at.variants.iter().position(|v| v.id == variant.id)?;
                    let verdict = judged[index].map_or(Verdict::NotResolved, |r| r.verdict);
                    Some(((mode, modality, ratio), verdict))
                })
                .unzip();
            Ok(HorizonRow {
                horizon,
                p_wig_over_c_nog: at.c_nog_over_p_wig(),
                relative_to_one,
                verdicts,
                baseline: at.baseline.relative_error.mean,
            })
        })
        .collect()
}

/// The horizons a lens shows by default: 1–16 every step, then every 4th to 40, then every
/// 20th, up to `longest`.
pub fn default_horizons(longest: usize) -> Vec<usize> {
    (1..=16)
        .chain((20..=40).step_by(4))
        .chain((60..).step_by(20).take_while(|&h| h <= 200))
        .filter(|&h| h <= longest)
        .collect()
}

/// A plain-text table of `rows` (the CLI's `horizons`).
pub fn horizon_table(rows: &[HorizonRow]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let labels: Vec<String> = first
        .relative_to_one
        .iter()
        .map(|&(mode, modality, _)| ratio_label(mode, modality))
        .collect();
    let mut out = format!("{:>4} {:>11} {:>14}", "H", "baseline", "P-WIG/C-NOG");
    for label in &labels {
        out.push_str(&format!(" {label:>12}"));
    }
    out.push('\n');
    for row in rows {
        let factor = row
            .p_wig_over_c_nog
            .map_or("—".into(), |f| format!("{f:.2}×"));
        out.push_str(&format!(
            "{:>4} {:>11.4} {factor:>14}",
            row.horizon, row.baseline
        ));
        for ((_, _, ratio), verdict) in row.relative_to_one.iter().zip(&row.verdicts) {
            out.push_str(&format!(" {ratio:>10.3} {}", mark(*verdict)));
        }
        out.push('\n');
    }
    out.push_str(
        "\nafter each ratio over ONE, its verdict on \"better than ONE\" from the 95 % interval over \
         seeds and tests: + holds, - fails, ? not resolved\n",
    );
    out
}

/// A verdict in one character: `+` holds, `-` fails, `?` not resolved.
fn mark(verdict: Verdict) -> char {
    match verdict {
        Verdict::Holds => '+',
        Verdict::Fails => '-',
        Verdict::NotResolved => '?',
    }
}

/// Every test's relative error at the results' own horizon, per variant then the baseline:
/// `(index into results.variants or None for the baseline, errors of every test of every
/// seed)`. Empty when the file keeps no per-test curves.
pub fn per_test_errors(results: &StudyResults) -> Vec<(Option<usize>, Vec<f64>)> {
    let horizon = results.config.eval.error_horizon;
    let Some(peaks) = results
        .baseline
        .test_peaks
        .iter()
        .map(|p| p.to_f32s().ok())
        .collect::<Option<Vec<Vec<f32>>>>()
        .filter(|p| !p.is_empty())
    else {
        return Vec::new();
    };
    let scores = |metrics: &unroll_core::study::data::results::Metrics| -> Vec<f64> {
        metrics
            .test_errors
            .iter()
            .flatten()
            .zip(peaks.iter().cycle())
            .filter_map(|(curve, peak)| {
                let mse = curve.to_f32s().ok()?;
                Some(unroll_core::metrics::errors_at_horizon(&mse, peak, horizon).0)
            })
            .collect()
    };
    results
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| (Some(i), scores(&v.metrics)))
        .chain(std::iter::once((None, scores(&results.baseline))))
        .filter(|(_, errors)| !errors.is_empty())
        .collect()
}
