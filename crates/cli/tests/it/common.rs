//! Helpers shared by the CLI contract tests (each test crate uses some of them).
#![allow(
    dead_code,
    reason = "each test crate includes every helper and uses some"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `unroll-lab <command> <args…>`.
pub fn run_cli(command: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .arg(command)
        .args(args)
        .output()
        .expect("run unroll-lab")
}

/// `unroll-lab <command> <args…>` is a usage error: exit code 2 and one line on stderr that
/// mentions `needle`. Returns the output for further checks.
pub fn assert_usage_error(command: &str, args: &[&str], needle: &str) -> Output {
    let output = run_cli(command, args);
    assert_eq!(output.status.code(), Some(2), "args {args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains(needle),
        "{stderr:?} should mention {needle:?}"
    );
    output
}

/// A fresh directory for one test: `unroll-lab-<kind>-<pid>-<name>` in the temporary folder.
pub fn scratch(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("unroll-lab-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// `p` as text (the tests' paths are UTF-8).
pub fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Runs `unroll-lab study <args>`; its stdout, or a panic with its stderr.
pub fn study(args: &[&str]) -> String {
    let output = run_cli("study", args);
    assert!(
        output.status.success(),
        "study {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A results file without its timing (wall time, iterations/s), which no two runs share.
pub fn results_without_timing(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("results");
    let mut results: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    results["wall_secs"] = 0.into();
    for variant in results["variants"].as_array_mut().expect("variants") {
        for training in variant["training"].as_array_mut().expect("training") {
            training["iterations_per_sec"] = 0.into();
        }
    }
    results
}

/// The flags of a tiny study: two modes × two modalities of a 4 × 1 network, two seeds,
/// `iterations` iterations each, a 24-step rollout (8 trainings, 8 cells).
pub fn tiny_study(iterations: &'static str) -> [&'static str; 16] {
    [
        "--preset",
        "quick",
        "--seeds",
        "2",
        "--iterations",
        iterations,
        "--rollout",
        "24",
        "--modes",
        "predict,correct",
        "--modalities",
        "one,wig",
        "--channels",
        "4",
        "--depth",
        "1",
    ]
}

/// Writes the plan of the study `flags` to `dir/plan.json` (no estimate): its path and what
/// `study plan` printed.
pub fn write_plan(dir: &Path, flags: &[&str]) -> (PathBuf, String) {
    let plan = dir.join("plan.json");
    let mut args = vec!["plan", "--no-estimate", "--out", path(&plan)];
    args.extend(flags);
    let printed = study(&args);
    (plan, printed)
}
