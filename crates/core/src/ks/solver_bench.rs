//! `unroll-lab bench solver --system ks` (the default system): the solvers' throughput on the
//! 36 training ICs (6 sizes × 6 ICs) at 48 points, the f64 reference and the f32 tensor path on
//! the CPU backend, ETD1 and ETRK2, and the time the training set takes to make.
//!
//! Flags and defaults: `--steps` 200 (learned steps timed per measurement), `--kept-frames` 5000
//! (frames kept per trajectory for the training-set timing; the study's), `--json`.

use std::time::Instant;

use serde::Serialize;

use super::data::{training_set, DataConfig, TRAIN_SCALES};
use super::initial::{train_ic, TRAIN_IC_PARAMETERS};
use super::tensor::read_rows;
use super::{KsConfig, Precision, ReferenceSolver, Scheme, TensorSolver};
use crate::backend;
use crate::system::bench::{emit_figures, Emit, SimulateError, SolverBenchRequest};

/// One solver throughput figure.
#[derive(Debug, Serialize)]
struct SolverFigure {
    scheme: &'static str,
    /// `"reference-f64"` or `"tensor-cpu-f32"`.
    path: &'static str,
    /// Learned steps of the whole batch per second.
    batch_steps_per_second: f64,
    /// Learned steps of single trajectories per second (batch × the above).
    trajectory_steps_per_second: f64,
    /// Achieved GFLOP/s (tensor path only).
    #[serde(skip_serializing_if = "Option::is_none")]
    gflops: Option<f64>,
}

#[derive(Debug, Serialize)]
struct SolverBench {
    trajectories: usize,
    resolution: usize,
    timed_steps: usize,
    figures: Vec<SolverFigure>,
    training_set_kept_frames: usize,
    training_set_seconds: f64,
}

/// The 36 training ICs (6 sizes × 6 ICs) at resolution 48, as rows `[36][48]`.
fn bench_states() -> Result<Vec<(KsConfig, Vec<f64>)>, SimulateError> {
    let mut states = Vec::new();
    for &scale in &TRAIN_SCALES {
        let config = KsConfig::paper(Scheme::Etrk2, scale);
        for index in 0..TRAIN_IC_PARAMETERS.len() {
            states.push((config, train_ic(&config.grid(), index)?));
        }
    }
    Ok(states)
}

fn bench_reference(
    scheme: Scheme,
    states: &[(KsConfig, Vec<f64>)],
    steps: usize,
) -> Result<SolverFigure, SimulateError> {
    let solvers = states
        .iter()
        .map(|(config, _)| ReferenceSolver::new(KsConfig { scheme, ..*config }))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rows: Vec<Vec<f64>> = states.iter().map(|(_, u)| u.clone()).collect();
    let start = Instant::now();
    for _ in 0..steps {
        for (row, solver) in rows.iter_mut().zip(&solvers) {
            *row = solver.step(row);
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-12);
    let batch = rows.len() as f64;
    Ok(SolverFigure {
        scheme: scheme.name(),
        path: "reference-f64",
        batch_steps_per_second: steps as f64 / seconds,
        trajectory_steps_per_second: batch * steps as f64 / seconds,
        gflops: None,
    })
}

/// The tensor path: one `[36, 48]` batch at L = 8 (the cost does not depend on L).
fn bench_tensor(
    scheme: Scheme,
    states: &[(KsConfig, Vec<f64>)],
    steps: usize,
) -> Result<SolverFigure, SimulateError> {
    let config = KsConfig::paper(scheme, 1.0);
    let solver = TensorSolver::new(config, &backend::cpu(), Precision::F32)?;
    let rows: Vec<Vec<f64>> = states.iter().map(|(_, u)| u.clone()).collect();
    let mut state = solver.states(&rows);
    // Warm-up outside the timing.
    for _ in 0..5 {
        state = solver.step(state);
    }
    read_rows(state.clone())?;
    let start = Instant::now();
    for _ in 0..steps {
        state = solver.step(state);
    }
    read_rows(state)?;
    let seconds = start.elapsed().as_secs_f64().max(1e-12);
    let batch = rows.len();
    Ok(SolverFigure {
        scheme: scheme.name(),
        path: "tensor-cpu-f32",
        batch_steps_per_second: steps as f64 / seconds,
        trajectory_steps_per_second: batch as f64 * steps as f64 / seconds,
        gflops: Some(solver.flops_per_step(batch) * steps as f64 / seconds / 1e9),
    })
}

/// The solvers' throughput and the training set's time, printed through `emit`.
pub fn bench_solver(request: &SolverBenchRequest, emit: Emit<'_>) -> Result<(), SimulateError> {
    let steps = request.steps.unwrap_or(200);
    let states = bench_states()?;
    let mut figures = Vec::new();
    for scheme in [Scheme::Etd1, Scheme::Etrk2] {
        figures.push(bench_reference(scheme, &states, steps)?);
        figures.push(bench_tensor(scheme, &states, steps)?);
    }
    let data_config = DataConfig {
        kept_frames: request.kept_frames.unwrap_or(5000),
        ..DataConfig::default()
    };
    let start = Instant::now();
    let set = training_set(&data_config)?;
    let training_set_seconds = start.elapsed().as_secs_f64();
    let bench = SolverBench {
        trajectories: states.len(),
        resolution: KsConfig::default().resolution,
        timed_steps: steps,
        figures,
        training_set_kept_frames: set.first().map_or(0, |t| t.frames()),
        training_set_seconds,
    };
    emit_figures(&bench, request.json, emit, print_bench)
}

/// The table.
fn print_bench(bench: &SolverBench, emit: Emit<'_>) {
    emit(&format!(
        "KS solver: {} trajectories × {} points, {} learned steps (2 sub-steps of h = 0.5)",
        bench.trajectories, bench.resolution, bench.timed_steps
    ));
    for f in &bench.figures {
        let gflops = f
            .gflops
            .map_or(String::new(), |g| format!(", {g:.2} GFLOP/s"));
        emit(&format!(
            "  {:<6} {:<15} {:>10.1} batch steps/s  {:>12.0} trajectory steps/s{}",
            f.scheme, f.path, f.batch_steps_per_second, f.trajectory_steps_per_second, gflops
        ));
    }
    emit(&format!(
        "training set (36 trajectories, 200 warm-up + {} frames, ETRK2 f64): {:.2} s",
        bench.training_set_kept_frames, bench.training_set_seconds
    ));
}
