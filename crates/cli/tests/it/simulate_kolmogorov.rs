//! The `unroll-lab simulate --system kolmogorov` contract: `{"vorticity": [[…]]}` in, frames of
//! `{"vorticity": [[…]]}` out; bad arguments or files exit with code 2 and one line.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use std::f64::consts::TAU;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;
use unroll_core::kolmogorov::staggered::{coarse_from_fine, vorticity_from_velocity};

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
    let path = std::env::temp_dir().join(format!(
        "unroll-lab-kolmogorov-{}-{name}",
        std::process::id()
    ));
    std::fs::write(&path, contents).expect("write temp file");
    path
}

/// `ω = 2 sin x sin y + 0.5 cos(2x + y)` on N×N, `[row = y][column = x]`.
fn smooth_field(n: usize) -> Vec<Vec<f64>> {
    let h = TAU / n as f64;
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let (x, y) = (j as f64 * h, i as f64 * h);
                    2.0 * x.sin() * y.sin() + 0.5 * (2.0 * x + y).cos()
                })
                .collect()
        })
        .collect()
}

fn init_file(name: &str, field: &[Vec<f64>]) -> PathBuf {
    temp_file(name, &serde_json::json!({ "vorticity": field }).to_string())
}

fn frames(value: &Value) -> Vec<Vec<Vec<f64>>> {
    value["states"]
        .as_array()
        .expect("states")
        .iter()
        .map(|state| serde_json::from_value(state["vorticity"].clone()).expect("N×N numbers"))
        .collect()
}

fn simulate(scheme: &str, resolution: &str, path: &str, steps: &str, every: &str) -> Value {
    json(&run(&[
        "--system",
        "kolmogorov",
        "--scheme",
        scheme,
        "--resolution",
        resolution,
        "--reynolds",
        "50",
        "--dt",
        "0.02",
        "--steps",
        steps,
        "--every",
        every,
        "--init",
        path,
    ]))
}

/// The relative rms difference at t = 0.2 between the coarse solver's curl and the truth as the
/// N×N grid represents it (the curl of its face averages).
fn coarse_error(n: usize, spectral: &Value, coarse: &Value) -> f64 {
    let (a, b) = (frames(spectral), frames(coarse));
    let truth: Vec<f64> = a[2].iter().flatten().copied().collect();
    let truth =
        vorticity_from_velocity(n, &coarse_from_fine(&truth, n, n).expect("down")).expect("curl");
    let (mut difference, mut norm) = (0.0, 0.0);
    for (x, y) in truth.iter().zip(b[2].iter().flatten()) {
        difference += (x - y) * (x - y);
        norm += x * x;
    }
    (difference / norm).sqrt()
}

#[test]
fn both_schemes_print_frames_and_converge_to_each_other() {
    let mut errors = Vec::new();
    for n in [32, 64] {
        let field = smooth_field(n);
        let path = init_file(&format!("smooth{n}.json"), &field);
        let path = path.to_str().expect("path");
        let size = n.to_string();
        let spectral = simulate("spectral", &size, path, "10", "5");
        let coarse = simulate("coarse", &size, path, "10", "5");
        for value in [&spectral, &coarse] {
            assert_eq!(value["system"], "kolmogorov");
            assert_eq!(value["resolution"], n);
            assert_eq!(value["reynolds"], 50.0);
            assert_eq!(value["dt"], 0.02);
            assert_eq!(value["every"], 5);
            assert!(value.get("diverged_at").is_none());
            let frames = frames(value);
            assert_eq!(frames.len(), 3);
            for frame in &frames {
                assert_eq!(frame.len(), n);
                assert!(frame.iter().all(|row| row.len() == n));
            }
            // states[0] is the (mean-free) input.
            for (got, want) in frames[0].iter().flatten().zip(field.iter().flatten()) {
                assert!((got - want).abs() < 1e-12, "{got} vs {want}");
            }
        }
        assert_eq!(spectral["scheme"], "spectral");
        assert_eq!(coarse["scheme"], "coarse");
        errors.push(coarse_error(n, &spectral, &coarse));
    }
    eprintln!("coarse vs spectral at t = 0.2, 32² and 64²: {errors:?}");
    // The forced k = 6 mode dominates: (6h)² ≈ 1.4 on 32², so a few per cent there.
    assert!(errors[0] < 0.06, "32²: {errors:?}");
    assert!(errors[0] / errors[1] > 3.0, "not second order: {errors:?}");
}

