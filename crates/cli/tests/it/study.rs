//! `unroll-lab study`: the browser's `Experiment::cli_command()` is exactly runnable and the
//! results file it writes embeds the same `StudyConfig` as `Experiment::study_config()`; argument
//! errors exit 2 with a one-line message (the full study runs are measured, not tested: see the
//! book's reproduction chapter, docs/src/reproduction.md).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::process::Command;

use unroll_core::nets::Architecture;
use unroll_core::study::data::prepared::Prepared;
use unroll_core::system::config::{Preset, StudyConfig};
use unroll_core::train::{Modality, Mode};
use unroll_report::experiment::Experiment;

#[test]
fn bad_arguments_exit_2() {
    assert_usage_error(&["--preset", "everything"], "unknown preset 'everything'");
    assert_usage_error(&["--seeds", "0"], "--seeds must be between 1 and 512 seeds");
    assert_usage_error(&["--seeds", "-2"], "--seeds must be non-negative");
    assert_usage_error(&["--iterations", "0"], "iterations");
    assert_usage_error(&["--bogus"], "--bogus");
    assert_usage_error(&["--modes", "correct,fast"], "unknown mode 'fast'");
    assert_usage_error(&["--modalities", "nog,all"], "unknown modality 'all'");
}

#[test]
fn bad_knobs_exit_2() {
    assert_usage_error(
        &["--system", "navier"],
        "unknown system 'navier' (expected ks, kolmogorov, burgers or custom:EQUATION)",
    );
    assert_usage_error(
        &["--system", "kolmogorov", "--modes", "predict"],
        "Kolmogorov flow is studied in correction mode only",
    );
    assert_usage_error(
        &["--system", "kolmogorov", "--channels", "9"],
        "the 2-D ResNet comes in the paper's four sizes",
    );
    assert_usage_error(&["--architecture", "mlp"], "unknown architecture 'mlp'");
    assert_usage_error(&["--channels", "-1"], "--channels must be non-negative");
    assert_usage_error(&["--channels", "0"], "channels must be between 1 and 256");
    assert_usage_error(&["--depth", "65"], "depth must be between 0 and 64");
    assert_usage_error(&["--horizon", "0"], "--horizon must be between 1 and 64");
    assert_usage_error(&["--warmup", "x"], "invalid value 'x' for '--warmup");
    assert_usage_error(&["--horizon", "40", "--warmup", "40"], "at most 64");
    assert_usage_error(
        &["--detach-interval", "-3"],
        "--detach-interval must be non-negative",
    );
    assert_usage_error(&["--alpha", "1"], "--alpha must be in [0, 1)");
    assert_usage_error(&["--alpha", "nan"], "--alpha must be in [0, 1)");
    assert_usage_error(
        &["--learning-rate", "0"],
        "--learning-rate must be in (0, 1]",
    );
    assert_usage_error(&["--lr", "abc"], "invalid value 'abc'");
    assert_usage_error(&["--scales", "1,abc"], "invalid value 'abc' for '--scales");
    assert_usage_error(&["--scales", "1,9"], "domain scale 9 is outside 0.25..=4");
    assert_usage_error(&["--scales", "1,1.2,1"], "--scales lists 1 twice");
    assert_usage_error(
        &["--preset", "sizes", "--channels", "8"],
        "--channels does not apply to --preset sizes (its grid sets the network sizes)",
    );
    assert_usage_error(
        &["--architectures", "fno"],
        "--architectures does not apply",
    );
    assert_usage_error(
        &["--preset", "sizes", "--architecture", "fno"],
        "--architecture does not apply to --preset sizes",
    );
    assert_usage_error(
        &["--preset", "sizes", "--architectures", "fno,cnn"],
        "unknown architecture 'cnn'",
    );
    assert_usage_error(
        &["--preset", "sizes", "--architectures", "fno,fno"],
        "--architectures lists fno twice",
    );
    assert_usage_error(
        &["--architecture", "unet", "--depth", "5"],
        "48 points halve 4 times",
    );
    assert_usage_error(
        &["--preset", "horizons", "--horizon", "2"],
        "--horizon does not apply to --preset horizons",
    );
}

