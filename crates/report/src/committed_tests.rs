//! The committed-runs index and its checker, on the CLI's results fixture and a plan made from
//! its config, then doctored.

use super::*;
use crate::interval::Verdict;
use unroll_core::system::System;

const FIXTURE: &str = include_str!("../../../tests/e2e/fixtures/cli-results.json");

fn run(claims: &[(&str, &str)]) -> CommittedRun {
    CommittedRun {
        id: "ks-quick".into(),
        title: "KS headline, quick budget".into(),
        results: "ks-quick/results.json".into(),
        plan: "ks-quick/plan.json".into(),
        commit: "532c7e3".into(),
        budget: "quick budget: 20 iterations".into(),
        seeds: 1,
        claims: claims
            .iter()
            .map(|(better, worse)| Claim {
                better: (*better).into(),
                worse: (*worse).into(),
                by: ClaimMetric::RelativeError,
                expect: Verdict::NotResolved,
            })
            .collect(),
    }
}

/// The plan of the fixture's study, as `unroll-lab study plan` writes it.
fn plan_text() -> String {
    let results = StudyResults::from_json(FIXTURE).expect("fixture");
    let plan = StudyPlan::new(results.config, System::description, None).expect("plan");
    serde_json::to_string_pretty(&plan).expect("json")
}

fn index_text(runs: &[CommittedRun]) -> String {
    serde_json::to_string(&CommittedIndex {
        schema: COMMITTED_SCHEMA.into(),
        runs: runs.to_vec(),
    })
    .expect("json")
}