#[test]
fn piso_prints_frames_close_to_the_spectral_truth() {
    let n = 32;
    let field = smooth_field(n);
    let path = init_file("smooth_piso.json", &field);
    let path = path.to_str().expect("path");
    let spectral = simulate("spectral", "32", path, "10", "5");
    let piso = simulate("piso", "32", path, "10", "5");
    assert_eq!(piso["scheme"], "piso");
    assert_eq!(frames(&piso).len(), 3);
    for (got, want) in frames(&piso)[0]
        .iter()
        .flatten()
        .zip(field.iter().flatten())
    {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    let error = coarse_error(n, &spectral, &piso);
    eprintln!("PISO vs spectral at t = 0.2, 32²: {error:.4}");
    assert!(error < 0.1, "{error}");
}

#[test]
fn divergence_prints_the_finite_prefix_and_exits_0() {
    let field: Vec<Vec<f64>> = (0..20)
        .map(|i| {
            (0..20)
                .map(|j| 1e3 * ((i * 7 + j * 3) % 5) as f64 - 2e3)
                .collect()
        })
        .collect();
    let path = init_file("big.json", &field);
    for scheme in ["spectral", "coarse"] {
        let value = json(&run(&[
            "--system",
            "kolmogorov",
            "--scheme",
            scheme,
            "--reynolds",
            "1000",
            "--dt",
            "1",
            "--steps",
            "50",
            "--init",
            path.to_str().expect("path"),
        ]));
        let diverged_at = value["diverged_at"].as_u64().expect("diverged_at") as usize;
        let frames = frames(&value);
        assert_eq!(frames.len(), diverged_at, "{scheme}");
        assert!(diverged_at > 0 && diverged_at < 51);
    }
}

/// `--solver` runs a study's set-up: on a divergence-free start `piso-advective` (the official
/// diagonal) is `--scheme piso` to round-off, `ssp-rk3` is `--scheme coarse`; the output names
/// the set-up; with `--scheme`, or an unknown name, it is a usage error.
#[test]
fn solver_setups_run_and_name_themselves() {
    let path = init_file("setups.json", &smooth_field(16));
    let init = path.to_str().expect("path");
    let with = |flag: &str, name: &str| {
        json(&run(&[
            "--system",
            "kolmogorov",
            flag,
            name,
            "--reynolds",
            "300",
            "--dt",
            "0.02",
            "--steps",
            "5",
            "--init",
            init,
        ]))
    };
    let flat =
        |value: &Value| -> Vec<f64> { frames(value).into_iter().flatten().flatten().collect() };
    let advective = with("--solver", "piso-advective");
    assert_eq!(advective["scheme"], "piso-advective");
    let piso = flat(&with("--scheme", "piso"));
    let worst = flat(&advective)
        .iter()
        .zip(&piso)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-9, "{worst:e}");
    assert_eq!(
        flat(&with("--solver", "ssp-rk3")),
        flat(&with("--scheme", "coarse"))
    );
    let base = [
        "--system",
        "kolmogorov",
        "--reynolds",
        "300",
        "--dt",
        "0.02",
        "--init",
        init,
    ];
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--solver", "piso", "--scheme", "piso"])
        .collect();
    assert_usage_error(&args, "not both");
    let args: Vec<&str> = base.iter().copied().chain(["--solver", "heun"]).collect();
    assert_usage_error(&args, "piso-advective");
    let _ = std::fs::remove_file(path);
}

