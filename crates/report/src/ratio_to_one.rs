//! Each variant's ratio to ONE (the ONE of its mode and network, as `relative_to_one` pairs
//! them) with its 95 % interval over seeds and tests and the verdict on "better than ONE"
//! ([`super::interval`]): the results table, the charts' error bars and the CSV read it.

use super::interval::{RatioInterval, Verdict};
use super::orderings::{judge, Side, TestScores};
use unroll_core::study::data::results::{SeedStat, StudyResults, VariantId};
use unroll_core::train::Modality;

/// A variant's ratio to ONE, judged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioToOne {
    /// The ratio of the seeds' means with its interval.
    pub interval: RatioInterval,
    /// Whether it is below 1 (better than ONE), above, or not resolved.
    pub verdict: Verdict,
}

/// One entry per variant of `results`, in order: `None` for ONE itself, a variant with no ONE
/// of its mode and network, or values that are not positive and finite.
pub fn ratios_to_one(results: &StudyResults) -> Vec<Option<RatioToOne>> {
    let tests = TestScores::of(results);
    results
        .variants
        .iter()
        .map(|v| {
            if v.id.modality == Modality::One {
                return None;
            }
            let one_id = VariantId {
                modality: Modality::One,
                ..v.id
            };
            let one = results.variants.iter().find(|o| o.id == one_id)?;
            let judged = judge(
                String::new(),
                Side::error(v, &tests),
                Side::error(one, &tests),
                true,
                |a, b| a <= b,
            );
            Some(RatioToOne {
                interval: judged.interval?,
                verdict: judged.verdict,
            })
        })
        .collect()
}

/// The table's "relative to ONE" cell: `0.944 ± 0.110 (95 % 0.77–1.15)` (the mean ± std of
/// `relative_to_one`, then the interval where there is one); `—` for ONE.
pub fn relative_cell(
    stat: Option<&SeedStat>,
    ratio: Option<&RatioToOne>,
    separator: &str,
) -> String {
    let Some(stat) = stat else {
        return "—".to_string();
    };
    let interval = ratio
        .and_then(|r| r.interval.bounds)
        .map_or(String::new(), |(low, high)| {
            format!(" (95 % {low:.2}–{high:.2})")
        });
    format!("{:.3}{separator}{:.3}{interval}", stat.mean, stat.std)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CLI fixture's ratios are its `relative_to_one` means, ONE has none, and one seed
    /// resolves nothing.
    #[test]
    fn each_variant_is_set_beside_its_one() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let results = StudyResults::from_json(text).expect("fixture");
        let ratios = ratios_to_one(&results);
        assert_eq!(ratios.len(), results.variants.len());
        for (v, r) in results.variants.iter().zip(&ratios) {
            match (&v.relative_to_one, r) {
                (Some(stat), Some(r)) => {
                    assert!(
                        (stat.mean - r.interval.ratio).abs() < 1e-9,
                        "{}",
                        v.id.label()
                    );
                    assert_eq!(r.verdict, Verdict::NotResolved);
                }
                (None, None) => assert_eq!(relative_cell(None, None, " ± "), "—"),
                (stat, r) => panic!("{}: {stat:?} against {r:?}", v.id.label()),
            }
        }
    }
}
