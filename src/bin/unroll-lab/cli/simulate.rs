//! `unroll-lab simulate`: a KS trajectory as JSON (the contract other tools rely on).

use std::path::Path;

use clap::{Args, ValueEnum};

use super::{non_negative, CliError};
use unroll_lab::numerics::backend;
use unroll_lab::numerics::ks::initial::{train_ic, user_state, TestIc, TRAIN_IC_PARAMETERS};
use unroll_lab::numerics::ks::tensor::read_rows;
use unroll_lab::numerics::ks::{KsConfig, Precision, ReferenceSolver, Scheme, TensorSolver};
use unroll_lab::report::simulation::SimulationOutput;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PrecisionArg {
    /// The f64 rustfft reference.
    F64,
    /// The f32 tensor path on the CPU backend.
    F32,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
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

pub fn simulate(args: &SimulateArgs) -> Result<(), CliError> {
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
    let json = serde_json::to_string(&output).map_err(|err| CliError::Output(err.to_string()))?;
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