fn assert_usage_error(args: &[&str], needle: &str) {
    let output = common::assert_usage_error("simulate", args, needle);
    assert!(output.stdout.is_empty());
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let path = init_file("good.json", &smooth_field(8));
    let init = path.to_str().expect("path");
    let base = [
        "--system",
        "kolmogorov",
        "--reynolds",
        "100",
        "--dt",
        "0.02",
        "--init",
        init,
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    for (extra, needle) in [
        (&["--scheme", "etd1"][..], "spectral or coarse"),
        (&["--every", "0"][..], "--every"),
        (&["--every", "-1"][..], "every"),
        (&["--steps", "-1"][..], "steps"),
        (&["--resolution", "16"][..], "8×8"),
        (&["--domain-size", "9"][..], "--domain-size"),
        (&["--substeps", "2"][..], "--substeps"),
        (&["--precision", "f32"][..], "--precision"),
    ] {
        let args = with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_usage_error(&args, needle);
    }
    let no_init = [
        "--system",
        "kolmogorov",
        "--reynolds",
        "100",
        "--dt",
        "0.02",
    ];
    assert_usage_error(&no_init, "--init");
    assert_usage_error(
        &[
            "--system",
            "kolmogorov",
            "--reynolds",
            "0",
            "--dt",
            "0.02",
            "--init",
            init,
        ],
        "Reynolds",
    );
    assert_usage_error(
        &[
            "--system",
            "kolmogorov",
            "--reynolds",
            "100",
            "--dt",
            "-0.1",
            "--init",
            init,
        ],
        "time step",
    );
    assert_usage_error(
        &["--system", "kolmogorov", "--dt", "0.02", "--init", init],
        "--reynolds",
    );
    assert_usage_error(
        &[
            "--system",
            "kolmogorov",
            "--reynolds",
            "100",
            "--init",
            init,
        ],
        "--dt",
    );
    assert_usage_error(&["--system", "navier"], "system");
    // The spectral solver's 2/3 rule must keep the forcing's k = 6 (8×8 is too coarse).
    let spectral = with(&["--scheme", "spectral"]);
    let spectral: Vec<&str> = spectral.iter().map(String::as_str).collect();
    assert_usage_error(&spectral, "at least 20");
    // Kolmogorov-only flags are refused for KS.
    assert_usage_error(&["--reynolds", "100"], "--reynolds");
    assert_usage_error(&["--every", "2"], "--every");
}

#[test]
fn bad_files_exit_2_with_one_line() {
    let base = [
        "--system",
        "kolmogorov",
        "--reynolds",
        "100",
        "--dt",
        "0.02",
        "--init",
    ];
    let check = |name: &str, contents: &str, needle: &str| {
        let path = temp_file(name, contents);
        let mut args = base.to_vec();
        args.push(path.to_str().expect("path"));
        assert_usage_error(&args, needle);
    };
    let ragged: Vec<Vec<f64>> = (0..8)
        .map(|i| vec![0.0; if i == 3 { 7 } else { 8 }])
        .collect();
    check(
        "ragged.json",
        &serde_json::json!({ "vorticity": ragged }).to_string(),
        "square",
    );
    check(
        "odd.json",
        &serde_json::json!({ "vorticity": vec![vec![0.0; 9]; 9] }).to_string(),
        "resolution",
    );
    check("array.json", "[1, 2, 3]", "not a JSON object");
    check("huge.json", r#"{"vorticity": [[1e999]]}"#, "cannot read");
    let mut args = base.to_vec();
    args.push("/nonexistent/unroll-lab-kolmogorov.json");
    assert_usage_error(&args, "cannot read");
}

/// `bench statistics --system kolmogorov` is the flow's own bench (its figures as JSON, its
/// flags checked by the system); a system without a statistics or a solver bench is refused
/// with exit 2.
#[test]
fn bench_statistics_is_a_systems_capability() {
    let args = [
        "statistics",
        "--system",
        "kolmogorov",
        "--json",
        "--spinup-time",
        "0.02",
        "--samples",
        "3",
        "--max-lag",
        "1",
        "--coarse-steps",
        "2",
        "--coarse-scheme",
        "piso",
    ];
    let value = json(&common::run_cli("bench", &args));
    assert_eq!(value["reynolds"], 600.0);
    assert_eq!(value["samples"], 3);
    assert_eq!(value["correlation"].as_array().map(Vec::len), Some(2));
    assert_eq!(value["coarse"][0]["scheme"], "piso");
    assert_eq!(value["coarse"][0]["steps"], 2);
    common::assert_usage_error(
        "bench",
        &["statistics", "--system", "ks"],
        "has no statistics bench",
    );
    common::assert_usage_error(
        "bench",
        &["solver", "--system", "kolmogorov"],
        "has no solver bench",
    );
    common::assert_usage_error(
        "bench",
        &[
            "statistics",
            "--system",
            "kolmogorov",
            "--coarse-scheme",
            "rk9",
        ],
        "unknown --coarse-scheme 'rk9'",
    );
}
