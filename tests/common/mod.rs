//! Helpers shared by the CLI contract tests.

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
