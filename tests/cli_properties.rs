//! Property tests of the CLI's argument parsing: a bad value for any knob flag, an unknown flag
//! or an unknown preset exits with code 2 and one line naming the problem (nothing runs).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;

use unroll_lab::experiment::{Kind, Knob, KNOBS};

/// A value `knob` can never accept: letters for numbers, an unknown name for names, a
/// negative number or one past every limit for whole numbers.
fn bad_value(knob: Knob) -> BoxedStrategy<String> {
    match knob.kind() {
        Kind::Count => prop_oneof![
            "[a-z]{1,6}",
            (1i64..1000).prop_map(|v| (-v).to_string()),
            (100_000_001u64..u64::MAX).prop_map(|v| v.to_string()),
        ]
        .boxed(),
        Kind::Real => {
            prop_oneof!["[g-z]{1,6}", (1.0f64..1e6).prop_map(|v| (-v).to_string())].boxed()
        }
        Kind::Reals => {
            prop_oneof!["1,[a-z]{1,4}", (5.0f64..1e6).prop_map(|v| format!("1,{v}")),].boxed()
        }
        Kind::Names => "x-[a-z]{1,6}".boxed(),
    }
}

fn knob_and_bad_value() -> impl Strategy<Value = (Knob, String)> {
    prop::sample::select(KNOBS.to_vec()).prop_flat_map(|knob| (Just(knob), bad_value(knob)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn bad_knob_values_exit_2((knob, value) in knob_and_bad_value()) {
        let flag = format!("--{}", knob.flag());
        let args = ["--quiet", flag.as_str(), value.as_str()];
        common::assert_usage_error("study", &args, "");
        if knob.trains() {
            common::assert_usage_error("train", &args, "");
        }
    }

    #[test]
    fn unknown_flags_and_presets_exit_2(name in "[a-z]{3,10}") {
        prop_assume!(!["quick", "paper", "sizes", "horizons"].contains(&name.as_str()));
        let flag = format!("--{name}-x");
        common::assert_usage_error("study", &[flag.as_str()], "");
        common::assert_usage_error("study", &["--preset", name.as_str()], "unknown preset");
    }
}
