//! The paper's orderings (PAPER.md, "What the study found") checked in one run: correction
//! beats prediction for every modality, WIG ≤ NOG ≤ ONE within each mode, and C-NOG beats P-WIG
//! (the study: ≈ 4.5×, a band of 3–6×). Each is judged on the seeds' mean relative error and on
//! every seed alone, so a reader sees whether the seeds agree. This is the run's one verdict:
//! the table, the verdict line, the CLI's `merge` and the exports all read it, each per mode
//! (never averaged over modes), at the run's error horizon and with its aggregation.

use crate::numerics::study::data::results::{SeedStat, StudyResults, VariantResult};
use crate::numerics::train::{Modality, Mode};

/// The band of C-NOG / P-WIG error ratios counted as the study's "≈ 4.5-fold".
pub const HEADLINE_BAND: (f64, f64) = (3.0, 6.0);

/// One ordering in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordering {
    /// What is claimed (`C-NOG ≤ C-ONE`).
    pub claim: String,
    /// Whether it holds (in direction) on the seeds' mean relative errors.
    pub holds: bool,
    /// `(measured, published)` where it holds in direction but its size is outside the
    /// study's band (the C-NOG / P-WIG factor: `(8.8, 4.5)`).
    pub differs_in_size: Option<(f64, f64)>,
    /// `(seed, holds)` for every seed both sides trained.
    pub per_seed: Vec<(u64, bool)>,
}

impl Ordering {
    /// The judgement: `holds`, `holds in direction, differs in size (8.8× vs 4.5×)` or
    /// `fails`.
    pub fn judgement(&self) -> String {
        match (self.holds, self.differs_in_size) {
            (false, _) => "fails".to_string(),
            (true, None) => "holds".to_string(),
            (true, Some((measured, published))) => {
                format!("holds in direction, differs in size ({measured:.1}× vs {published:.1}×)")
            }
        }
    }

    /// One phrase: `C-NOG ≤ C-ONE holds`, or with the seeds where they disagree
    /// (`… fails (holds for seeds 0, 2; not for 1)`).
    pub fn describe(&self) -> String {
        let verb = self.judgement();
        let seeds = |holds: bool| {
            self.per_seed
                .iter()
                .filter(|(_, h)| *h == holds)
                .map(|(s, _)| s.to_string())
                .collect::<Vec<_>>()
        };
        let (yes, no) = (seeds(true), seeds(false));
        if self.per_seed.len() < 2 || yes.is_empty() || no.is_empty() {
            format!("{} {verb}", self.claim)
        } else {
            format!(
                "{} {verb} (per seed: holds for {}; not for {})",
                self.claim,
                yes.join(", "),
                no.join(", ")
            )
        }
    }
}

/// The variant of `mode` and `modality` when `group` has exactly one.
pub(super) fn only<'r>(
    group: &[&'r VariantResult],
    mode: Mode,
    modality: Modality,
) -> Option<&'r VariantResult> {
    let mut matching = group.iter().filter(|v| v.id.is(mode, modality));
    let first = matching.next()?;
    matching.next().is_none().then_some(*first)
}

/// `judge` applied to each network's variants of `results` (architecture, channels, depth; in
/// the file's order), each ordering's claim prefixed by its network (`8×5: `, `fno 24×4: `)
/// when the run trains several, so a run of several sizes is judged within each size; a run of
/// one network (the headline grids) reads unprefixed.
pub(super) fn per_network(
    results: &StudyResults,
    judge: impl Fn(&[&VariantResult]) -> Vec<Ordering>,
) -> Vec<Ordering> {
    let mut groups: Vec<Vec<&VariantResult>> = Vec::new();
    for v in &results.variants {
        match groups
            .iter_mut()
            .find(|g| g[0].id.network_label() == v.id.network_label())
        {
            Some(group) => group.push(v),
            None => groups.push(vec![v]),
        }
    }
    let several = groups.len() > 1;
    groups
        .iter()
        .flat_map(|group| {
            let mut out = judge(group);
            if several {
                let prefix = format!("{}: ", group[0].id.network_label());
                out.iter_mut().for_each(|o| o.claim.insert_str(0, &prefix));
            }
            out
        })
        .collect()
}

