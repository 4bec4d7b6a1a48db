//! The results file as it is exported (the page's Export JSON, the CLI's `--out`): the results
//! themselves and, beside them under `judged`, what the table and the verdict line state of
//! them: every ordering the report judges and every variant's ratio to ONE, each with its 95 %
//! interval over seeds and tests ([`super::interval`]) and its verdict (holds, fails, not
//! resolved). Reading a results file ignores `judged`: it is recomputed from the results.

use serde::Serialize;
use serde_json::Value;

use super::interval::RatioInterval;
use super::orderings::{orderings, SEED_LIMIT};
use super::ratio_to_one::ratios_to_one;
use unroll_core::study::data::results::StudyResults;

/// How the intervals are computed, in one line the file carries.
pub const METHOD: &str = "ratio of the means over seeds and tests; 95 % interval of its log: \
    t × sqrt(s²_seeds / n + s²_tests / (n m)), Welch–Satterthwaite degrees of freedom (n seeds, \
    m tests, paired); holds / fails: the interval lies on the claimed / the other side of 1, \
    not resolved: it spans 1 (or one seed)";

/// One judged ratio.
#[derive(Debug, Serialize)]
struct Judged {
    /// What is claimed (`C-NOG ≤ C-ONE`, `C-NOG 16×10 m=3 < ONE`).
    claim: String,
    ratio: f64,
    low95: Option<f64>,
    high95: Option<f64>,
    seeds: usize,
    tests: usize,
    /// `holds`, `fails`, `not resolved`, or the headline's `holds in direction, differs in
    /// size (…)`.
    verdict: String,
    /// Seeds that would likely resolve it at the observed spread, where it is not resolved.
    seeds_to_resolve: Option<usize>,
}

impl Judged {
    fn new(claim: String, interval: &RatioInterval, verdict: String) -> Self {
        Self {
            claim,
            ratio: interval.ratio,
            low95: interval.bounds.map(|b| b.0),
            high95: interval.bounds.map(|b| b.1),
            seeds: interval.seeds,
            tests: interval.tests,
            verdict,
            seeds_to_resolve: interval.seeds_to_resolve(SEED_LIMIT),
        }
    }
}

/// The `judged` block of `results`.
fn judged(results: &StudyResults) -> Value {
    let orderings: Vec<Judged> = orderings(results)
        .iter()
        .filter_map(|o| {
            Some(Judged::new(
                o.claim.clone(),
                o.interval.as_ref()?,
                o.judgement(),
            ))
        })
        .collect();
    let to_one: Vec<Judged> = results
        .variants
        .iter()
        .zip(ratios_to_one(results))
        .filter_map(|(v, r)| {
            let r = r?;
            let claim = format!("{} < ONE", v.id.label());
            Some(Judged::new(
                claim,
                &r.interval,
                r.verdict.words().to_string(),
            ))
        })
        .collect();
    serde_json::json!({
        "method": METHOD,
        "error_horizon": results.config.eval.error_horizon,
        "orderings": orderings,
        "relative_to_one": to_one,
    })
}

/// `results` as JSON with its `judged` block.
pub fn results_json(results: &StudyResults) -> Result<String, serde_json::Error> {
    let mut value = serde_json::to_value(results)?;
    if let Value::Object(map) = &mut value {
        map.insert("judged".into(), judged(results));
    }
    serde_json::to_string(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_export_carries_each_ordering_with_its_interval_and_reads_back_unchanged() {
        let text = include_str!("../../../tests/e2e/fixtures/old-quick-results.json");
        let results = StudyResults::from_json(text).expect("fixture");
        let exported = results_json(&results).expect("export");
        let value: Value = serde_json::from_str(&exported).expect("JSON");
        let judged = &value["judged"];
        let first = &judged["orderings"][0];
        assert_eq!(first["claim"], "C-ONE < P-ONE");
        let (low, high) = (
            first["low95"].as_f64().expect("low"),
            first["high95"].as_f64().expect("high"),
        );
        let ratio = first["ratio"].as_f64().expect("ratio");
        assert!(low < ratio && ratio < high, "{first}");
        let verdict = first["verdict"].as_str().expect("verdict");
        let expected = match (high < 1.0, low > 1.0) {
            (true, _) => "holds",
            (_, true) => "fails",
            _ => "not resolved",
        };
        assert_eq!(verdict, expected);
        assert_eq!(
            judged["orderings"].as_array().expect("list").len(),
            orderings(&results).len()
        );
        let to_one = judged["relative_to_one"].as_array().expect("list");
        assert_eq!(to_one.len(), 4, "NOG and WIG of both modes");
        assert_eq!(judged["error_horizon"], 12);
        // Read back, it is the same results (the block is ignored), and exports the same.
        let back = StudyResults::from_json(&exported).expect("reads back");
        assert_eq!(results_json(&back).expect("export"), exported);
    }
}
