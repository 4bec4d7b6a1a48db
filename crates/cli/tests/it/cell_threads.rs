//! `--jobs`: a study (and a list of cells) run several trainings at once gives exactly the
//! results of one at a time; bad values exit 2 with one line.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{
    assert_usage_error, path, results_without_timing, run_cli, scratch, study, tiny_study,
    write_plan,
};

/// Iterations per training of the tiny study ([`tiny_study`]): 8 trainings.
const ITERATIONS: &str = "6";

#[test]
fn two_jobs_give_exactly_the_results_of_one() {
    let dir = scratch("jobs", "study");
    let run = |jobs: &str| {
        let out = dir.join(format!("results-{jobs}.json"));
        let mut args = vec!["--quiet", "--jobs", jobs, "--out", path(&out)];
        args.extend(tiny_study(ITERATIONS));
        let printed = study(&args);
        assert!(
            printed.contains(&format!("on {jobs} thread(s)")),
            "{printed}"
        );
        results_without_timing(&out)
    };
    let one = run("1");
    assert_eq!(one["variants"].as_array().map(Vec::len), Some(4));
    assert_eq!(run("2"), one);
    assert_eq!(run("3"), one);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The estimate is for the threads that will run: `--jobs`, but no more than the trainings.
#[test]
fn the_estimate_is_for_the_threads_that_run() {
    let dir = scratch("jobs", "estimate");
    let estimate = |jobs: &str| {
        let out = dir.join(format!("results-{jobs}.json"));
        let mut args = vec!["--jobs", jobs, "--out", path(&out)];
        args.extend(tiny_study(ITERATIONS));
        let output = run_cli("study", &args);
        assert!(output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        stderr
            .lines()
            .find(|line| line.starts_with("estimate"))
            .unwrap_or_else(|| panic!("no estimate in {stderr}"))
            .to_string()
    };
    let two = estimate("2");
    assert!(
        two.starts_with("estimate on 2 thread(s): 8 trainings"),
        "{two}"
    );
    let many = estimate("20");
    assert!(
        many.starts_with("estimate on 8 thread(s): 8 trainings"),
        "{many}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_list_of_cells_on_two_jobs_merges_into_the_one_job_study() {
    let dir = scratch("jobs", "cells");
    let (plan, _) = write_plan(&dir, &tiny_study(ITERATIONS));
    let cells = dir.join("cells");
    let printed = study(&[
        "run-cell",
        "--plan",
        path(&plan),
        "--cell",
        "0-3,4,5-7",
        "--jobs",
        "2",
        "--out",
        path(&cells),
    ]);
    assert_eq!(printed.matches(" done in ").count(), 8, "{printed}");
    let again = study(&[
        "run-cell",
        "--plan",
        path(&plan),
        "--cell",
        "2,5",
        "--out",
        path(&cells),
    ]);
    assert_eq!(again.matches("already done: skipped").count(), 2, "{again}");
    let merged = dir.join("merged.json");
    study(&[
        "merge",
        "--plan",
        path(&plan),
        "--out",
        path(&merged),
        path(&cells),
    ]);
    let single = dir.join("single.json");
    let mut args = vec!["--quiet", "--jobs", "1", "--out", path(&single)];
    args.extend(tiny_study(ITERATIONS));
    study(&args);
    assert_eq!(
        results_without_timing(&merged)["variants"],
        results_without_timing(&single)["variants"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_jobs_exit_2() {
    assert_usage_error("study", &["--jobs", "0"], "--jobs must be at least 1");
    assert_usage_error("study", &["--jobs", "two"], "--jobs takes a whole number");
    assert_usage_error("study", &["--jobs", "-1"], "--jobs takes a whole number");
    assert_usage_error(
        "study",
        &[
            "run-cell", "--plan", "p.json", "--cell", "0", "--out", "o", "--jobs", "0",
        ],
        "--jobs must be at least 1",
    );
    assert_usage_error(
        "study",
        &[
            "run-cell", "--plan", "p.json", "--cell", "3-1", "--out", "o",
        ],
        "the range 3-1 is empty",
    );
}