/// One side of an ordering: a measure over seeds, and its seeds (`None` for the baseline, whose
/// one value stands for every seed).
pub(super) struct Side<'a> {
    /// Which seeds `stat.per_seed` holds, in order.
    pub seeds: Option<&'a [u64]>,
    /// The measure.
    pub stat: &'a SeedStat,
}

impl<'a> Side<'a> {
    /// `v`'s relative error.
    fn error(v: &'a VariantResult) -> Self {
        Self {
            seeds: Some(&v.seeds),
            stat: &v.metrics.relative_error,
        }
    }

    /// The value of `seed` (the mean for the baseline).
    fn at(&self, seed: u64) -> Option<f64> {
        match self.seeds {
            None => Some(self.stat.mean),
            Some(seeds) => seeds
                .iter()
                .position(|&s| s == seed)
                .and_then(|i| self.stat.per_seed.get(i).copied()),
        }
    }
}

/// `test(a, b)` on the means and on every seed both sides have.
pub(super) fn judge(
    claim: String,
    a: Side<'_>,
    b: Side<'_>,
    test: impl Fn(f64, f64) -> bool,
) -> Ordering {
    let seeds = a.seeds.or(b.seeds).unwrap_or_default();
    let per_seed = seeds
        .iter()
        .filter_map(|&seed| Some((seed, test(a.at(seed)?, b.at(seed)?))))
        .collect();
    Ordering {
        claim,
        holds: test(a.stat.mean, b.stat.mean),
        differs_in_size: None,
        per_seed,
    }
}

/// `test(a, b)` on the relative errors.
fn compare(
    claim: String,
    a: &VariantResult,
    b: &VariantResult,
    test: impl Fn(f64, f64) -> bool,
) -> Ordering {
    judge(claim, Side::error(a), Side::error(b), test)
}

/// `a` at or below `b` in relative error.
fn at_most(x: f64, y: f64) -> bool {
    x.is_finite() && x <= y
}

/// The orderings this run can show (those whose variants it trained), in the paper's order:
/// C < P per modality, then WIG ≤ NOG and NOG ≤ ONE in each mode, then the C-NOG / P-WIG band;
/// within each network when it trains several ([`per_network`]).
pub fn orderings(results: &StudyResults) -> Vec<Ordering> {
    per_network(results, orderings_of)
}

/// [`orderings`] among the variants of one network.
fn orderings_of(group: &[&VariantResult]) -> Vec<Ordering> {
    let label = |mode: Mode, modality: Modality| format!("{}-{}", mode.letter(), modality.label());
    let mut out = Vec::new();
    for modality in Modality::ALL {
        if let (Some(c), Some(p)) = (
            only(group, Mode::Correct, modality),
            only(group, Mode::Predict, modality),
        ) {
            let claim = format!(
                "{} < {}",
                label(Mode::Correct, modality),
                label(Mode::Predict, modality)
            );
            out.push(compare(claim, c, p, |x, y| x.is_finite() && x < y));
        }
    }
    for mode in [Mode::Predict, Mode::Correct] {
        for (better, worse) in [
            (Modality::Wig, Modality::Nog),
            (Modality::Nog, Modality::One),
        ] {
            if let (Some(a), Some(b)) = (only(group, mode, better), only(group, mode, worse)) {
                let claim = format!("{} ≤ {}", label(mode, better), label(mode, worse));
                out.push(compare(claim, a, b, at_most));
            }
        }
    }
    if let (Some(c_nog), Some(p_wig)) = (
        only(group, Mode::Correct, Modality::Nog),
        only(group, Mode::Predict, Modality::Wig),
    ) {
        out.push(headline(p_wig, c_nog));
    }
    out
}

/// The study's C-NOG / P-WIG factor.
pub const HEADLINE_FACTOR: f64 = 4.5;

