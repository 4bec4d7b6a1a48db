//! Log axes that always show ticks: whole-decade bounds, 1-2-5 key points over short ranges,
//! labels on the nice values only.

use plotters::coord::combinators::WithKeyPoints;
use plotters::prelude::*;

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
    use super::*;

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
