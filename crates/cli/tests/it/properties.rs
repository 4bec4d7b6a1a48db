//! Property tests of the CLI's argument parsing: a bad value for any knob flag, an unknown flag
//! or an unknown preset exits with code 2 and one line naming the problem (nothing runs); the
//! page's command of a valid experiment of every system plans that experiment's study, its
//! values checked against the system it names.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

use unroll_core::study::cells::plan::StudyPlan;
use unroll_report::experiment::arbitrary::experiment;
use unroll_report::experiment::{Experiment, Kind, Knob, Target, KNOBS};

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

/// A fresh path for a plan file of this test process.
fn plan_path() -> std::path::PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "unroll-lab-cli-properties-{}-{}.json",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

/// `unroll-lab study plan` of the command words after `unroll-lab study`: the planned config.
fn planned(words: &[&str]) -> Result<StudyPlan, String> {
    let out = plan_path();
    let out_text = out.display().to_string();
    let mut args = vec!["plan", "--no-estimate", "--out", out_text.as_str()];
    args.extend_from_slice(words);
    let output = common::run_cli("study", &args);
    let text = std::fs::read_to_string(&out);
    let _ = std::fs::remove_file(&out);
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let text = text.map_err(|err| err.to_string())?;
    serde_json::from_str(&text).map_err(|err| err.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The page's `unroll-lab study …` line of any valid experiment, of every system, plans the
    /// study that experiment runs natively (every value read back, checked against the system
    /// the line names).
    #[test]
    fn the_command_of_every_system_round_trips(e in experiment()) {
        let mut native = Experiment { target: Target::Native, ..e };
        if native.study_config().validate(native.system.physics()).is_err() {
            // A combination the system refuses (a mode, a network size): its defaults instead.
            let defaults = Experiment::defaults_for(native.system, native.preset, Target::Native);
            native.modes = defaults.modes;
            native.channels = defaults.channels;
            native.depth = defaults.depth;
        }
        prop_assume!(native.study_config().validate(native.system.physics()).is_ok());
        let browser = Experiment { target: Target::Browser, ..native.clone() };
        let command = browser.cli_command();
        let words: Vec<&str> = command.split_whitespace().collect();
        prop_assert_eq!(&words[..2], &["unroll-lab", "study"]);
        let plan = planned(&words[2..]).map_err(|err| TestCaseError::fail(format!("{command}: {err}")))?;
        prop_assert_eq!(plan.config, native.study_config(), "{}", command);
    }
}

/// Kolmogorov's scales are Reynolds numbers on the command line too.
#[test]
fn reynolds_numbers_are_checked_against_kolmogorov() {
    let plan = planned(&[
        "--system",
        "kolmogorov",
        "--scales",
        "400,800",
        "--seeds",
        "1",
    ])
    .expect("plans");
    assert_eq!(plan.config.base.data.scales, [400.0, 800.0]);
    common::assert_usage_error(
        "study",
        &["--system", "kolmogorov", "--scales", "1"],
        "--scales: Reynolds number 1 is outside 100..=2000",
    );
}