/// C-NOG beats P-WIG: in direction when P-WIG's error is above C-NOG's, in size when the
/// factor is inside [`HEADLINE_BAND`].
fn headline(p_wig: &VariantResult, c_nog: &VariantResult) -> Ordering {
    let (low, high) = HEADLINE_BAND;
    let claim = format!("C-NOG beats P-WIG (study ≈ {HEADLINE_FACTOR}×, a band of {low}–{high}×)");
    let mut ordering = compare(claim, p_wig, c_nog, |p, c| c > 0.0 && p > c);
    let factor = p_wig.metrics.relative_error.mean / c_nog.metrics.relative_error.mean;
    if ordering.holds && !(low..=high).contains(&factor) {
        ordering.differs_in_size = Some((factor, HEADLINE_FACTOR));
    }
    ordering
}

/// The run's one verdict: the horizon and aggregation it judged at, how many orderings hold,
/// and each one (`At H = 12 …: 5 of 8 of the paper's orderings hold …`); a run of one seed is
/// told that seeds disagree at reduced budgets; `None` when the run shows none.
pub fn summary_of(results: &StudyResults) -> Option<String> {
    let line = summary(&orderings(results))?;
    Some(format!(
        "At H = {} (relative to ONE as {}), {}",
        results.config.eval.error_horizon,
        results.aggregation.words(),
        line
    ))
}

/// How many orderings hold, and each one (`5 of 6 of the paper's orderings hold: …`); a run of
/// one seed is told that seeds disagree at reduced budgets; `None` when the run shows none.
pub fn summary(orderings: &[Ordering]) -> Option<String> {
    if orderings.is_empty() {
        return None;
    }
    let holding = orderings
        .iter()
        .filter(|o| o.holds && o.differs_in_size.is_none())
        .count();
    let in_direction = orderings
        .iter()
        .filter(|o| o.differs_in_size.is_some())
        .count();
    let direction_note = match in_direction {
        0 => String::new(),
        n => format!(", {n} more in direction only"),
    };
    let each: Vec<String> = orderings.iter().map(Ordering::describe).collect();
    let (over, caveat) = if seeds(orderings) > 1 {
        ("mean over seeds", "")
    } else {
        (
            "one seed",
            " One seed is not enough to judge them: at reduced budgets the seeds of one \
             setting differ in which ordering fails (the book, \"Reproduction\"). Run 3 seeds, \
             or load a committed run of this preset beside this one.",
        )
    };
    Some(format!(
        "{holding} of {} of the paper's orderings hold in this run{direction_note} ({over}): {}.{caveat}",
        orderings.len(),
        each.join("; ")
    ))
}

