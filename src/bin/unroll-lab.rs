//! The native CLI: `simulate` and `bench solver` (train / study / bench train come later).
//!
//! Exit codes: 0 success (a diverged simulation included), 2 bad arguments or files, with a
//! one-line message on stderr.

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::path::Path;
    use std::process::ExitCode;
    use std::time::Instant;

    use clap::{Args, Parser, Subcommand, ValueEnum};
    use serde::Serialize;

    use unroll_lab::numerics::backend;
    use unroll_lab::numerics::ks::data::{training_set, DataConfig, TRAIN_SCALES};
    use unroll_lab::numerics::ks::initial::{train_ic, user_state, TestIc, TRAIN_IC_PARAMETERS};
    use unroll_lab::numerics::ks::tensor::read_rows;
    use unroll_lab::numerics::ks::{
        KsConfig, KsError, Precision, ReferenceSolver, Scheme, TensorSolver,
    };
    use unroll_lab::report::simulation::SimulationOutput;

    /// Exit code for bad arguments or files.
    const USAGE_ERROR: u8 = 2;

    #[derive(Debug, Parser)]
    #[command(
        name = "unroll-lab",
        version,
        about = "Unrolled training of neural physics simulators"
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Debug, Subcommand)]
    enum Command {
        /// Simulate Kuramoto–Sivashinsky and print the trajectory as JSON.
        Simulate(SimulateArgs),
        /// Benchmarks.
        Bench {
            #[command(subcommand)]
            target: BenchTarget,
        },
    }

    #[derive(Debug, Subcommand)]
    enum BenchTarget {
        /// Solver throughput (36 trajectories × 48 points) and training-set generation time.
        Solver(BenchSolverArgs),
    }

    #[derive(Debug, Clone, Copy, ValueEnum)]
    enum PrecisionArg {
        /// The f64 rustfft reference.
        F64,
        /// The f32 tensor path on the CPU backend.
        F32,
    }

    #[derive(Debug, Args)]
    struct SimulateArgs {
        /// etd1 | etrk2 | etdrk4.
        #[arg(long, default_value = "etrk2")]
        scheme: String,
        /// Domain parameter L (= 8·s).
        #[arg(long, default_value_t = 8.0, allow_negative_numbers = true)]
        domain_size: f64,
        /// Learned steps.
        #[arg(long, default_value_t = 10, allow_negative_numbers = true)]
        steps: i64,
        /// Sub-steps per learned step (each h = 0.5).
        #[arg(long, default_value_t = 2, allow_negative_numbers = true)]
        substeps: i64,
        /// Grid points N (≥ 8).
        #[arg(long, default_value_t = 48, allow_negative_numbers = true)]
        resolution: i64,
        /// paper-train:K (K = 0..5) | paper-test:SEED | FILE.json (a JSON array of N numbers).
        #[arg(long, default_value = "paper-train:0")]
        init: String,
        /// f64 = the reference path; f32 = the tensor path on the CPU backend.
        #[arg(long, value_enum, default_value = "f64")]
        precision: PrecisionArg,
    }

    #[derive(Debug, Args)]
    struct BenchSolverArgs {
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

    /// A bad argument or file: printed as one line, exit code 2.
    #[derive(Debug, thiserror::Error)]
    enum CliError {
        #[error("{0}")]
        Usage(String),
        #[error(transparent)]
        Ks(#[from] KsError),
        #[error("cannot read {path}: {message}")]
        File { path: String, message: String },
        #[error("failed to write output: {0}")]
        Output(String),
    }

    /// Parses, runs, and maps errors to exit code 2 with a one-line message.
    pub fn main() -> ExitCode {
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            Err(err) if !err.use_stderr() => {
                // --help / --version.
                let _ = err.print();
                return ExitCode::SUCCESS;
            }
            Err(err) => {
                let rendered = err.to_string();
                let line = rendered.lines().next().unwrap_or("invalid arguments");
                eprintln!("{line}");
                return ExitCode::from(USAGE_ERROR);
            }
        };
        let result = match cli.command {
            Command::Simulate(args) => simulate(&args),
            Command::Bench {
                target: BenchTarget::Solver(args),
            } => bench_solver(&args),
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: {err}");
                ExitCode::from(USAGE_ERROR)
            }
        }
    }

    fn non_negative(name: &str, value: i64) -> Result<usize, CliError> {
        usize::try_from(value)
            .map_err(|_| CliError::Usage(format!("--{name} must be non-negative, got {value}")))
    }

    fn simulate_config(args: &SimulateArgs) -> Result<KsConfig, CliError> {
        let scheme = Scheme::from_name(&args.scheme).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown scheme '{}' (expected etd1, etrk2 or etdrk4)",
                args.scheme
            ))
        })?;
        let config = KsConfig {
            scheme,
            domain_size: args.domain_size,
            resolution: non_negative("resolution", args.resolution)?,
            substeps: non_negative("substeps", args.substeps)?,
            ..KsConfig::default()
        };
        config.validate()?;
        Ok(config)
    }

    /// The initial state named by `--init`; shape `[N]`.
    fn initial_state(init: &str, config: &KsConfig) -> Result<Vec<f64>, CliError> {
        let grid = config.grid();
        if let Some(index) = init.strip_prefix("paper-train:") {
            let index: usize = index.parse().map_err(|_| {
                CliError::Usage(format!(
                    "paper-train:K needs K in 0..{}, got '{index}'",
                    TRAIN_IC_PARAMETERS.len()
                ))
            })?;
            return Ok(train_ic(&grid, index)?);
        }
        if let Some(seed) = init.strip_prefix("paper-test:") {
            let seed: u64 = seed.parse().map_err(|_| {
                CliError::Usage(format!(
                    "paper-test:SEED needs a non-negative integer, got '{seed}'"
                ))
            })?;
            return Ok(TestIc::from_seed(seed).state(&grid));
        }
        let values = read_state_file(Path::new(init))?;
        Ok(user_state(values, config.resolution)?)
    }

    fn read_state_file(path: &Path) -> Result<Vec<f64>, CliError> {
        let file_error = |message: String| CliError::File {
            path: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|err| file_error(err.to_string()))?;
        let values: Vec<f64> = serde_json::from_str(&text)
            .map_err(|err| file_error(format!("not a JSON array of numbers ({err})")))?;
        Ok(values)
    }

    fn simulate(args: &SimulateArgs) -> Result<(), CliError> {
        let config = simulate_config(args)?;
        let steps = non_negative("steps", args.steps)?;
        let u0 = initial_state(&args.init, &config)?;
        let (states, diverged_at) = match args.precision {
            PrecisionArg::F64 => ReferenceSolver::new(config)?.trajectory(&u0, steps),
            PrecisionArg::F32 => tensor_trajectory(config, &u0, steps)?,
        };
        let output = SimulationOutput {
            system: "ks".into(),
            scheme: config.scheme.name().into(),
            domain_size: config.domain_size,
            substep: config.substep,
            substeps: config.substeps,
            resolution: config.resolution,
            states,
            diverged_at,
        };
        let json =
            serde_json::to_string(&output).map_err(|err| CliError::Output(err.to_string()))?;
        println!("{json}");
        Ok(())
    }

    /// Like [`ReferenceSolver::trajectory`], on the f32 tensor path (CPU backend).
    fn tensor_trajectory(
        config: KsConfig,
        u0: &[f64],
        steps: usize,
    ) -> Result<(Vec<Vec<f64>>, Option<usize>), CliError> {
        let solver = TensorSolver::new(config, &backend::cpu(), Precision::F32)?;
        let mut state = solver.states(&[u0.to_vec()]);
        let mut states = read_rows(state.clone())?;
        for k in 1..=steps {
            state = solver.step(state);
            let row = read_rows(state.clone())?
                .into_iter()
                .next()
                .unwrap_or_default();
            if row.iter().any(|v| !v.is_finite()) {
                return Ok((states, Some(k)));
            }
            states.push(row);
        }
        Ok((states, None))
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

    fn bench_solver(args: &BenchSolverArgs) -> Result<(), CliError> {
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
        if args.json {
            let json = serde_json::to_string_pretty(&bench)
                .map_err(|err| CliError::Output(err.to_string()))?;
            println!("{json}");
        } else {
            print_bench(&bench);
        }
        Ok(())
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
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
