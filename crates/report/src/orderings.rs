//! The paper's orderings (the book's "The study", "Headline results") checked in one run:
//! correction beats prediction for every modality, WIG ≤ NOG ≤ ONE within each mode, and C-NOG
//! beats P-WIG (the study: ≈ 4.5×, a band of 3–6×). Each is judged by the ratio of the seeds'
//! mean relative errors with its 95 % interval over seeds and tests
//! ([`super::interval::RatioInterval`]): it **holds** where the interval lies on the claimed
//! side of 1, **fails** on the other side, and is **not resolved** where it spans 1 (or the run
//! has one seed); every seed alone is shown too. This is the run's one verdict:
//! the table, the verdict line, the CLI's `merge` and the exports all read it, each per mode
//! (never averaged over modes), at the run's error horizon and with its aggregation.

use super::interval::{RatioInterval, Verdict};
use unroll_core::metrics::errors_at_horizon;
use unroll_core::study::data::results::{Metrics, SeedStat, StudyResults, VariantResult};
use unroll_core::train::{Modality, Mode};

/// The most seeds a "would resolve it" estimate looks for.
pub const SEED_LIMIT: usize = 100;

/// The band of C-NOG / P-WIG error ratios counted as the study's "≈ 4.5-fold".
pub const HEADLINE_BAND: (f64, f64) = (3.0, 6.0);

/// One ordering in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordering {
    /// What is claimed (`C-NOG ≤ C-ONE`).
    pub claim: String,
    /// Whether it holds in direction on the seeds' means (the point estimate).
    pub holds: bool,
    /// The ratio of the two sides' means (the claim's first side over its second) with its
    /// 95 % interval; `None` where the values are not positive and finite (a diverged seed).
    pub interval: Option<RatioInterval>,
    /// Holds, fails or not resolved, from the interval.
    pub verdict: Verdict,
    /// `(measured, published)` where it holds in direction but its size is outside the
    /// study's band (the C-NOG / P-WIG factor: `(8.8, 4.5)`).
    pub differs_in_size: Option<(f64, f64)>,
    /// `(seed, holds)` for every seed both sides trained.
    pub per_seed: Vec<(u64, bool)>,
}

impl Ordering {
    /// The judgement: `holds`, `fails`, `not resolved`, or `holds in direction, differs in
    /// size (8.8× vs 4.5×)`.
    pub fn judgement(&self) -> String {
        match (self.verdict, self.differs_in_size) {
            (Verdict::Holds, Some((measured, published))) => {
                format!("holds in direction, differs in size ({measured:.1}× vs {published:.1}×)")
            }
            (verdict, _) => verdict.words().to_string(),
        }
    }

    /// Whether it holds in full (resolved, and in size where a size is claimed).
    pub fn holds_fully(&self) -> bool {
        self.verdict == Verdict::Holds && self.differs_in_size.is_none()
    }

    /// The ratio with its interval and, where not resolved, what would resolve it:
    /// `0.944, 95 % 0.90–0.99`, `0.950, 95 % 0.87–1.11; ≈ 14 seeds would resolve it`,
    /// `1.21, one seed: no interval`.
    pub fn evidence(&self) -> Option<String> {
        let interval = self.interval.as_ref()?;
        let ratio = format!("{:.3}", interval.ratio);
        let Some((low, high)) = interval.bounds else {
            return Some(format!("{ratio}, one seed: no interval"));
        };
        let mut text = format!("{ratio}, 95 % {low:.2}–{high:.2}");
        if self.verdict == Verdict::NotResolved {
            text.push_str(&match interval.seeds_to_resolve(SEED_LIMIT) {
                Some(n) => format!("; ≈ {n} seeds would resolve it"),
                None if interval.tests_alone_span_one() => {
                    "; more seeds alone would not resolve it (the test cases' spread spans 1)"
                        .to_string()
                }
                None => format!("; not within {SEED_LIMIT} seeds at this spread"),
            });
        }
        Some(text)
    }