/// Runs `experiment.cli_command()` (plus `--out`, `--quiet`) and returns the results file's
/// embedded config.
fn run_cli_command(experiment: &Experiment, name: &str) -> StudyConfig {
    let command = experiment.cli_command();
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(&words[..2], ["unroll-lab", "study"], "{command}");
    let out = std::env::temp_dir().join(format!(
        "unroll-lab-study-{}-{name}.json",
        std::process::id()
    ));
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(&words[1..])
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run unroll-lab");
    assert!(
        output.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("results file");
    let _ = std::fs::remove_file(&out);
    let results: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    serde_json::from_value(results["config"].clone()).expect("a StudyConfig")
}

#[test]
fn the_browser_command_reproduces_the_browser_study() {
    // Every knob away from its default, tiny budget: 2 variants × 1 seed, 2 iterations.
    let experiment = Experiment {
        modes: vec![Mode::Correct, Mode::Transition],
        modalities: vec![Modality::Wig],
        architecture: Architecture::Gcn,
        channels: 4,
        depth: 1,
        horizon: 2,
        warmup: 1,
        detach: 1,
        alpha: 0.3,
        learning_rates: vec![0.002],
        iterations: 2,
        rollout: 12,
        scales: vec![1.0, 1.2],
        ..Experiment::default()
    };
    assert!(
        experiment.validate().is_empty(),
        "{:?}",
        experiment.validate()
    );
    let expected = experiment.study_config();
    assert_eq!(run_cli_command(&experiment, "custom"), expected);
    // The horizons preset (its grid replaces m), one mode and modality.
    let horizons = Experiment {
        modalities: vec![Modality::Nog],
        channels: 2,
        depth: 0,
        iterations: 1,
        rollout: 12,
        learning_rates: vec![0.01],
        scales: vec![1.1],
        ..Experiment::for_preset(Preset::Horizons)
    };
    assert!(horizons.validate().is_empty(), "{:?}", horizons.validate());
    assert_eq!(
        run_cli_command(&horizons, "horizons"),
        horizons.study_config()
    );
}

#[test]
fn the_sizes_preset_runs_across_architectures_and_fits_their_slopes() {
    let sizes = Experiment {
        architectures: vec![Architecture::Dilated, Architecture::Unet, Architecture::Fno],
        modes: vec![Mode::Correct],
        iterations: 1,
        rollout: 12,
        scales: vec![1.1],
        ..Experiment::for_preset(Preset::Sizes)
    };
    assert!(sizes.validate().is_empty(), "{:?}", sizes.validate());
    let command = sizes.cli_command();
    assert!(
        command.contains("--architectures dilated,unet,fno"),
        "{command}"
    );
    let out = std::env::temp_dir().join(format!("unroll-lab-sizes-{}.json", std::process::id()));
    let words: Vec<&str> = command.split_whitespace().collect();
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(&words[1..])
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run unroll-lab");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("results file");
    let _ = std::fs::remove_file(&out);
    let results: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let config: StudyConfig = serde_json::from_value(results["config"].clone()).expect("config");
    assert_eq!(config, sizes.study_config());
    // Every variant carries its architecture and size knobs; 3 architectures × 4 sizes.
    let variants = results["variants"].as_array().expect("variants");
    assert_eq!(variants.len(), 12);
    for architecture in ["dilated", "unet", "fno"] {
        let of: Vec<&serde_json::Value> = variants
            .iter()
            .filter(|v| v["architecture"] == architecture)
            .collect();
        assert_eq!(of.len(), 4, "{architecture}");
        assert!(of
            .iter()
            .all(|v| v["channels"].is_u64() && v["depth"].is_u64()));
        // One slope row per architecture in each printed convergence table (all sizes, and
        // without the smallest).
        assert_eq!(
            stdout
                .lines()
                .filter(|l| l.starts_with(architecture) && l.contains("correct"))
                .count(),
            2,
            "{stdout}"
        );
    }
    assert!(stdout.contains("ETD1 error ∝ N^−1.00"), "{stdout}");
    // `unroll-lab slopes FILE` prints the same convergence tables from the file.
    let file = std::env::temp_dir().join(format!("unroll-lab-slopes-{}.json", std::process::id()));
    std::fs::write(&file, &text).expect("write");
    let slopes = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .arg("slopes")
        .arg(&file)
        .output()
        .expect("run unroll-lab slopes");
    let _ = std::fs::remove_file(&file);
    assert!(slopes.status.success());
    let printed = String::from_utf8_lossy(&slopes.stdout);
    let start = stdout.find("convergence,").expect("convergence table");
    let end = stdout.find("study 'sizes'").expect("summary line");
    assert_eq!(printed, &stdout[start..end]);
    common::assert_usage_error("slopes", &["/nonexistent/results.json"], "cannot read");
    // Without the 3 smallest of 4 sizes no group keeps 2: the second table is left out.
    let file = std::env::temp_dir().join(format!("unroll-lab-skip-{}.json", std::process::id()));
    std::fs::write(&file, &text).expect("write");
    let skip3 = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(["slopes", "--skip", "3"])
        .arg(&file)
        .output()
        .expect("run unroll-lab slopes");
    let skip2 = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(["slopes", "--skip", "2"])
        .arg(&file)
        .output()
        .expect("run unroll-lab slopes");
    // `unroll-lab horizons FILE` re-scores every test at each horizon; beyond the evaluation
    // rollout is refused with exit 2.
    let horizons = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(["horizons", "--horizons", "1,2"])
        .arg(&file)
        .output()
        .expect("run unroll-lab horizons");
    assert!(horizons.status.success(), "{horizons:?}");
    let table = String::from_utf8_lossy(&horizons.stdout);
    assert!(
        table.contains("P-WIG/C-NOG") && table.contains("\n   2 "),
        "{table}"
    );
    let file_arg = file.display().to_string();
    common::assert_usage_error(
        "horizons",
        &["--horizons", "100000", &file_arg],
        "outside 1..=",
    );
    let _ = std::fs::remove_file(&file);
    assert!(!String::from_utf8_lossy(&skip3.stdout).contains("without"));
    assert!(String::from_utf8_lossy(&skip2.stdout).contains("without the 2 smallest sizes"));
}

fn assert_usage_error(args: &[&str], needle: &str) {
    common::assert_usage_error("study", args, needle);
}

/// `study --ensemble on` (a variant's seeds as one model) writes the results of `--ensemble
/// off` (one training at a time): the same relative errors, to 1e-5 relative (ONE and NOG
/// train bit for bit alike; WIG's gradients through the solver sum in another order); a bad
/// value exits 2.
#[test]
fn ensembles_write_the_results_of_one_training_at_a_time() {
    common::assert_usage_error("study", &["--ensemble", "maybe"], "--ensemble");
    let run = |ensemble: &str| {
        let out = std::env::temp_dir().join(format!(
            "unroll-lab-ensemble-{ensemble}-{}.json",
            std::process::id()
        ));
        let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
            .args([
                "study",
                "--seeds",
                "2",
                "--iterations",
                "6",
                "--channels",
                "4",
            ])
            .args([
                "--depth", "1", "--modes", "correct", "--jobs", "2", "--quiet",
            ])
            .args(["--ensemble", ensemble, "--out"])
            .arg(&out)
            .output()
            .expect("run unroll-lab");
        assert!(
            output.status.success(),
            "--ensemble {ensemble}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = std::fs::read_to_string(&out).expect("results file");
        let _ = std::fs::remove_file(&out);
        let results: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        results["variants"]
            .as_array()
            .expect("variants")
            .iter()
            .map(|v| {
                let error = v["metrics"]["relative_error"]["mean"]
                    .as_f64()
                    .expect("error");
                (v["modality"].as_str().expect("modality").to_string(), error)
            })
            .collect::<Vec<_>>()
    };
    let (alone, together) = (run("off"), run("on"));
    assert_eq!(alone.len(), 3);
    for ((modality, a), (other, e)) in alone.iter().zip(&together) {
        assert_eq!(modality, other);
        assert!((a - e).abs() <= 1e-5 * a.abs(), "{modality}: {e} vs {a}");
    }
}

/// `study --data-out FILE` writes the study's data and stops (nothing trained): the training
/// trajectories and the test truths decode to the study's shapes; an unwritable file exits 2.
#[test]
fn data_out_writes_the_data_without_training() {
    let out = std::env::temp_dir().join(format!("unroll-lab-data-{}.json", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args([
            "study",
            "--preset",
            "quick",
            "--rollout",
            "24",
            "--data-out",
        ])
        .arg(&out)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("written");
    let _ = std::fs::remove_file(&out);
    let prepared: Prepared = serde_json::from_str(&text).expect("Prepared JSON");
    assert_eq!(prepared.training.len(), 36, "6 sizes × 6 ICs");
    let values = prepared.training[0].values.to_f32s().expect("f32s");
    assert_eq!(values.len(), 400 * 48, "the quick preset's 400 frames");
    assert_eq!(prepared.tests.len(), 4);
    assert_eq!(prepared.tests[0].shape, [10, 25, 48]);
    assert_eq!(prepared.tests[0].unpack().expect("f64s").truth.len(), 10);
    assert_eq!(prepared.baseline_tests.len(), 40);
    common::assert_usage_error(
        "study",
        &["--data-out", "/proc/x.json"],
        "cannot write --data-out /proc/x.json",
    );
}

/// An output that cannot be written is refused before any work: exit 2 and one line naming it,
/// no estimate, no training (`study --out /proc/x.json` once trained the whole study first).
#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let refused = common::assert_usage_error(
        "study",
        &["--out", "/proc/x.json", "--iterations", "200"],
        "cannot write --out /proc/x.json",
    );
    assert!(refused.stdout.is_empty(), "nothing was run");
    common::assert_usage_error(
        "study",
        &["--csv", "/nonexistent-unroll-lab/x.csv", "--quiet"],
        "its folder /nonexistent-unroll-lab does not exist",
    );
    let folder = std::env::temp_dir();
    common::assert_usage_error(
        "study",
        &["--out", folder.to_str().expect("UTF-8"), "--quiet"],
        "it is a folder",
    );
}
