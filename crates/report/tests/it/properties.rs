//! Property tests of the edges: the URL codec (every valid experiment of every system
//! round-trips; arbitrary queries, with or without a system, never panic and every rejected
//! parameter is named against the system the query selects) and the results importer
//! (arbitrary bytes and mutated valid files never panic: they are refused with a reason, or
//! imported and then shown in every view).
#![cfg(not(target_arch = "wasm32"))]

use plotters::prelude::*;
use proptest::prelude::*;

use unroll_core::study::data::results::StudyResults;
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};
use unroll_report::charts::{self, ChartKind};
use unroll_report::experiment::arbitrary::experiment;
use unroll_report::experiment::query::OTHER_KEYS;
use unroll_report::experiment::{Experiment, Knob, Target};
use unroll_report::results_text::ResultsText;

const FIXTURE: &str = include_str!("../../../../tests/e2e/fixtures/cli-results.json");

/// A query parameter: a known key or a random one, with a random value.
fn pair() -> impl Strategy<Value = (String, String)> {
    let keys = prop_oneof![
        prop::sample::select(
            [
                "preset",
                "system",
                "seeds",
                "iterations",
                "rollout",
                "modes",
                "modalities",
                "arch",
                "archs",
                "channels",
                "depth",
                "m",
                "warmup",
                "detach",
                "alpha",
                "lr",
                "scales",
            ]
            .to_vec()
        )
        .prop_map(String::from),
        "[a-zA-Z0-9_.é<>-]{1,12}",
    ];
    let values = prop_oneof![
        "[a-zA-Z0-9_.,é<> -]{0,16}",
        prop::sample::select(System::ALL.to_vec()).prop_map(|s| s.to_string()),
        // Values of every system's parameter (a KS scale, a Reynolds number).
        prop::sample::select(vec!["1", "0.9,1.1", "400,800", "300", "1000", "5000"])
            .prop_map(String::from),
    ];
    (keys, values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_valid_experiment_round_trips(e in experiment()) {
        prop_assert!(e.knob_errors().is_empty(), "{:?}", e.knob_errors());
        let query = e.to_query();
        let (back, ignored) = Experiment::from_query(&query);
        prop_assert!(ignored.is_empty(), "{query}: {ignored:?}");
        prop_assert_eq!(&back, &e, "{}", query);
        // The percent-encoded form reads the same.
        let encoded = query.replace(',', "%2C");
        prop_assert_eq!(Experiment::from_query(&encoded).0, e);
    }

    #[test]
    fn arbitrary_queries_never_panic(query in any::<String>()) {
        let (experiment, ignored) = Experiment::from_query(&query);
        prop_assert!(ignored.iter().all(|m| m.chars().count() < 200));
        // Whatever was read is within the browser's limits.
        prop_assert!(experiment.knob_errors().is_empty(), "{:?}", experiment.knob_errors());
    }

    #[test]
    fn arbitrary_queries_of_every_system_never_panic(
        system in prop::sample::select(System::ALL.to_vec()),
        query in any::<String>(),
        pairs in prop::collection::vec(pair(), 0..8),
    ) {
        let pairs: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        for query in [format!("system={system}&{query}"), format!("system={system}&{}", pairs.join("&"))] {
            let (experiment, ignored) = Experiment::from_query(&query);
            prop_assert!(ignored.iter().all(|m| m.chars().count() < 200));
            // Whatever was read is within the browser's limits of the system it selects.
            prop_assert!(experiment.knob_errors().is_empty(), "{query}: {:?}", experiment.knob_errors());
        }
    }

    #[test]
    fn every_rejected_parameter_is_named(pairs in prop::collection::vec(pair(), 0..8)) {
        let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let (experiment, ignored) = Experiment::from_query(&query.join("&"));
        for (key, value) in &pairs {
            let accepted = match Knob::from_key(key) {
                Some(knob) => knob.parse_checked(value, Target::Browser, experiment.system).is_ok(),
                // Read by the page, not the experiment (`ic`, `workers`, `device`, …).
                None if OTHER_KEYS.contains(&key.as_str()) => true,
                None => key == "preset" && ["quick", "headline", "sizes", "horizons"].contains(&value.as_str()),
            };
            if !accepted {
                let named: String = key.chars().take(40).collect();
                prop_assert!(
                    ignored.iter().any(|m| m.contains(&format!("{named} '")) || m.contains(&format!("'{named}'"))),
                    "{key}={value} rejected without a message naming it: {ignored:?}"
                );
            }
        }
        prop_assert!(experiment.knob_errors().is_empty());
    }
}

/// Shows `results` in every view the page has: table, CSV, ratio, every chart.
fn show_everywhere(results: &StudyResults) {
    let _ = results.table();
    let _ = results.to_csv();
    let _ = results.ratio_sentence(Some("4.5"));
    for kind in ChartKind::ALL {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, kind.size(results)).into_drawing_area();
        let samples = results.samples.len().max(1);
        for sample in [0, samples - 1, samples] {
            let _ = charts::draw(kind, &root, results, sample);
        }
    }
}

