//! `unroll-lab bench solver`: KS solver throughput and training-set generation time.

use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::output::print_figures;
use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::ks::data::{training_set, DataConfig, TRAIN_SCALES};
use unroll_lab::numerics::ks::initial::{train_ic, TRAIN_IC_PARAMETERS};
use unroll_lab::numerics::ks::tensor::read_rows;
use unroll_lab::numerics::ks::{
    KsConfig, KsError, Precision, ReferenceSolver, Scheme, TensorSolver,
};

impl From<KsError> for CliError {
    fn from(err: KsError) -> Self {
        CliError::Solver(err.to_string())
    }
}

#[derive(Debug, Args)]
pub struct BenchSolverArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Learned steps timed per measurement.
    #[arg(long, default_value_t = 200)]
    steps: usize,
    /// Frames kept per trajectory for the training-set timing (study: 5000).
    #[arg(long, default_value_t = 5000)]
    kept_frames: usize,
}

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
fn bench_states() -> Result<Vec<(KsConfig, Vec<f64>)>, CliError> {
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
) -> Result<SolverFigure, CliError> {
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
) -> Result<SolverFigure, CliError> {
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

pub fn bench_solver(args: &BenchSolverArgs) -> Result<(), CliError> {
    let states = bench_states()?;
    let mut figures = Vec::new();
    for scheme in [Scheme::Etd1, Scheme::Etrk2] {
        figures.push(bench_reference(scheme, &states, args.steps)?);
        figures.push(bench_tensor(scheme, &states, args.steps)?);
    }
    let data_config = DataConfig {
        kept_frames: args.kept_frames,
        ..DataConfig::default()
    };
    let start = Instant::now();
    let set = training_set(&data_config)?;
    let training_set_seconds = start.elapsed().as_secs_f64();
    let bench = SolverBench {
        trajectories: states.len(),
        resolution: KsConfig::default().resolution,
        timed_steps: args.steps,
        figures,
        training_set_kept_frames: set.first().map_or(0, |t| t.frames()),
        training_set_seconds,
    };
    print_figures(&bench, args.json, print_bench)
}

fn print_bench(bench: &SolverBench) {
    println!(
        "KS solver: {} trajectories × {} points, {} learned steps (2 sub-steps of h = 0.5)",
        bench.trajectories, bench.resolution, bench.timed_steps
    );
    for f in &bench.figures {
        let gflops = f
            .gflops
            .map_or(String::new(), |g| format!(", {g:.2} GFLOP/s"));
        println!(
            "  {:<6} {:<15} {:>10.1} batch steps/s  {:>12.0} trajectory steps/s{}",
            f.scheme, f.path, f.batch_steps_per_second, f.trajectory_steps_per_second, gflops
        );
    }
    println!(
        "training set (36 trajectories, 200 warm-up + {} frames, ETRK2 f64): {:.2} s",
        bench.training_set_kept_frames, bench.training_set_seconds
    );
}
