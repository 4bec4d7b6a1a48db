//! The one-command `study` keeps its work beside its output and resumes by itself: stopped by
//! Ctrl-C (exit 130, each running training saved) and then killed with SIGKILL at a random
//! moment, the same command run again finishes with the results of a run never disturbed (bit
//! for bit but the timings) and removes its work directory; another study is refused the
//! directory.
#![cfg(unix)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{assert_usage_error, path, results_without_timing, scratch, study, tiny_study};

/// Iterations per training: long enough that a stop lands in training.
const ITERATIONS: &str = "600";

/// `study` with the tiny study's flags, `--out out`, checkpoints every 0.2 s, started.
fn start(out: &Path) -> Child {
    let mut args = vec![
        "study",
        "--quiet",
        "--checkpoint-every",
        "0.2",
        "--out",
        path(out),
    ];
    args.extend(tiny_study(ITERATIONS));
    Command::new(env!("CARGO_BIN_EXE_unroll-lab"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start unroll-lab")
}

/// Sends `signal` to `child` after `after`, unless it has ended by then.
fn signal_after(child: &mut Child, signal: &str, after: Duration) {
    let start = Instant::now();
    while start.elapsed() < after {
        if child.try_wait().expect("wait").is_some() {
            panic!("the study ended before the {signal} at {after:?}: make it longer");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    let sent = Command::new("kill").args(["-s", signal, &pid]).status();
    assert!(sent.expect("kill").success());
}

#[test]
fn a_stopped_then_killed_study_resumes_to_the_undisturbed_results() {
    let dir = scratch("study", "resume");
    let straight = dir.join("straight.json");
    let clock = Instant::now();
    let mut args = vec!["--quiet", "--out", path(&straight)];
    args.extend(tiny_study(ITERATIONS));
    study(&args);
    let whole = clock.elapsed();
    assert!(
        !dir.join("straight.json.cells").exists(),
        "a finished study removes its work"
    );

    // Ctrl-C a third of the way in: exit 130, the work kept, the way to resume said.
    let out = dir.join("resumed.json");
    let mut child = start(&out);
    signal_after(&mut child, "INT", whole / 3);
    let stopped = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("run the same command again to resume from"),
        "{stderr}"
    );
    let work = dir.join("resumed.json.cells");
    assert!(
        work.join("plan.json").is_file() && !out.exists(),
        "{stderr}"
    );

    // SIGKILL at a random moment of the rerun: nothing can be saved then.
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .expect("clock");
    let at = whole.mul_f64(0.1 + 0.4 * f64::from(nanos.subsec_nanos() % 1000) / 1000.0);
    let mut child = start(&out);
    signal_after(&mut child, "KILL", at);
    let killed = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&killed.stderr);
    assert!(
        stderr.contains("resuming the study in"),
        "killed at {at:?}: {stderr}"
    );

    let last = start(&out).wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&last.stderr);
    assert!(last.status.success(), "killed at {at:?}: {stderr}");
    assert!(stderr.contains("resuming the study in"), "{stderr}");
    assert_eq!(
        results_without_timing(&out),
        results_without_timing(&straight),
        "killed at {at:?}"
    );
    assert!(!work.exists(), "the finished study removed {work:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_study_is_refused_the_work_directory() {
    let dir = scratch("study", "foreign");
    let out = dir.join("out.json");
    let work = dir.join("work");
    let mut first = vec![
        "--quiet",
        "--iterations",
        "4",
        "--out",
        path(&out),
        "--work",
        path(&work),
    ];
    first.extend(["--checkpoint-every", "0", "--seeds", "1", "--rollout", "24"]);
    // A plan in the work directory, as a killed run leaves it.
    std::fs::create_dir_all(&work).expect("work");
    let mut plan = vec!["plan", "--no-estimate", "--out"];
    let plan_path = work.join("plan.json");
    plan.push(path(&plan_path));
    plan.extend(["--iterations", "5", "--seeds", "1", "--rollout", "24"]);
    study(&plan);
    assert_usage_error("study", &first, "holds the cells of another study");
    assert!(plan_path.is_file(), "nothing is removed");
    let _ = std::fs::remove_dir_all(&dir);
}