/// One mutation of a JSON value: a key removed, a value replaced, an array emptied or
/// truncated, somewhere along `path` (indices chosen modulo the sizes met).
fn mutate(value: &mut serde_json::Value, path: &[usize], replacement: &serde_json::Value) {
    let Some((&step, rest)) = path.split_first() else {
        *value = replacement.clone();
        return;
    };
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(step % map.len())
                .cloned()
                .unwrap_or_default();
            if rest.is_empty() && step % 3 == 0 {
                map.remove(&key);
            } else if let Some(child) = map.get_mut(&key) {
                mutate(child, rest, replacement);
            }
        }
        serde_json::Value::Array(items) if !items.is_empty() => {
            if rest.is_empty() && step % 4 == 0 {
                items.truncate(step % items.len());
            } else {
                let len = items.len();
                mutate(&mut items[step % len], rest, replacement);
            }
        }
        other => *other = replacement.clone(),
    }
}

fn json_leaf() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(|v| serde_json::json!(v)),
        "[a-z@/]{0,12}".prop_map(serde_json::Value::from),
        Just(serde_json::json!([])),
        Just(serde_json::json!({})),
        Just(serde_json::json!([[null, 1e300, -1e300]])),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_bytes_are_refused_with_a_reason(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes);
        match StudyResults::from_json(&text) {
            Ok(results) => show_everywhere(&results),
            Err(err) => prop_assert!(!err.to_string().is_empty()),
        }
        let _ = StudyResults::summary_from_json(&text);
    }

    #[test]
    fn mutated_files_import_or_are_refused_with_a_reason(
        path in prop::collection::vec(any::<usize>(), 1..7),
        replacement in json_leaf(),
    ) {
        let mut value: serde_json::Value = serde_json::from_str(FIXTURE).expect("fixture");
        mutate(&mut value, &path, &replacement);
        let text = value.to_string();
        match StudyResults::from_json(&text) {
            Ok(results) => {
                prop_assert!(!results.variants.is_empty());
                show_everywhere(&results);
            }
            Err(err) => prop_assert!(!err.to_string().is_empty()),
        }
    }

    #[test]
    fn truncated_files_are_refused_with_a_reason(cut in 0usize..FIXTURE.len()) {
        let text: String = FIXTURE.chars().take(cut).collect();
        let err = StudyResults::from_json(&text).expect_err("truncated");
        prop_assert!(err.to_string().starts_with("not a results file"));
    }
}

#[test]
fn old_files_still_import_with_typed_variants() {
    let results = StudyResults::from_json(FIXTURE).expect("the CLI fixture imports");
    let labels: Vec<String> = results.variants.iter().map(|v| v.id.label()).collect();
    assert_eq!(
        labels,
        ["P-ONE", "P-NOG", "P-WIG", "C-ONE", "C-NOG", "C-WIG"]
    );
    assert!(results.find(Mode::Correct, Modality::Nog).is_some());
    // Written back, the file keeps its keys (the identity is flattened).
    let written: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&results).expect("json")).expect("json");
    let original: serde_json::Value = serde_json::from_str(FIXTURE).expect("json");
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v["variants"][0]
            .as_object()
            .expect("object")
            .keys()
            .cloned()
            .collect();
        k.sort();
        k
    };
    assert_eq!(keys(&written), keys(&original));
    show_everywhere(&results);
}

#[test]
fn a_file_without_variants_is_refused_with_a_reason() {
    let mut value: serde_json::Value = serde_json::from_str(FIXTURE).expect("fixture");
    value["variants"] = serde_json::json!([]);
    let err = StudyResults::from_json(&value.to_string()).expect_err("no variants");
    assert_eq!(
        err.to_string(),
        "the results file has no variants (nothing was trained)"
    );
}
