//! A committed run beside the page's results of the same study: which results files are the
//! same run, which are comparable (same system and preset), and the rows of the side-by-side
//! table (error and relative-to-ONE of each variant, here and committed).

use crate::results_text::error_cell;
use unroll_core::study::data::results::{SeedStat, StudyResults, VariantResult};
use unroll_core::system::config::Preset;

/// Whether `a` and `b` are the same run (same config, wall time and variants): the committed
/// run is the one in every view.
pub fn same_run(a: &StudyResults, b: &StudyResults) -> bool {
    a.wall_secs.to_bits() == b.wall_secs.to_bits()
        && a.variants.len() == b.variants.len()
        && a.config == b.config
}

/// Whether the page's `here` can be set beside the committed `committed`: another run of the
/// same system and grid (`quick` and `paper` train the same variants at two budgets, so a
/// reader's `quick` run sits beside a committed `paper` run).
pub fn comparable(here: &StudyResults, committed: &StudyResults) -> bool {
    let grid = |preset: Preset| match preset {
        Preset::Paper => Preset::Quick,
        other => other,
    };
    here.system() == committed.system()
        && grid(here.preset) == grid(committed.preset)
        && !same_run(here, committed)
}

/// One variant in the side-by-side table (`—` where a side lacks the variant or the value).
#[derive(Debug, Clone, PartialEq)]
pub struct BesideRow {
    /// The table's label: `C-WIG 16×10 m=3`.
    pub variant: String,
    /// The page's error (mean ± std) and relative-to-ONE.
    pub here: [String; 2],
    /// The committed run's.
    pub committed: [String; 2],
}

/// The committed run's variants in its order, then those only the page has; variants are
/// matched by their full identity (mode, modality, architecture, size, horizon).
pub fn beside_rows(here: &StudyResults, committed: &StudyResults) -> Vec<BesideRow> {
    let find = |results: &'_ StudyResults, v: &VariantResult| {
        results
            .variants
            .iter()
            .find(|o| o.id == v.id)
            .map(values)
            .unwrap_or_else(|| ["—".to_string(), "—".to_string()])
    };
    let only_here = here
        .variants
        .iter()
        .filter(|v| !committed.variants.iter().any(|o| o.id == v.id));
    committed
        .variants
        .iter()
        .chain(only_here)
        .map(|v| BesideRow {
            variant: v.id.long_label(),
            here: find(here, v),
            committed: find(committed, v),
        })
        .collect()
}

/// The error (mean ± std) and relative-to-ONE cells of `v`.
fn values(v: &VariantResult) -> [String; 2] {
    let error = error_cell(&v.metrics, " ± ");
    [error, relative(v.relative_to_one.as_ref())]
}

fn relative(ratio: Option<&SeedStat>) -> String {
    ratio.map_or("—".to_string(), |r| {
        format!("{:.3} ± {:.3}", r.mean, r.std)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> StudyResults {
        StudyResults::from_json(include_str!("../../../tests/e2e/fixtures/cli-results.json"))
            .expect("fixture")
    }

    #[test]
    fn same_and_comparable_runs() {
        let committed = fixture();
        assert!(same_run(&committed, &fixture()));
        assert!(
            !comparable(&fixture(), &committed),
            "the same run is not beside itself"
        );
        let mut here = fixture();
        here.wall_secs += 1.0;
        assert!(!same_run(&here, &committed));
        assert!(comparable(&here, &committed));
        let mut paper = fixture();
        paper.preset = Preset::Paper;
        here.preset = Preset::Quick;
        assert!(comparable(&here, &paper), "quick beside the paper budget");
        here.preset = Preset::Sizes;
        assert!(!comparable(&here, &committed), "another grid");
    }

    #[test]
    fn rows_match_variants_by_identity() {
        let committed = fixture();
        let mut here = fixture();
        here.wall_secs += 1.0;
        here.variants.remove(0);
        let mut bigger = here.variants[0].clone();
        bigger.id.channels = 26;
        here.variants.push(bigger);
        here.variants[0].metrics.relative_error.mean = 0.5;
        let rows = beside_rows(&here, &committed);
        assert_eq!(rows.len(), 7);
        assert_eq!(rows[0].variant, "P-ONE 16×10 m=3");
        assert_eq!(rows[0].here, ["—".to_string(), "—".to_string()]);
        assert!(
            rows[0].committed[0].starts_with("2.749e-1 ± "),
            "{:?}",
            rows[0]
        );
        assert!(rows[1].here[0].starts_with("5.000e-1 ± "), "{:?}", rows[1]);
        assert!(
            rows[1].committed[0].starts_with("1.810e-1 ± "),
            "{:?}",
            rows[1]
        );
        assert_eq!(rows[6].variant, "P-NOG 26×10 m=3");
        assert_eq!(rows[6].committed, ["—".to_string(), "—".to_string()]);
    }
}