    /// One phrase: `C-NOG ≤ C-ONE holds (0.944, 95 % 0.90–0.99)`, with the seeds where they
    /// disagree (`… (per seed: holds for 0, 2; not for 1)`).
    pub fn describe(&self) -> String {
        let verb = match self.evidence() {
            Some(evidence) => format!("{} ({evidence})", self.judgement()),
            None => self.judgement(),
        };
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
pub struct Side<'a> {
    /// Which seeds `stat.per_seed` holds, in order.
    pub seeds: Option<&'a [u64]>,
    /// The measure.
    pub stat: &'a SeedStat,
    /// Its values `[seed][test]` in the order of `seeds` (one row for the baseline; one value
    /// per row, the seed's mean, where the file keeps no per-test values).
    pub values: Vec<Vec<f64>>,
}

impl<'a> Side<'a> {
    /// `v`'s relative error, per test where `tests` can score them.
    pub fn error(v: &'a VariantResult, tests: &TestScores) -> Self {
        Self {
            seeds: Some(&v.seeds),
            stat: &v.metrics.relative_error,
            values: tests.values(&v.metrics),
        }
    }

    /// The baseline's relative error (its one row stands for every seed).
    pub fn baseline_error(baseline: &'a Metrics, tests: &TestScores) -> Self {
        let mut values = tests.values(baseline);
        values.truncate(1);
        if values.is_empty() {
            values.push(vec![baseline.relative_error.mean]);
        }
        Self {
            seeds: None,
            stat: &baseline.relative_error,
            values,
        }
    }

    /// `stat`'s per-seed values as rows of one value each.
    pub fn seed_means(seeds: Option<&'a [u64]>, stat: &'a SeedStat) -> Self {
        let values = match seeds {
            Some(_) => stat.per_seed.iter().map(|v| vec![*v]).collect(),
            None => vec![vec![stat.mean]],
        };
        Self {
            seeds,
            stat,
            values,
        }
    }