#[test]
fn an_empty_index_parses() {
    let index = CommittedIndex::from_json(r#"{"schema": "unroll-lab/committed@1", "runs": []}"#)
        .expect("empty index");
    assert!(index.runs.is_empty());
    let text = index_text(&[run(&[("P-WIG", "P-ONE")])]);
    assert_eq!(
        CommittedIndex::from_json(&text).expect("one run").runs,
        vec![run(&[("P-WIG", "P-ONE")])]
    );
}

#[test]
fn malformed_indexes_are_refused_with_a_reason() {
    let err = CommittedIndex::from_json("[").expect_err("not JSON");
    assert!(
        err.to_string().starts_with("not a committed-runs index"),
        "{err}"
    );
    let err = CommittedIndex::from_json(r#"{"schema": "unroll-lab/results@1", "runs": []}"#)
        .expect_err("schema");
    assert!(
        err.to_string()
            .contains("unsupported committed-runs schema"),
        "{err}"
    );
    let err =
        CommittedIndex::from_json(r#"{"schema": "unroll-lab/committed@1"}"#).expect_err("no runs");
    assert!(err.to_string().contains("missing field `runs`"), "{err}");
    let doctored = |edit: &dyn Fn(&mut CommittedRun)| {
        let mut r = run(&[]);
        edit(&mut r);
        CommittedIndex::from_json(&index_text(&[r]))
            .expect_err("doctored")
            .to_string()
    };
    assert!(doctored(&|r| r.id = "../up".into()).contains("folder name"));
    assert!(doctored(&|r| r.results = "other/results.json".into()).contains("run's folder"));
    assert!(doctored(&|r| r.plan = "ks-quick/plan.json.gz".into()).contains(".json file"));
    // The site's gzipped copy of the results is a results file.
    let mut gzipped = run(&[]);
    gzipped.results = "ks-quick/results.json.gz".into();
    CommittedIndex::from_json(&index_text(&[gzipped])).expect("the site's index");
    assert!(doctored(&|r| r.plan = "ks-quick/../../x.json".into()).contains("run's folder"));
    assert!(doctored(&|r| r.commit = "HEAD".into()).contains("not a hex hash"));
    assert!(doctored(&|r| r.seeds = 0).contains("at least one seed"));
    assert!(doctored(&|r| r.budget = " ".into()).contains("must not be empty"));
    let err = doctored(&|r| {
        r.claims = vec![Claim {
            better: "C-WIG".into(),
            worse: "C-WIG".into(),
            by: ClaimMetric::RelativeError,
            expect: Verdict::Holds,
        }]
    });
    assert_eq!(
        err,
        "committed run 'ks-quick': the claim compares 'C-WIG' with itself"
    );
    let twice = index_text(&[run(&[]), run(&[])]);
    let err = CommittedIndex::from_json(&twice).expect_err("twice");
    assert!(err.to_string().contains("listed twice"), "{err}");
}

#[test]
fn a_faithful_run_passes() {
    // In the fixture (one seed, so nothing is resolved): P-WIG 0.172 < P-ONE 0.275, C-NOG
    // 0.487 < C-ONE 0.665.
    let claims = [("P-WIG", "P-ONE"), ("C-NOG 16×10 m=3", "C-ONE")];
    let results =
        check_run(&run(&claims), FIXTURE, &plan_text(), System::description).expect("faithful");
    assert_eq!(results.variants.len(), 6);
}

#[test]
fn a_wrong_claim_fails_naming_it() {
    // One seed resolves nothing: a claim that expects `holds` fails, naming both verdicts.
    let mut wrong = run(&[("P-WIG", "P-ONE"), ("C-WIG", "C-ONE")]);
    wrong.claims[1].expect = Verdict::Holds;
    let err =
        check_run(&wrong, FIXTURE, &plan_text(), System::description).expect_err("wrong claim");
    let text = err.to_string();
    assert!(
        text.starts_with(
            "committed run 'ks-quick': claim 'C-WIG better than C-ONE' expects 'holds', the file gives 'not resolved'"
        ),
        "{text}"
    );
    assert!(text.contains("one seed: no interval"), "{text}");
    assert!(text.contains("0.680075 against 0.664943"), "{text}");
    let err = check_run(
        &run(&[("C-XYZ", "C-ONE")]),
        FIXTURE,
        &plan_text(),
        System::description,
    )
    .expect_err("unknown variant");
    assert!(err.to_string().contains("no variant 'C-XYZ'"), "{err}");
}

#[test]
fn an_ambiguous_label_asks_for_the_full_one() {
    let mut results = StudyResults::from_json(FIXTURE).expect("fixture");
    let mut bigger = results.variants[5].clone();
    bigger.id.channels = 26;
    bigger.id.depth = 8;
    results.variants.push(bigger);
    let claim = |better: &str| Claim {
        better: better.into(),
        worse: "C-ONE".into(),
        by: ClaimMetric::RelativeError,
        expect: Verdict::Holds,
    };
    let err = check_claim(&results, &claim("C-WIG")).expect_err("ambiguous");
    assert!(err.contains("names several variants"), "{err}");
    let err = check_claim(&results, &claim("C-WIG 26×8 m=3")).expect_err("one seed");
    assert!(
        err.contains("expects 'holds', the file gives 'not resolved'"),
        "{err}"
    );
}

#[test]
fn a_wrong_hash_fails() {
    let mut plan: serde_json::Value = serde_json::from_str(&plan_text()).expect("json");
    plan["hash"] = "0123456789abcdef".into();
    let err = check_run(&run(&[]), FIXTURE, &plan.to_string(), System::description)
        .expect_err("wrong hash");
    let text = err.to_string();
    assert!(
        text.starts_with("committed run 'ks-quick': plan file ks-quick/plan.json"),
        "{text}"
    );
    assert!(
        text.contains("hash 0123456789abcdef does not match"),
        "{text}"
    );
}

#[test]
fn results_of_another_study_or_schema_fail() {
    // Another study, consistently planned: its own config, cells and hash.
    let mut results = StudyResults::from_json(FIXTURE).expect("fixture");
    results.config.base.iterations += 1;
    let other = StudyPlan::new(results.config, System::description, None).expect("plan");
    let plan = serde_json::to_string(&other).expect("json");
    let err = check_run(&run(&[]), FIXTURE, &plan, System::description).expect_err("other study");
    assert!(err.to_string().contains("is not the plan's"), "{err}");
    let err = check_run(
        &run(&[]),
        &FIXTURE.replace("results@1", "results@9"),
        &plan_text(),
        System::description,
    )
    .expect_err("schema");
    assert!(
        err.to_string()
            .contains("results file ks-quick/results.json: unsupported schema"),
        "{err}"
    );
    let mut two_seeds = run(&[]);
    two_seeds.seeds = 2;
    let err = check_run(&two_seeds, FIXTURE, &plan_text(), System::description).expect_err("seeds");
    assert!(
        err.to_string()
            .contains("the index says 2 seed(s), the results have 1"),
        "{err}"
    );
}

#[test]
fn the_label_names_budget_seeds_and_commit() {
    assert_eq!(
        run(&[]).label(),
        "KS headline, quick budget — quick budget: 20 iterations; 1 seed; commit 532c7e3"
    );
}

/// Three seeds around `mean` (× 0.99, 1, 1.01: every side's seeds agree, so orderings of
/// different means resolve).
fn three_seeds(mean: f64) -> unroll_core::study::data::results::SeedStat {
    unroll_core::study::data::results::SeedStat::from_values(vec![mean * 0.99, mean, mean * 1.01])
}

/// The fixture with three seeds per variant, each side's errors [`three_seeds`] around its
/// fixture mean (per-test curves dropped: the seeds' means are judged).
fn three_seed_fixture() -> StudyResults {
    let mut results = StudyResults::from_json(FIXTURE).expect("fixture");
    for v in &mut results.variants {
        v.seeds = vec![0, 1, 2];
        v.metrics.relative_error = three_seeds(v.metrics.relative_error.mean);
        v.metrics.test_errors.clear();
    }
    results
}

/// Steps above 0.95 around a mean, for a doctored file.
fn vorticity(steps: f64) -> Option<unroll_core::study::data::results::VorticityStats> {
    let stat = three_seeds(steps);
    Some(unroll_core::study::data::results::VorticityStats {
        steps_above_095: stat.clone(),
        steps_above_080: stat.clone(),
        time_scales_above_095: stat.clone(),
        time_scales_above_080: stat.clone(),
        early_mse: stat,
        correlation_curve: Vec::new(),
    })
}

#[test]
fn three_agreeing_seeds_resolve_a_claim_either_way() {
    let results = three_seed_fixture();
    let claim = |better: &str, worse: &str, expect| Claim {
        better: better.into(),
        worse: worse.into(),
        by: ClaimMetric::RelativeError,
        expect,
    };
    // P-WIG 0.172 < P-ONE 0.275; C-WIG 0.680 > C-ONE 0.665.
    check_claim(&results, &claim("P-WIG", "P-ONE", Verdict::Holds)).expect("holds");
    check_claim(&results, &claim("C-WIG", "C-ONE", Verdict::Fails)).expect("fails");
    let err = check_claim(&results, &claim("C-WIG", "C-ONE", Verdict::Holds)).expect_err("fails");
    assert!(
        err.contains("expects 'holds', the file gives 'fails' (1.023, 95 % "),
        "{err}"
    );
}

#[test]
fn correlation_time_claims_compare_longer_as_better_and_may_name_the_baseline() {
    let mut results = three_seed_fixture();
    let by_time = |better: &str, worse: &str| Claim {
        better: better.into(),
        worse: worse.into(),
        by: ClaimMetric::StepsAbove095,
        expect: Verdict::Holds,
    };
    // The fixture is KS's: no vorticity measures, so a time claim cannot hold.
    let err = check_claim(&results, &by_time("C-ONE", BASELINE)).expect_err("no measures");
    assert!(err.contains("no vorticity measures"), "{err}");
    results.baseline.vorticity = vorticity(13.6);
    for (label, steps) in [("C-ONE", 150.0), ("C-NOG", 199.0), ("C-WIG", 200.0)] {
        let v = results.variants.iter_mut().find(|v| v.id.label() == label);
        v.expect("variant").metrics.vorticity = vorticity(steps);
    }
    check_claim(&results, &by_time("C-ONE", BASELINE)).expect("150 steps beat 13.6");
    check_claim(&results, &by_time("C-WIG", "C-NOG")).expect("200 beat 199");
    let err = check_claim(&results, &by_time("C-ONE", "C-NOG")).expect_err("shorter");
    assert!(
        err.starts_with(
            "claim 'C-ONE better than C-NOG by steps above correlation 0.95' expects 'holds', \
             the file gives 'fails' (0.754, 95 % "
        ),
        "{err}"
    );
    // By the error, the baseline's row is compared too (the fixture's C-ONE is worse than the
    // solver alone, 0.665 against 0.5 here).
    results.baseline.relative_error =
        unroll_core::study::data::results::SeedStat::from_values(vec![0.5]);
    results.baseline.test_errors.clear();
    let by_error = Claim {
        by: ClaimMetric::RelativeError,
        ..by_time(BASELINE, "C-ONE")
    };
    check_claim(&results, &by_error).expect("0.5 below 0.665");
    // The metric round-trips through the index and is left out when it is the error.
    let mut with_time = run(&[("C-WIG", "C-NOG")]);
    with_time.claims.push(by_time("C-ONE", BASELINE));
    let text = index_text(&[with_time.clone()]);
    assert_eq!(text.matches("\"by\"").count(), 1, "{text}");
    assert!(text.contains("\"by\":\"steps_above_095\""), "{text}");
    assert_eq!(
        CommittedIndex::from_json(&text).expect("parses").runs,
        vec![with_time]
    );
}
