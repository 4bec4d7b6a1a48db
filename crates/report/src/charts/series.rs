//! The series of a results chart: unique legend names for the variants and the entries (each
//! variant, then the baseline) with their names, colours and metrics.

use crate::system_words::SystemWords;
use plotters::style::RGBColor;

use super::palette::{variant_colors, BASELINE_COLOR};
use unroll_core::study::data::results::{Metrics, StudyResults, VariantResult};

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
            name: results.facts().baseline.name.to_string(),
            color: BASELINE_COLOR,
            metrics: &results.baseline,
            variant: None,
        }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{fixture, sizes_fixture};
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
}
