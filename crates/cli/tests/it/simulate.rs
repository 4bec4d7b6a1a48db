//! The `unroll-lab simulate` contract: good arguments print the JSON trajectory; bad arguments or
//! files exit with code 2 and a one-line message; divergence prints the finite prefix, exit 0.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    common::run_cli("simulate", args)
}

fn json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is JSON")
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("unroll-lab-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

#[test]
fn good_arguments_print_the_trajectory() {
    let value = json(&run(&[
        "--scheme",
        "etd1",
        "--domain-size",
        "9.6",
        "--steps",
        "3",
        "--resolution",
        "16",
        "--init",
        "paper-train:2",
    ]));
    assert_eq!(value["system"], "ks");
    assert_eq!(value["scheme"], "etd1");
    assert_eq!(value["domain_size"], 9.6);
    assert_eq!(value["substep"], 0.5);
    assert_eq!(value["substeps"], 2);
    assert_eq!(value["resolution"], 16);
    let states = value["states"].as_array().expect("states");
    assert_eq!(states.len(), 4);
    for state in states {
        assert_eq!(state.as_array().expect("row").len(), 16);
    }
    assert!(value.get("diverged_at").is_none());
}

#[test]
fn defaults_test_ics_and_f32_path_agree_with_the_reference() {
    let f64_run = json(&run(&["--steps", "2", "--init", "paper-test:5"]));
    let f32_run = json(&run(&[
        "--steps",
        "2",
        "--init",
        "paper-test:5",
        "--precision",
        "f32",
    ]));
    assert_eq!(f64_run["scheme"], "etrk2");
    assert_eq!(f64_run["resolution"], 48);
    let a = f64_run["states"].as_array().expect("states");
    let b = f32_run["states"].as_array().expect("states");
    assert_eq!(a.len(), 3);
    assert_eq!(b.len(), 3);
    for (ra, rb) in a.iter().zip(b) {
        for (x, y) in ra
            .as_array()
            .expect("row")
            .iter()
            .zip(rb.as_array().expect("row"))
        {
            let (x, y) = (x.as_f64().expect("num"), y.as_f64().expect("num"));
            assert!((x - y).abs() < 1e-4, "{x} vs {y}");
        }
    }
}

#[test]
fn user_file_state_is_the_first_state() {
    let values: Vec<f64> = (0..8).map(|j| 0.1 * j as f64).collect();
    let path = temp_file("good.json", &serde_json::to_string(&values).expect("json"));
    let value = json(&run(&[
        "--resolution",
        "8",
        "--steps",
        "0",
        "--scheme",
        "etdrk4",
        "--init",
        path.to_str().expect("path"),
    ]));
    let states = value["states"].as_array().expect("states");
    assert_eq!(states.len(), 1);
    let first: Vec<f64> = serde_json::from_value(states[0].clone()).expect("row");
    assert_eq!(first, values);
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    assert_usage_error(&["--scheme", "rk4"], "scheme");
    assert_usage_error(&["--steps", "-3"], "steps");
    assert_usage_error(&["--steps", "three"], "steps");
    assert_usage_error(&["--resolution", "4"], "resolution");
    assert_usage_error(&["--init", "paper-train:6"], "0..6");
    assert_usage_error(&["--precision", "f16"], "precision");
}

/// Every system of the registry simulates through `--system`; Burgers with its own flags.
#[test]
fn burgers_simulates_through_the_registry() {
    let value = json(&run(&[
        "--system",
        "burgers",
        "--steps",
        "3",
        "--viscosity",
        "0.05",
    ]));
    assert_eq!(value["system"], "burgers");
    assert_eq!(value["scheme"], "etdrk4");
    assert_eq!(value["viscosity"], 0.05);
    assert_eq!(value["substeps"], 10);
    assert_eq!(value["resolution"], 48);
    let states = value["states"].as_array().expect("states");
    assert_eq!(states.len(), 4);
    assert!(value.get("diverged_at").is_none());
    let first: Vec<f64> = states[0]
        .as_array()
        .expect("row")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    assert_eq!(first.len(), 48);
    assert!(first.iter().any(|v| v.abs() > 0.1), "a train:0 state");
    let coarse = json(&run(&[
        "--system", "burgers", "--scheme", "etd1", "--steps", "2",
    ]));
    assert_eq!(coarse["substeps"], 1);
    assert_eq!(
        coarse["states"][0], value["states"][0],
        "the same train:0 start"
    );
}

#[test]
fn each_system_refuses_the_flags_of_the_others() {
    assert_usage_error(
        &["--system", "burgers", "--reynolds", "100"],
        "--reynolds does not apply to --system burgers",
    );
    assert_usage_error(
        &["--system", "burgers", "--precision", "f32"],
        "--precision does not apply to --system burgers",
    );
    assert_usage_error(
        &["--viscosity", "0.02"],
        "--viscosity does not apply to --system ks",
    );
    assert_usage_error(&["--system", "burgers", "--viscosity", "5"], "viscosity");
    assert_usage_error(
        &["--system", "burgers", "--scheme", "etrk2"],
        "etdrk4 or etd1",
    );
    assert_usage_error(&["--system", "burgers", "--init", "train:99"], "99");
    assert_usage_error(
        &["--system", "navier"],
        "unknown system 'navier' (expected ks, kolmogorov, burgers or custom:EQUATION)",
    );
}

#[test]
fn bad_files_exit_2_with_one_line() {
    let short = temp_file("short.json", "[1, 2, 3]");
    assert_usage_error(&["--init", short.to_str().expect("path")], "3 values");
    let words = temp_file("words.json", r#"["a", "b", 1, 2, 3, 4, 5, 6]"#);
    assert_usage_error(
        &["--resolution", "8", "--init", words.to_str().expect("path")],
        "not a JSON array of numbers",
    );
    assert_usage_error(&["--init", "/nonexistent/unroll-lab.json"], "cannot read");
}

#[test]
fn divergence_prints_the_finite_prefix_and_exits_0() {
    let values: Vec<f64> = (0..8)
        .map(|j| 50.0 * if j % 2 == 0 { 1.0 } else { -1.0 } + 30.0 * (j % 3) as f64)
        .collect();
    let path = temp_file("big.json", &serde_json::to_string(&values).expect("json"));
    for precision in ["f64", "f32"] {
        let value = json(&run(&[
            "--scheme",
            "etd1",
            "--resolution",
            "8",
            "--steps",
            "50",
            "--precision",
            precision,
            "--init",
            path.to_str().expect("path"),
        ]));
        let diverged_at = value["diverged_at"].as_u64().expect("diverged_at") as usize;
        let states = value["states"].as_array().expect("states");
        assert_eq!(states.len(), diverged_at);
        assert!(diverged_at > 0 && diverged_at < 51);
        for state in states {
            for v in state.as_array().expect("row") {
                assert!(v.as_f64().expect("finite number").is_finite());
            }
        }
    }
}

#[test]
fn bench_solver_json_has_the_figures() {
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args([
            "bench",
            "solver",
            "--json",
            "--steps",
            "2",
            "--kept-frames",
            "2",
        ])
        .output()
        .expect("run unroll-lab");
    let value = json(&output);
    assert_eq!(value["trajectories"], 36);
    assert_eq!(value["resolution"], 48);
    let figures = value["figures"].as_array().expect("figures");
    assert_eq!(figures.len(), 4);
    for figure in figures {
        assert!(figure["batch_steps_per_second"].as_f64().expect("rate") > 0.0);
    }
    assert!(figures[1]["gflops"].as_f64().expect("gflops") > 0.0);
    assert!(value["training_set_seconds"].as_f64().expect("seconds") >= 0.0);
}

/// `bench train --profile` counts every gemm call of an iteration: P-ONE's ResNet1D 16×10 makes
/// 65 (ten fused residual blocks of two products forward and four backward, the input conv's
/// product and its weight gradient, the output conv's product and both gradients); unrolling
/// makes more; correction adds the solver's products.
#[test]
fn bench_train_profile_counts_gemm_calls() {
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(["bench", "train", "--profile", "--json", "--iterations", "1"])
        .output()
        .expect("run unroll-lab");
    let value = json(&output);
    let gemms = |mode: &str, modality: &str| {
        value["variants"]
            .as_array()
            .expect("variants")
            .iter()
            .find(|v| v["mode"] == mode && v["modality"] == modality)
            .and_then(|v| v["gemm_calls_per_iteration"].as_f64())
            .expect("gemm calls")
    };
    assert_eq!(gemms("predict", "one"), (10 * 6 + 2 + 3) as f64);
    assert!(gemms("predict", "wig") > 2.0 * gemms("predict", "one"));
    assert!(gemms("correct", "one") > gemms("predict", "one"));
}

/// `bench train --system kolmogorov` times the study's correction variants (C-ONE, C-NOG, C-WIG)
/// of the smallest 2-D ResNet and reports counted GFLOP/s and, with `--profile`, the solver's
/// forward and backward time (WIG only differentiates through PISO).
#[test]
fn bench_train_times_kolmogorov_with_the_solver_split() {
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args([
            "bench",
            "train",
            "--system",
            "kolmogorov",
            "--profile",
            "--json",
        ])
        .args(["--iterations", "1"])
        .output()
        .expect("run unroll-lab");
    let value = json(&output);
    assert_eq!(value["system"], "kolmogorov");
    let variants = value["variants"].as_array().expect("variants");
    let labels: Vec<String> = variants
        .iter()
        .map(|v| {
            format!(
                "{}-{}",
                v["mode"].as_str().unwrap_or(""),
                v["modality"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(labels, ["correct-one", "correct-nog", "correct-wig"]);
    for label in ["C-ONE", "C-NOG", "C-WIG"] {
        assert!(
            value["gflops"][label].as_f64().expect("gflops") > 0.0,
            "{label}"
        );
    }
    let phase = |v: &Value, name: &str| v["phases_ms"][name].as_f64().expect(name);
    assert!(phase(&variants[2], "solver") > 0.0);
    assert!(phase(&variants[2], "solver backward") > 0.0);
    assert_eq!(phase(&variants[1], "solver backward"), 0.0);
    assert!(phase(&variants[0], "network backward") > 0.0);
}

/// `bench train --ensemble` times the architecture it is given (every 1-D one has a member
/// axis), and on the CPU counts no GPU launches.
#[test]
fn bench_train_ensembles_time_the_architecture_given() {
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(["bench", "train", "--architecture", "gcn", "--ensemble", "2"])
        .args(["--json", "--iterations", "1"])
        .output()
        .expect("run unroll-lab");
    let value = json(&output);
    let variants = value.as_array().expect("variants");
    assert_eq!(variants.len(), 6);
    for variant in variants {
        assert!(
            variant["network"]
                .as_str()
                .is_some_and(|n| n.starts_with("gcn ")),
            "{variant}"
        );
        assert_eq!(variant["sizes"][0]["members"], 2);
        assert!(variant.get("alone_gpu_launches_per_iteration").is_none());
    }
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let output = common::assert_usage_error("simulate", args, needle);
    assert!(output.stdout.is_empty());
}