    /// The row of `seed` (the baseline's one row for every seed).
    fn row(&self, seed: u64) -> Option<&[f64]> {
        match self.seeds {
            None => self.values.first().map(Vec::as_slice),
            Some(seeds) => seeds
                .iter()
                .position(|&s| s == seed)
                .and_then(|i| self.values.get(i))
                .map(Vec::as_slice),
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

/// Every test's relative error at the results' horizon, scored from the per-test curves the
/// file keeps (the baseline's peaks), or nothing where it keeps none.
pub struct TestScores {
    peaks: Vec<Vec<f32>>,
    horizon: usize,
}

impl TestScores {
    /// The scores of `results`.
    pub fn of(results: &StudyResults) -> Self {
        let peaks = results
            .baseline
            .test_peaks
            .iter()
            .map(|p| p.to_f32s().ok())
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        Self {
            peaks,
            horizon: results.config.eval.error_horizon,
        }
    }

    /// `metrics`' relative errors `[seed][test]`, or `[seed][mean]` where its curves are not
    /// there (or do not decode, or do not match the tests).
    fn values(&self, metrics: &Metrics) -> Vec<Vec<f64>> {
        let scored: Option<Vec<Vec<f64>>> = (!self.peaks.is_empty()
            && !metrics.test_errors.is_empty())
        .then(|| {
            metrics
                .test_errors
                .iter()
                .map(|seed| {
                    (seed.len() == self.peaks.len()).then_some(())?;
                    seed.iter()
                        .zip(&self.peaks)
                        .map(|(curve, peak)| {
                            let mse = curve.to_f32s().ok()?;
                            Some(errors_at_horizon(&mse, peak, self.horizon).0)
                        })
                        .collect()
                })
                .collect()
        })
        .flatten();
        scored.unwrap_or_else(|| {
            metrics
                .relative_error
                .per_seed
                .iter()
                .map(|v| vec![*v])
                .collect()
        })
    }
}

/// Values `[seed][test]`.
type Rows = Vec<Vec<f64>>;

/// The two sides' rows of every seed both have, in the first side's order, with as many values
/// each (per-seed means on both where one side keeps no per-test values).
fn paired(a: &Side<'_>, b: &Side<'_>) -> Option<(Rows, Rows)> {
    let seeds = a.seeds.or(b.seeds)?;
    let rows: Vec<(&[f64], &[f64])> = seeds
        .iter()
        .filter_map(|&seed| Some((a.row(seed)?, b.row(seed)?)))
        .collect();
    let same_tests = rows.iter().all(|(x, y)| x.len() == y.len());
    let mean = |row: &[f64]| vec![row.iter().sum::<f64>() / row.len().max(1) as f64];
    Some(
        rows.into_iter()
            .map(|(x, y)| {
                if same_tests {
                    (x.to_vec(), y.to_vec())
                } else {
                    (mean(x), mean(y))
                }
            })
            .unzip(),
    )
}

/// `test(a, b)` on the means and on every seed both sides have, and the verdict of the claim
/// that `a / b` is below 1 (`below`) or above it.
pub fn judge(
    claim: String,
    a: Side<'_>,
    b: Side<'_>,
    below: bool,
    test: impl Fn(f64, f64) -> bool,
) -> Ordering {
    let seeds = a.seeds.or(b.seeds).unwrap_or_default();
    let per_seed = seeds
        .iter()
        .filter_map(|&seed| Some((seed, test(a.at(seed)?, b.at(seed)?))))
        .collect();
    let interval = paired(&a, &b).and_then(|(x, y)| RatioInterval::of(&x, &y));
    Ordering {
        claim,
        holds: test(a.stat.mean, b.stat.mean),
        interval,
        verdict: interval.map_or(Verdict::NotResolved, |i| Verdict::of(&i, below)),
        differs_in_size: None,
        per_seed,
    }
}

/// `test(a, b)` on the relative errors; the claim is that `a`'s is the lower one (`below`).
fn compare(
    claim: String,
    (a, b): (&VariantResult, &VariantResult),
    tests: &TestScores,
    below: bool,
    test: impl Fn(f64, f64) -> bool,
) -> Ordering {
    judge(
        claim,
        Side::error(a, tests),
        Side::error(b, tests),
        below,
        test,
    )
}

/// `a` at or below `b` in relative error.
fn at_most(x: f64, y: f64) -> bool {
    x.is_finite() && x <= y
}

/// The orderings this run can show (those whose variants it trained), in the paper's order:
/// C < P per modality, then WIG ≤ NOG and NOG ≤ ONE in each mode, then the C-NOG / P-WIG band;
/// within each network when it trains several (`per_network`).
pub fn orderings(results: &StudyResults) -> Vec<Ordering> {
    let tests = TestScores::of(results);
    per_network(results, |group| orderings_of(group, &tests))
}

/// [`orderings`] among the variants of one network.
fn orderings_of(group: &[&VariantResult], tests: &TestScores) -> Vec<Ordering> {
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
            out.push(compare(claim, (c, p), tests, true, |x, y| {
                x.is_finite() && x < y
            }));
        }
    }
    for mode in [Mode::Predict, Mode::Correct] {
        for (better, worse) in [
            (Modality::Wig, Modality::Nog),
            (Modality::Nog, Modality::One),
        ] {
            if let (Some(a), Some(b)) = (only(group, mode, better), only(group, mode, worse)) {
                let claim = format!("{} ≤ {}", label(mode, better), label(mode, worse));
                out.push(compare(claim, (a, b), tests, true, at_most));
            }
        }
    }
    if let (Some(c_nog), Some(p_wig)) = (
        only(group, Mode::Correct, Modality::Nog),
        only(group, Mode::Predict, Modality::Wig),
    ) {
        out.push(headline(p_wig, c_nog, tests));
    }
    out
}

/// The study's C-NOG / P-WIG factor.
pub const HEADLINE_FACTOR: f64 = 4.5;

/// C-NOG beats P-WIG: in direction when P-WIG's error is above C-NOG's, in size unless the
/// factor's 95 % interval lies outside [`HEADLINE_BAND`].
fn headline(p_wig: &VariantResult, c_nog: &VariantResult, tests: &TestScores) -> Ordering {
    let (low, high) = HEADLINE_BAND;
    let claim = format!("C-NOG beats P-WIG (study ≈ {HEADLINE_FACTOR}×, a band of {low}–{high}×)");
    let mut ordering = compare(claim, (p_wig, c_nog), tests, false, |p, c| c > 0.0 && p > c);
    let factor = p_wig.metrics.relative_error.mean / c_nog.metrics.relative_error.mean;
    // Outside the band: the whole interval where there is one, else the factor itself.
    let outside = match ordering.interval.and_then(|i| i.bounds) {
        Some((from, to)) => to < low || from > high,
        None => !(low..=high).contains(&factor),
    };
    if ordering.holds && outside {
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
    let direction_note = tally(orderings);
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
        "of the paper's {} orderings, {direction_note} in this run ({over}, 95 % intervals over seeds and tests): {}.{caveat}",
        orderings.len(),
        each.join("; ")
    ))
}

/// `5 hold, 1 in direction only, 2 not resolved, 0 fail`: the verdicts counted.
pub(super) fn tally(orderings: &[Ordering]) -> String {
    let count = |verdict: Verdict| orderings.iter().filter(|o| o.verdict == verdict).count();
    let in_direction = orderings
        .iter()
        .filter(|o| o.verdict == Verdict::Holds && o.differs_in_size.is_some())
        .count();
    let holding = count(Verdict::Holds) - in_direction;
    let mut parts = vec![format!("{holding} hold")];
    if in_direction > 0 {
        parts.push(format!("{in_direction} in direction only"));
    }
    parts.push(format!("{} not resolved", count(Verdict::NotResolved)));
    parts.push(format!("{} fail", count(Verdict::Fails)));
    parts.join(", ")
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
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
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
        v.metrics.test_errors.clear();
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
            line.starts_with(
                "of the paper's 8 orderings, 8 hold, 0 not resolved, 0 fail in this run"
            ),
            "{line}"
        );
        // One bad seed of C-NOG: the mean fails in direction, the seeds disagree too much to
        // resolve it, and they are named.
        set(&mut results, Mode::Correct, Modality::Nog, &[0.2, 1.5, 0.2]);
        let all = orderings(&results);
        let c_nog = all
            .iter()
            .find(|o| o.claim == "C-NOG ≤ C-ONE")
            .expect("C-NOG ≤ C-ONE");
        assert!(!c_nog.holds);
        assert_eq!(c_nog.verdict, Verdict::NotResolved);
        assert_eq!(c_nog.per_seed, [(0, true), (1, false), (2, true)]);
        let described = c_nog.describe();
        assert!(
            described.starts_with("C-NOG ≤ C-ONE not resolved (2.111, 95 % "),
            "{described}"
        );
        assert!(
            described.ends_with("(per seed: holds for 0, 2; not for 1)"),
            "{described}"
        );
        // Seeds that agree: P-WIG / C-NOG = 1 / 0.6 = 1.7, its interval outside 3–6×.
        set(&mut results, Mode::Correct, Modality::Nog, &[0.6, 0.6, 0.6]);
        let all = orderings(&results);
        let band = all.last().expect("band");
        assert!(band.claim.starts_with("C-NOG beats P-WIG (study ≈ 4.5×"));
        assert!(band.holds && band.differs_in_size.is_some());
        assert!(band
            .judgement()
            .starts_with("holds in direction, differs in size (1.7× vs 4.5×)"));
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
        assert!(
            line.contains("8 not resolved, 0 fail in this run (one seed,"),
            "{line}"
        );
        assert!(line.contains("One seed is not enough"), "{line}");
        set(&mut results, Mode::Correct, Modality::Wig, &[1.0, 1.0]);
        set(&mut results, Mode::Correct, Modality::Nog, &[1.0, 1.0]);
        let line = summary(&orderings(&results)).expect("summary");
        assert!(
            line.contains("(mean over seeds,") && !line.contains("One seed"),
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
            set(&mut results, Mode::Correct, modality, &[error; 3]);
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
                v.metrics.relative_error.per_seed = vec![0.5; 3];
                v.metrics.relative_error.mean = 0.5;
            }
        }
        results.variants.extend(bigger);
        let all = orderings(&results);
        let described: Vec<String> = all.iter().map(Ordering::describe).collect();
        assert_eq!(
            described,
            [
                "16×10: C-WIG ≤ C-NOG holds (0.500, 95 % 0.50–0.50)",
                "16×10: C-NOG ≤ C-ONE holds (0.667, 95 % 0.67–0.67)",
                "26×8: C-WIG ≤ C-NOG holds (0.500, 95 % 0.50–0.50)",
                "26×8: C-NOG ≤ C-ONE fails (4.000, 95 % 4.00–4.00)"
            ]
        );
    }
}
