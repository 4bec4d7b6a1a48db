//! `--system custom --equation …` on the CLI: `simulate` prints the equation's trajectory,
//! `train` trains on it, `study` takes it; a refused equation, an unreadable file or
//! `--equation` without `--system custom` exits 2 with one line that says why.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use serde_json::Value;

const KDV: &str = "a3=-1,b=-6;L=5;N=32;dt=0.1;substeps=8";

#[test]
fn simulate_prints_the_equations_trajectory() {
    let output = common::run_cli(
        "simulate",
        &["--system", "custom", "--equation", KDV, "--steps", "3"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(value["system"], format!("custom:{KDV}"));
    assert_eq!(value["scheme"], "etdrk4");
    assert_eq!(value["points"], 32);
    assert_eq!(value["states"].as_array().expect("states").len(), 4);
    let dir = common::scratch("custom", "json");
    let file = dir.join("kdv.json");
    std::fs::write(
        &file,
        r#"{"a": [0, 0, 0, -1, 0], "b": -6, "L": 5, "N": 32, "dt": 0.1}"#,
    )
    .expect("write");
    let path = file.to_string_lossy().to_string();
    let output = common::run_cli(
        "simulate",
        &[
            "--system",
            "custom",
            "--equation",
            &path,
            "--steps",
            "1",
            "--scheme",
            "etd1",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(value["equation"], "a3=-1,b=-6;L=5;N=32;dt=0.1");
}

#[test]
fn bad_equations_exit_2_with_their_reason() {
    let simulate = |args: &[&str], needle: &str| {
        common::assert_usage_error("simulate", args, needle);
    };
    simulate(
        &["--system", "custom", "--equation", "a2=x"],
        "a2 takes a finite number",
    );
    simulate(
        &["--system", "custom", "--equation", "q=1"],
        "unknown key 'q'",
    );
    simulate(
        &["--system", "ks", "--equation", "a2=-1"],
        "--equation applies to --system custom",
    );
    simulate(
        &["--system", "custom", "--equation", "missing.json"],
        "cannot read missing.json",
    );
    simulate(
        &["--system", "custom:a2=-1;N=2"],
        "N must be a whole number in 8..=1024",
    );
    simulate(
        &[
            "--system",
            "custom",
            "--equation",
            KDV,
            "--viscosity",
            "0.1",
        ],
        "--viscosity does not apply to --system custom",
    );
    common::assert_usage_error(
        "study",
        &["--system", "custom", "--equation", "a2=-1,b=-1"],
        "grows at the highest mode",
    );
    common::assert_usage_error(
        "train",
        &[
            "--quiet",
            "--system",
            "custom",
            "--equation",
            "a0=1,a2=1,d=1",
        ],
        "the truth",
    );
    common::assert_usage_error("study", &["--equation", "a2=-1"], "--system custom");
}

#[test]
fn train_runs_on_an_equation() {
    let dir = common::scratch("custom", "train");
    let out = dir.to_string_lossy().to_string();
    let equation = "a2=-1,a4=-1,b=-1;coarse=2;warmup=5;frames=20;states=2;train=8/9;test=8.5";
    let output = common::run_cli(
        "train",
        &[
            "--quiet",
            "--system",
            "custom",
            "--equation",
            equation,
            "--iterations",
            "3",
            "--channels",
            "4",
            "--depth",
            "1",
            "--out",
            &out,
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(dir.join("train.json")).expect("train.json");
    let report: Value = serde_json::from_str(&text).expect("JSON");
    let system = report["config"]["system"].as_str().expect("system");
    assert!(
        system.starts_with("custom:a2=-1,a4=-1,b=-1;coarse=2"),
        "{system}"
    );
    assert_eq!(report["loss_history"].as_array().expect("losses").len(), 3);
}
