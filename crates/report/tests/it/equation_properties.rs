//! Property tests of a reader's equation at the edges: arbitrary text (as `--equation`, as
//! `?system=custom:…`) never panics and is refused with one sentence; generated equations
//! round-trip through their canonical text and JSON; random small equations go through every
//! physics check without panicking (accepted, or refused with a reason).
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;

use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::types::{Equation, Integrator, Term};
use unroll_report::experiment::Experiment;

/// One `key=value` item: a known key or a random one, a number or random text.
fn item() -> impl Strategy<Value = String> {
    let keys: Vec<&str> = Term::ALL
        .iter()
        .map(|t| t.name())
        .chain([
            "N", "dt", "scheme", "substeps", "fine", "dealias", "coarse", "vary", "train",
        ])
        .collect();
    let key = prop_oneof![
        prop::sample::select(keys).prop_map(String::from),
        "[a-z]{1,4}"
    ];
    let value = prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        (-5i32..5).prop_map(|v| v.to_string()),
        "[a-z0-9./-]{0,8}",
    ];
    (key, value).prop_map(|(k, v)| format!("{k}={v}"))
}

/// A small valid equation: a diffusive linear part and random nonlinear terms.
fn small_equation() -> impl Strategy<Value = Equation> {
    (
        (0.01f64..2.0, -1.0f64..1.0, -2.0f64..2.0, -1.0f64..1.0),
        (0.5f64..20.0, 8usize..24, 0.05f64..1.0),
        prop::sample::select(Integrator::ALL.to_vec()),
    )
        .prop_map(|((a2, a3, b, e), (length, points, dt), scheme)| Equation {
            a: [0.0, 0.0, a2, a3, 0.0],
            b,
            e,
            length,
            points,
            dt,
            scheme,
            warmup: 2,
            frames: 16,
            states: 2,
            tests: 1,
            rollout: 12,
            ..Equation::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_text_is_refused_with_a_sentence(text in any::<String>(), items in prop::collection::vec(item(), 0..6)) {
        for text in [text, items.join(",")] {
            if let Err(err) = Equation::parse(&text) {
                let message = err.to_string();
                prop_assert!(!message.is_empty() && message.chars().count() < 400, "{message}");
            }
            let _ = format!("custom:{text}").parse::<System>();
            let (_, ignored) = Experiment::from_query(&format!("system=custom:{text}"));
            prop_assert!(ignored.iter().all(|m| m.chars().count() < 400));
        }
    }

    #[test]
    fn equations_round_trip_and_every_check_answers(equation in small_equation()) {
        let back = Equation::parse(&equation.text()).expect("canonical text");
        prop_assert_eq!(&back, &equation);
        let json = serde_json::to_string(&equation).expect("json");
        prop_assert_eq!(&Equation::parse(&json).expect("json back"), &equation);
        let system: System = format!("custom:{}", equation.text()).parse().expect("system");
        let description = system.description();
        let config = description.preset(Preset::Quick, 1);
        if let Err(err) = config.validate(description) {
            prop_assert!(!err.to_string().is_empty());
        }
    }
}
