//! `unroll-lab study plan | run-cell | merge | status | slurm | adopt`: a study run cell by cell
//! through the files merges into the one-process study's results; reruns skip done cells; a
//! plan adopts the cells another plan ran; bad plans, indices and directories exit 2 with one
//! line; missing cells are named. The real Slurm run is
//! `tests/cluster/run.sh`.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::path::{Path, PathBuf};

use common::{
    assert_usage_error, path, results_without_timing, run_cli, scratch, study, tiny_study,
    write_plan,
};

/// Iterations per training of the cells' tiny study ([`tiny_study`]).
const ITERATIONS: &str = "8";

fn plan(dir: &Path) -> PathBuf {
    let (plan, printed) = write_plan(dir, &tiny_study(ITERATIONS));
    assert!(printed.contains(": 8 cells,"), "{printed}");
    plan
}

#[test]
fn cells_run_one_by_one_merge_into_the_one_process_results() {
    let dir = scratch("cells", "merge");
    let single = dir.join("single.json");
    let mut args = vec!["--quiet", "--out", path(&single)];
    args.extend(tiny_study(ITERATIONS));
    study(&args);
    let plan = plan(&dir);
    let cells = dir.join("cells");
    // Out of order, as a scheduler may run them.
    for cell in [7, 0, 3, 1, 6, 2, 5, 4] {
        let printed = study(&[
            "run-cell",
            "--plan",
            path(&plan),
            "--cell",
            &cell.to_string(),
            "--out",
            path(&cells),
        ]);
        assert!(printed.starts_with(&format!("cell {cell} (")), "{printed}");
        assert!(cells.join(format!("cell-{cell:05}.json")).is_file());
    }
    let rerun = study(&[
        "run-cell",
        "--plan",
        path(&plan),
        "--cell",
        "3",
        "--out",
        path(&cells),
    ]);
    assert!(rerun.contains("is already done: skipped"), "{rerun}");
    let status = study(&["status", "--plan", path(&plan), path(&cells)]);
    assert!(status.contains("8 of 8 cells done"), "{status}");
    let merged = dir.join("merged.json");
    let printed = study(&[
        "merge",
        "--plan",
        path(&plan),
        "--out",
        path(&merged),
        path(&cells),
    ]);
    assert!(printed.contains("merged 8 cells of plan"), "{printed}");
    assert_eq!(
        results_without_timing(&merged),
        results_without_timing(&single)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_cells_are_named_and_a_partial_merge_says_so() {
    let dir = scratch("cells", "partial");
    let plan = plan(&dir);
    let cells = dir.join("cells");
    study(&[
        "run-cell",
        "--plan",
        path(&plan),
        "--cell",
        "2",
        "--out",
        path(&cells),
    ]);
    let output = run_cli(
        "study",
        &[
            "merge",
            "--plan",
            path(&plan),
            "--out",
            path(&dir.join("r.json")),
            path(&cells),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot merge: 7 of 8 cells are not done"),
        "{stderr}"
    );
    assert!(
        stderr.contains("cell 0 (P-ONE 4×1 m=3 seed 0) missing"),
        "{stderr}"
    );
    let status = study(&["status", "--plan", path(&plan), path(&cells)]);
    assert!(status.contains("1 of 8 cells done"), "{status}");
    assert!(status.contains("to resubmit: --array=0-1,3-7"), "{status}");
    let partial = dir.join("partial.json");
    let printed = study(&[
        "merge",
        "--allow-partial",
        "--plan",
        path(&plan),
        "--out",
        path(&partial),
        path(&cells),
    ]);
    assert!(
        printed.contains("partial: 7 of 8 cells missing"),
        "{printed}"
    );
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&partial).expect("file")).expect("JSON");
    assert_eq!(results["missing_cells"].as_array().map(Vec::len), Some(7));
    assert_eq!(results["variants"].as_array().map(Vec::len), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_plans_cells_and_directories_exit_2() {
    let dir = scratch("cells", "bad");
    let plan = plan(&dir);
    let cells = dir.join("cells");
    assert_usage_error(
        "study",
        &[
            "run-cell",
            "--plan",
            path(&plan),
            "--cell",
            "8",
            "--out",
            path(&cells),
        ],
        "no cell 8: the plan has cells 0–7",
    );
    assert_usage_error(
        "study",
        &[
            "run-cell",
            "--plan",
            "/nonexistent/plan.json",
            "--cell",
            "0",
            "--out",
            path(&cells),
        ],
        "cannot read /nonexistent/plan.json",
    );
    let edited = dir.join("edited.json");
    let text = std::fs::read_to_string(&plan).expect("plan");
    std::fs::write(
        &edited,
        text.replacen("\"iterations\":8", "\"iterations\":9", 1),
    )
    .expect("write");
    assert_usage_error(
        "study",
        &["status", "--plan", path(&edited), path(&cells)],
        "does not match its config",
    );
    let results = dir.join("results-not-plan.json");
    std::fs::write(&results, "{\"schema\":\"unroll-lab/results@1\"}").expect("write");
    assert_usage_error(
        "study",
        &[
            "merge",
            "--plan",
            path(&results),
            "--out",
            path(&edited),
            path(&cells),
        ],
        "unsupported plan schema 'unroll-lab/results@1'",
    );
    assert_usage_error(
        "study",
        &["status", "--plan", path(&plan), path(&dir.join("nowhere"))],
        "is not a directory",
    );
    assert_usage_error(
        "study",
        &[
            "run-cell",
            "--plan",
            path(&plan),
            "--cell",
            "0",
            "--out",
            path(&cells),
            "--device",
            "tpu",
        ],
        "unknown device \"tpu\": expected one of cpu, wgpu, cuda",
    );
    assert_usage_error(
        "study",
        &[
            "slurm",
            "--plan",
            path(&plan),
            "--out",
            path(&dir.join("gpu")),
            "--gpus-per-task",
            "1",
        ],
        "--gpus-per-task needs a GPU device for the cells: add --device wgpu",
    );
    // Another plan's result in the way is not overwritten.
    std::fs::create_dir_all(&cells).expect("cells");
    std::fs::write(
        cells.join("cell-00000.json"),
        text.replace("unroll-lab/plan@1", "unroll-lab/cell@1"),
    )
    .expect("write");
    assert_usage_error(
        "study",
        &[
            "run-cell",
            "--plan",
            path(&plan),
            "--cell",
            "0",
            "--out",
            path(&cells),
        ],
        "cell-00000.json is in the way (malformed",
    );
    assert_usage_error(
        "study",
        &[
            "slurm",
            "--plan",
            path(&plan),
            "--out",
            path(&dir),
            "--time",
            "two hours",
        ],
        "--time must be in Slurm's format",
    );
    assert_usage_error(
        "study",
        &["plan", "--preset", "everything", "--out", "x"],
        "unknown preset",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slurm_scripts_run_every_cell_then_the_merge() {
    let dir = scratch("cells", "slurm");
    let plan = plan(&dir);
    let out = dir.join("run");
    let printed = study(&[
        "slurm",
        "--plan",
        path(&plan),
        "--out",
        path(&out),
        "--partition",
        "gpu-short",
        "--time",
        "01:30:00",
        "--cpus",
        "4",
        "--max-parallel",
        "3",
        "--binary",
        "/opt/unroll-lab",
    ]);
    let cells = std::fs::read_to_string(out.join("cells.sbatch")).expect("cells script");
    for line in [
        "#SBATCH --array=0-7%3",
        "#SBATCH --cpus-per-task=4",
        "#SBATCH --time=01:30:00",
        "#SBATCH --partition=gpu-short",
    ] {
        assert!(
            cells.lines().any(|l| l == line),
            "{line} missing in:\n{cells}"
        );
    }
    assert!(
        cells.contains("exec '/opt/unroll-lab' study run-cell --plan '"),
        "{cells}"
    );
    assert!(cells.contains("--cell \"$SLURM_ARRAY_TASK_ID\""), "{cells}");
    let merge = std::fs::read_to_string(out.join("merge.sbatch")).expect("merge script");
    assert!(
        merge.contains("#SBATCH --kill-on-invalid-dep=yes"),
        "{merge}"
    );
    assert!(merge.contains("study merge --plan '"), "{merge}");
    assert!(printed.contains("jid=$(sbatch --parsable '"), "{printed}");
    assert!(
        printed.contains("sbatch --dependency=afterok:$jid '"),
        "{printed}"
    );
    assert!(out.join("logs").is_dir());
    assert!(!cells.contains("--gpus-per-task") && !cells.contains("--device"));
    // A GPU per cell: Slurm's request and the device the cells train on.
    let gpu = dir.join("gpu");
    study(&[
        "slurm",
        "--plan",
        path(&plan),
        "--out",
        path(&gpu),
        "--gpus-per-task",
        "1",
        "--device",
        "wgpu",
    ]);
    let script = std::fs::read_to_string(gpu.join("cells.sbatch")).expect("cells script");
    assert!(
        script.lines().any(|l| l == "#SBATCH --gpus-per-task=1"),
        "{script}"
    );
    assert!(
        script.contains("--cell \"$SLURM_ARRAY_TASK_ID\" --out '")
            && script.contains("' --device wgpu"),
        "{script}"
    );
    // status offers the resubmission with the script's throttle.
    let status = study(&["status", "--plan", path(&plan), path(&out)]);
    assert!(
        status.contains("jid=$(sbatch --parsable --array=0-7%3 '"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cell's result file without its timing (wall and data seconds, iterations/s).
fn cell_without_timing(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("cell result");
    let mut cell: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    cell["wall_secs"] = 0.into();
    cell["data_secs"] = 0.into();
    cell["outcome"]["training"]["iterations_per_sec"] = 0.into();
    cell
}

#[test]
fn a_cell_stopped_at_its_time_limit_resumes_to_the_same_result() {
    let dir = scratch("cells", "resume");
    let plan = dir.join("plan.json");
    let mut args = vec!["plan", "--no-estimate", "--out", path(&plan)];
    // 60 iterations: the stop comes after the first tick of training (20).
    args.extend(tiny_study("60"));
    study(&args);
    let run_output = |out: &Path, extra: &[&str]| {
        let mut args = vec!["run-cell", "--plan", path(&plan), "--cell", "2", "--out"];
        args.push(path(out));
        args.extend(extra);
        run_cli("study", &args)
    };
    let run = |out: &Path, extra: &[&str]| {
        let output = run_output(out, extra);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let straight = dir.join("straight");
    run(&straight, &[]);
    assert!(!straight.join("cell-00002.checkpoint").exists());

    let stopped = dir.join("stopped");
    let printed = run(&stopped, &["--stop-after", "0"]);
    assert!(
        printed.contains("checkpointed at iteration 20 of 60 after "),
        "{printed}"
    );
    assert!(stopped.join("cell-00002.checkpoint").is_file());
    assert!(!stopped.join("cell-00002.json").exists());
    let status = study(&["status", "--plan", path(&plan), path(&stopped)]);
    assert!(
        status.contains("checkpointed at iteration 20 of 60 after "),
        "{status}"
    );
    // The seconds the stopped run spent on the cell, which its finished result must include.
    let before: f64 = status
        .split("checkpointed at iteration 20 of 60 after ")
        .nth(1)
        .and_then(|rest| rest.split(" s").next())
        .and_then(|secs| secs.parse().ok())
        .unwrap_or_else(|| panic!("no seconds in {status}"));
    assert!(before > 0.0, "{status}");

    let output = run_output(&stopped, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("resuming at iteration 20 of 60"),
        "{stderr}"
    );
    assert!(!stopped.join("cell-00002.checkpoint").exists());
    let resumed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(stopped.join("cell-00002.json")).expect("cell result"),
    )
    .expect("JSON");
    let wall = resumed["wall_secs"].as_f64().expect("wall_secs");
    assert!(
        wall > before,
        "the resumed cell's {wall} s leave out the {before} s before the stop"
    );
    assert_eq!(
        cell_without_timing(&stopped.join("cell-00002.json")),
        cell_without_timing(&straight.join("cell-00002.json"))
    );

    // A checkpoint that does not decode stops the cell with a message naming the file.
    let broken = dir.join("broken");
    std::fs::create_dir_all(&broken).expect("dir");
    std::fs::write(broken.join("cell-00002.checkpoint"), b"not a checkpoint").expect("write");
    let output = run_output(&broken, &[]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cell-00002.checkpoint does not decode")
            && stderr.contains("remove the checkpoint to start it afresh"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two cells trained as one ensemble (a variant's two seeds, `--ensemble on`) and stopped at
/// the time limit save one checkpoint that holds both; a rerun resumes the ensemble to the
/// results of the run that did not stop, bit for bit; a rerun that does not train them together
/// is refused with the reason.
#[test]
fn an_ensemble_stopped_at_its_time_limit_resumes_to_the_same_results() {
    let dir = scratch("cells", "resume-ensemble");
    let plan = dir.join("plan.json");
    let mut args = vec!["plan", "--no-estimate", "--out", path(&plan)];
    args.extend(tiny_study("60"));
    study(&args);
    let run_output = |out: &Path, cells: &str, extra: &[&str]| {
        let mut args = vec!["run-cell", "--plan", path(&plan), "--cell", cells, "--out"];
        args.push(path(out));
        args.extend(["--ensemble", "on"]);
        args.extend(extra);
        run_cli("study", &args)
    };
    let run = |out: &Path, extra: &[&str]| {
        let output = run_output(out, "2,3", extra);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        (String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
    };
    let straight = dir.join("straight");
    run(&straight, &[]);

    let stopped = dir.join("stopped");
    let (printed, _) = run(&stopped, &["--stop-after", "0"]);
    for cell in ["cell 2 ", "cell 3 "] {
        let line = printed
            .lines()
            .find(|line| line.starts_with(cell))
            .unwrap_or_else(|| panic!("no line for {cell}in {printed}"));
        assert!(
            line.contains("checkpointed at iteration 10 of 60 after ")
                && line.contains("(in the ensemble of cells 2, 3, saved as cell 2)"),
            "{printed}"
        );
    }
    assert!(stopped.join("cell-00002.checkpoint").is_file());
    assert!(!stopped.join("cell-00003.checkpoint").exists());
    let status = study(&["status", "--plan", path(&plan), path(&stopped)]);
    assert!(
        status.contains("cell 3 (") && status.contains("saved as cell 2"),
        "{status}"
    );

    // Cell 2 alone cannot resume the ensemble's checkpoint: refused, naming the other member.
    let output = run_output(&stopped, "2", &[]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("saved by an ensemble of cells 2, 3 and cell 3 does not run with it"),
        "{stderr}"
    );
    assert!(stopped.join("cell-00002.checkpoint").is_file());
    let _ = std::fs::remove_file(stopped.join("cell-00002.failed.json"));

    let (_, stderr) = run(&stopped, &[]);
    assert!(
        stderr.contains("with cells 3 as one ensemble: resuming at iteration 10 of 60"),
        "{stderr}"
    );
    assert!(!stopped.join("cell-00002.checkpoint").exists());
    for cell in ["cell-00002.json", "cell-00003.json"] {
        assert_eq!(
            cell_without_timing(&stopped.join(cell)),
            cell_without_timing(&straight.join(cell)),
            "{cell}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `run-cell` and `merge` refuse an output they cannot write before any work (exit 2, one line
/// naming it); the cells' folder is made, and nothing is left in it by the check.
#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let dir = scratch("cells", "unwritable");
    let plan = plan(&dir);
    let run_cell = |out: &str| {
        assert_usage_error(
            "study",
            &[
                "run-cell",
                "--plan",
                path(&plan),
                "--cell",
                "0",
                "--out",
                out,
            ],
            out,
        )
    };
    let refused = run_cell("/proc/unroll-lab-cells");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("nothing was run"), "{stderr}");
    let cells = dir.join("cells");
    let merge = |out: &str| {
        assert_usage_error(
            "study",
            &["merge", "--plan", path(&plan), "--out", out, path(&cells)],
            out,
        )
    };
    std::fs::create_dir_all(&cells).expect("cells");
    merge("/proc/unroll-lab-results.json");
    let missing = dir.join("no/such/folder/results.json");
    merge(path(&missing));
    assert_eq!(std::fs::read_dir(&cells).expect("cells").count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `plan --sizes` keeps a subset of a preset's sizes (Kolmogorov's `paper` at its two smallest:
/// 2 sizes × 3 modalities × 1 seed) and refuses a size the preset does not have.
#[test]
fn a_plan_keeps_the_chosen_sizes() {
    let dir = scratch("cells", "sizes");
    let plan = dir.join("plan.json");
    let base = [
        "plan",
        "--no-estimate",
        "--out",
        path(&plan),
        "--system",
        "kolmogorov",
    ];
    let mut args = base.to_vec();
    args.extend(["--preset", "paper", "--seeds", "1", "--sizes", "8x5,8x7"]);
    let printed = study(&args);
    assert!(printed.contains(": 6 cells,"), "{printed}");
    let text = std::fs::read_to_string(&plan).expect("plan");
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(value["config"]["sizes"].as_array().map(Vec::len), Some(2));
    let mut args = base.to_vec();
    args.extend(["--preset", "paper", "--sizes", "8x6"]);
    assert_usage_error("study", &args, "8×6 is not a size of this grid");
    let mut args = base.to_vec();
    args.extend(["--sizes", "8by5"]);
    assert_usage_error("study", &args, "is not C×D");
}

/// A plan of three seeds adopts the two seeds another plan ran and merges into the one-process
/// results of three seeds.
#[test]
fn a_plan_adopts_the_cells_another_plan_ran() {
    let dir = scratch("cells", "adopt");
    let flags = |seeds: &'static str| {
        let mut flags = tiny_study(ITERATIONS).to_vec();
        flags.splice(2..4, ["--seeds", seeds]);
        flags.splice(8..10, ["--modes", "predict"]);
        flags.splice(10..12, ["--modalities", "nog"]);
        flags
    };
    let (two, three) = (dir.join("two"), dir.join("three"));
    std::fs::create_dir_all(&two).expect("dir");
    std::fs::create_dir_all(&three).expect("dir");
    let (two_plan, _) = write_plan(&two, &flags("2"));
    let (three_plan, _) = write_plan(&three, &flags("3"));
    let (two_cells, three_cells) = (two.join("cells"), three.join("cells"));
    let run = |plan: &Path, cells: &Path, list: &str| {
        study(&[
            "run-cell",
            "--plan",
            path(plan),
            "--cell",
            list,
            "--out",
            path(cells),
        ])
    };
    run(&two_plan, &two_cells, "0-1");
    let adopted = study(&[
        "adopt",
        "--plan",
        path(&three_plan),
        "--from-plan",
        path(&two_plan),
        "--from",
        path(&two_cells),
        path(&three_cells),
    ]);
    assert!(
        adopted.contains("cell 1 (P-NOG") && adopted.contains("2 cell(s) adopted"),
        "{adopted}"
    );
    let rest = run(&three_plan, &three_cells, "0-2");
    assert_eq!(
        rest.matches("is already done: skipped").count(),
        2,
        "{rest}"
    );
    let merged = dir.join("merged.json");
    study(&[
        "merge",
        "--plan",
        path(&three_plan),
        "--out",
        path(&merged),
        path(&three_cells),
    ]);
    let single = dir.join("single.json");
    let mut args = vec!["--quiet", "--out", path(&single)];
    args.extend(flags("3"));
    study(&args);
    assert_eq!(
        results_without_timing(&merged),
        results_without_timing(&single)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
