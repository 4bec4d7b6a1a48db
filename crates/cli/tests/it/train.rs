//! The `unroll-lab train` contract: a tiny run writes `train.json` (config, loss history,
//! timings) and the weights; a config file round-trips; bad arguments exit 2 with one line.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    let mut with_quiet = vec!["--quiet"];
    with_quiet.extend_from_slice(args);
    common::run_cli("train", &with_quiet)
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("unroll-lab-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

const TINY: [&str; 8] = [
    "--iterations",
    "4",
    "--channels",
    "4",
    "--depth",
    "1",
    "--seed",
    "3",
];

fn train_json(dir: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(dir.join("train.json")).expect("train.json");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn tiny_run_writes_weights_and_report() {
    let dir = out_dir("tiny");
    let mut args = vec![
        "--preset",
        "quick",
        "--mode",
        "correct",
        "--modality",
        "nog",
        "--out",
    ];
    let dir_arg = dir.to_string_lossy().to_string();
    args.push(&dir_arg);
    args.extend(TINY);
    let output = run(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = train_json(&dir);
    assert_eq!(report["schema"], "unroll-lab/train@1");
    assert_eq!(report["config"]["mode"], "correct");
    assert_eq!(report["config"]["modality"], "nog");
    assert_eq!(report["config"]["net"]["channels"], 4);
    assert_eq!(report["loss_history"].as_array().expect("losses").len(), 4);
    assert!(report["iterations_per_sec"].as_f64().expect("rate") > 0.0);
    assert!(report["wall_secs"].as_f64().is_some());
    assert!(
        std::fs::metadata(dir.join("weights.bpk"))
            .expect("weights")
            .len()
            > 100
    );

    // The written config trains again to the identical loss history.
    let config_path = dir.join("config.json");
    std::fs::write(&config_path, report["config"].to_string()).expect("write config");
    let again = out_dir("again");
    let output = run(&[
        "--config",
        &config_path.to_string_lossy(),
        "--out",
        &again.to_string_lossy(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(train_json(&again)["loss_history"], report["loss_history"]);
}

#[test]
fn every_new_architecture_trains_and_reports_its_parameters() {
    // C = 4, D = 1: 21·16 + 17·4 + 1; 36·16 + 18·4 + 1; 26·16 + 6·4 + 1.
    for (architecture, params) in [("dilated", 405), ("unet", 649), ("fno", 441)] {
        let dir = out_dir(architecture);
        let dir_arg = dir.to_string_lossy().to_string();
        let mut args = vec!["--architecture", architecture, "--out", &dir_arg];
        args.extend(TINY);
        let output = run(&args);
        assert!(
            output.status.success(),
            "{architecture}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report = train_json(&dir);
        assert_eq!(report["config"]["net"]["architecture"], architecture);
        assert_eq!(report["parameters"], params, "{architecture}");
        let losses = report["loss_history"].as_array().expect("losses");
        assert_eq!(losses.len(), 4);
        assert!(losses
            .iter()
            .all(|l| l.as_f64().is_some_and(f64::is_finite)));
    }
}

#[test]
fn bad_arguments_exit_2_with_a_specific_message() {
    // An output folder that cannot be made is refused before the data and the training.
    assert_usage_error(
        &["--out", "/proc/unroll-lab-train"],
        "/proc/unroll-lab-train",
    );
    assert_usage_error(&["--preset", "huge"], "unknown preset 'huge'");
    assert_usage_error(&["--modality", "all"], "unknown modality 'all'");
    assert_usage_error(&["--mode", "guess"], "unknown mode 'guess'");
    assert_usage_error(&["--horizon", "0"], "horizon");
    assert_usage_error(&["--iterations", "-5"], "--iterations must be non-negative");
    assert_usage_error(&["--mode", "transition", "--alpha", "1.5"], "alpha");
    assert_usage_error(&["--channels", "0"], "channels");
    assert_usage_error(
        &["--black-box-solver", "--modality", "wig"],
        "black_box_solver",
    );
    let bad =
        std::env::temp_dir().join(format!("unroll-lab-bad-config-{}.json", std::process::id()));
    std::fs::write(&bad, "{\"mode\": 3}").expect("write");
    assert_usage_error(
        &["--config", &bad.to_string_lossy()],
        "not a training config",
    );
    assert_usage_error(&["--config", "/nonexistent/x.json"], "cannot read");
}

/// `--system` picks the system's preset through the registry: Burgers trains, Kolmogorov's own
/// checks answer for it, and a name that is no system lists the choices.
#[test]
fn every_system_trains_through_the_registry() {
    let dir = out_dir("burgers");
    let dir_arg = dir.to_string_lossy().to_string();
    let mut args = vec![
        "--system",
        "burgers",
        "--modality",
        "nog",
        "--out",
        &dir_arg,
    ];
    args.extend(TINY);
    let output = run(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = train_json(&dir);
    assert_eq!(report["config"]["system"], "burgers");
    assert_eq!(report["loss_history"].as_array().expect("losses").len(), 4);
    assert_usage_error(
        &["--system", "kolmogorov", "--mode", "predict"],
        "correction mode only",
    );
    assert_usage_error(&["--system", "kolmogorov", "--architecture", "gcn"], "gcn");
    assert_usage_error(
        &["--system", "navier"],
        "unknown system 'navier' (expected ks, kolmogorov, burgers or custom:EQUATION)",
    );
    assert_usage_error(&["--system", "ks", "--config", "x.json"], "--config");
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let mut with_quiet = vec!["--quiet"];
    with_quiet.extend_from_slice(args);
    common::assert_usage_error("train", &with_quiet, needle);
}

#[test]
fn an_architecture_without_a_size_trains_at_its_default_size() {
    let dir = out_dir("unet-default");
    let dir_arg = dir.to_string_lossy().to_string();
    let output = run(&[
        "--architecture",
        "unet",
        "--iterations",
        "2",
        "--seed",
        "3",
        "--out",
        &dir_arg,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let net = &train_json(&dir)["config"]["net"];
    assert_eq!(net["architecture"], "unet");
    assert_eq!(
        (net["channels"].clone(), net["depth"].clone()),
        (8.into(), 2.into())
    );
}