/// The most seeds any of `orderings` was judged on.
pub(super) fn seeds(orderings: &[Ordering]) -> usize {
    orderings
        .iter()
        .map(|o| o.per_seed.len())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> StudyResults {
        let text = include_str!("../../tests/e2e/fixtures/cli-results.json");
        StudyResults::from_json(text).expect("fixture")
    }

    /// Sets `mode`-`modality`'s per-seed errors (and their mean).
    fn set(results: &mut StudyResults, mode: Mode, modality: Modality, errors: &[f64]) {
        let v = results
            .variants
            .iter_mut()
            .find(|v| v.id.is(mode, modality))
            .expect("variant");
        v.seeds = (0..errors.len() as u64).collect();
        v.metrics.relative_error.per_seed = errors.to_vec();
        v.metrics.relative_error.mean = errors.iter().sum::<f64>() / errors.len() as f64;
    }

    #[test]
    fn every_ordering_is_judged_on_the_mean_and_per_seed() {
        let mut results = fixture();
        for (mode, scale) in [(Mode::Predict, 1.0), (Mode::Correct, 0.1)] {
            set(&mut results, mode, Modality::One, &[3.0 * scale; 3]);
            set(&mut results, mode, Modality::Nog, &[2.0 * scale; 3]);
            set(&mut results, mode, Modality::Wig, &[1.0 * scale; 3]);
        }
        // P-WIG / C-NOG = 1.0 / 0.2 = 5: inside the band.
        let all = orderings(&results);
        assert_eq!(all.len(), 8, "{all:?}");
        assert!(all.iter().all(|o| o.holds), "{all:?}");
        let line = summary(&all).expect("summary");
        assert!(
            line.starts_with("8 of 8 of the paper's orderings hold"),
            "{line}"
        );
        // One bad seed of C-NOG: the mean fails, and the seeds are named.
        set(&mut results, Mode::Correct, Modality::Nog, &[0.2, 1.5, 0.2]);
        let all = orderings(&results);
        let c_nog = all
            .iter()
            .find(|o| o.claim == "C-NOG ≤ C-ONE")
            .expect("C-NOG ≤ C-ONE");
        assert!(!c_nog.holds);
        assert_eq!(c_nog.per_seed, [(0, true), (1, false), (2, true)]);
        assert_eq!(
            c_nog.describe(),
            "C-NOG ≤ C-ONE fails (per seed: holds for 0, 2; not for 1)"
        );
        let band = all.last().expect("band");
        assert!(band.claim.starts_with("C-NOG beats P-WIG (study ≈ 4.5×"));
        // P-WIG / C-NOG = 1 / 0.633 = 1.6: in direction, outside 3–6×.
        assert!(band.holds && band.differs_in_size.is_some());
        assert!(band
            .judgement()
            .starts_with("holds in direction, differs in size (1.6× vs 4.5×)"));
        set(&mut results, Mode::Correct, Modality::Nog, &[2.0, 2.0, 2.0]);
        assert_eq!(
            orderings(&results).last().expect("band").judgement(),
            "fails"
        );
    }

    #[test]
    fn runs_without_both_modes_show_only_what_they_trained() {
        let mut results = fixture();
        results.variants.retain(|v| v.id.mode == Mode::Correct);
        let all = orderings(&results);
        assert!(all.iter().all(|o| o.claim.starts_with("C-")), "{all:?}");
        results.variants.clear();
        assert!(summary(&orderings(&results)).is_none());
    }

    #[test]
    fn a_single_seed_is_told_it_cannot_judge_the_orderings() {
        let mut results = fixture();
        for mode in [Mode::Predict, Mode::Correct] {
            for modality in Modality::ALL {
                set(&mut results, mode, modality, &[1.0]);
            }
        }
        let line = summary(&orderings(&results)).expect("summary");
        assert!(line.contains("in this run (one seed)"), "{line}");
        assert!(line.contains("One seed is not enough"), "{line}");
        set(&mut results, Mode::Correct, Modality::Wig, &[1.0, 1.0]);
        set(&mut results, Mode::Correct, Modality::Nog, &[1.0, 1.0]);
        let line = summary(&orderings(&results)).expect("summary");
        assert!(
            line.contains("(mean over seeds)") && !line.contains("One seed"),
            "{line}"
        );
    }

    /// A run of two sizes is judged within each size, each claim named by its network.
    #[test]
    fn a_run_of_several_sizes_is_judged_within_each() {
        let mut results = fixture();
        results.variants.retain(|v| v.id.mode == Mode::Correct);
        for (modality, error) in [
            (Modality::One, 3.0),
            (Modality::Nog, 2.0),
            (Modality::Wig, 1.0),
        ] {
            set(&mut results, Mode::Correct, modality, &[error]);
        }
        assert_eq!(
            orderings(&results)
                .iter()
                .map(|o| o.claim.as_str())
                .collect::<Vec<_>>(),
            ["C-WIG ≤ C-NOG", "C-NOG ≤ C-ONE"]
        );
        let mut bigger: Vec<VariantResult> = results.variants.clone();
        for v in &mut bigger {
            v.id.channels = 26;
            v.id.depth = 8;
            // The larger ONE is the best of its size: WIG ≤ NOG holds, NOG ≤ ONE fails.
            if v.id.modality == Modality::One {
                v.metrics.relative_error.per_seed = vec![0.5];
                v.metrics.relative_error.mean = 0.5;
            }
        }
        results.variants.extend(bigger);
        let all = orderings(&results);
        let described: Vec<String> = all.iter().map(Ordering::describe).collect();
        assert_eq!(
            described,
            [
                "16×10: C-WIG ≤ C-NOG holds",
                "16×10: C-NOG ≤ C-ONE holds",
                "26×8: C-WIG ≤ C-NOG holds",
                "26×8: C-NOG ≤ C-ONE fails"
            ]
        );
    }
}
