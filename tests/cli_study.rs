//! `unroll-lab study` argument errors exit 2 with a one-line message (the full study runs are
//! measured, not tested: see the README's reproduction; a tiny end-to-end study is a unit test
//! of `numerics::study::runner`).
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn assert_usage_error(args: &[&str], needle: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .arg("study")
        .args(args)
        .output()
        .expect("run unroll-lab");
    assert_eq!(output.status.code(), Some(2), "args {args:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains(needle),
        "{stderr:?} should mention {needle:?}"
    );
}

#[test]
fn bad_arguments_exit_2() {
    assert_usage_error(&["--preset", "everything"], "unknown preset 'everything'");
    assert_usage_error(&["--seeds", "0"], "--seeds must be at least 1");
    assert_usage_error(&["--seeds", "-2"], "--seeds must be non-negative");
    assert_usage_error(&["--iterations", "0"], "iterations");
    assert_usage_error(&["--bogus"], "--bogus");
    assert_usage_error(&["--modes", "correct,fast"], "unknown mode 'fast'");
    assert_usage_error(&["--modalities", "nog,all"], "unknown modality 'all'");
}
