//! `unroll-lab simulate`: a KS trajectory as JSON (the contract other tools rely on), or with
//! `--system kolmogorov` a Kolmogorov-flow trajectory (see [`super::simulate_kolmogorov`]).

use std::path::Path;

use clap::{Args, ValueEnum};

use super::{non_negative, simulate_kolmogorov, CliError};
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

/// The PDE to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SystemArg {
    /// Kuramoto–Sivashinsky, 1D.
    Ks,
    /// Kolmogorov flow, 2D.
    Kolmogorov,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// ks | kolmogorov.
    #[arg(long, value_enum, default_value = "ks")]
    pub system: SystemArg,
    /// KS: etd1 | etrk2 | etdrk4 (default etrk2). Kolmogorov: spectral | coarse (default
    /// spectral).
    #[arg(long)]
    pub scheme: Option<String>,
    /// Kolmogorov only: a coarse-solver set-up of the study instead of --scheme (piso |
    /// piso-exact | piso-advective | piso-official | ssp-rk3).
    #[arg(long)]
    pub solver: Option<String>,
    /// KS only: domain parameter L (= 8·s; default 8).
    #[arg(long, allow_negative_numbers = true)]
    pub domain_size: Option<f64>,
    /// Steps (KS: learned steps).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true)]
    pub steps: i64,
    /// KS only: sub-steps per learned step (each h = 0.5; default 2).
    #[arg(long, allow_negative_numbers = true)]
    pub substeps: Option<i64>,
    /// Grid points N (KS: default 48, ≥ 8; Kolmogorov: N×N, even, default the --init array's).
    #[arg(long, allow_negative_numbers = true)]
    pub resolution: Option<i64>,
    /// KS: paper-train:K (K = 0..5) | paper-test:SEED | FILE.json (a JSON array of N numbers;
    /// default paper-train:0). Kolmogorov (required): FILE.json = {"vorticity": [[…]]}, N×N
    /// indexed [row = y][column = x].
    #[arg(long)]
    pub init: Option<String>,
    /// KS only: f64 = the reference path (default); f32 = the tensor path on the CPU backend.
    #[arg(long, value_enum)]
    pub precision: Option<PrecisionArg>,
    /// Kolmogorov only (required): Reynolds number, ν = 1/Re.
    #[arg(long, allow_negative_numbers = true)]
    pub reynolds: Option<f64>,
    /// Kolmogorov only (required): time step.
    #[arg(long, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Kolmogorov only: steps between reported states (default 1).
    #[arg(long, allow_negative_numbers = true)]
    pub every: Option<i64>,
}

/// A usage error if a flag of the other system was given.
fn refuse(flag: &str, given: bool, system: &str) -> Result<(), CliError> {
    if given {
        Err(CliError::Usage(format!(
            "--{flag} does not apply to --system {system}"
        )))
    } else {
        Ok(())
    }
}

fn simulate_config(args: &SimulateArgs) -> Result<KsConfig, CliError> {
    refuse("reynolds", args.reynolds.is_some(), "ks")?;
    refuse("dt", args.dt.is_some(), "ks")?;
    refuse("every", args.every.is_some(), "ks")?;
    refuse("solver", args.solver.is_some(), "ks")?;
    let defaults = KsConfig::default();
    let name = args.scheme.as_deref().unwrap_or(defaults.scheme.name());
    let scheme = Scheme::from_name(name).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown scheme '{name}' (expected etd1, etrk2 or etdrk4)"
        ))
    })?;
    let config = KsConfig {
        scheme,
        domain_size: args.domain_size.unwrap_or(defaults.domain_size),
        resolution: match args.resolution {
            Some(value) => non_negative("resolution", value)?,
            None => defaults.resolution,
        },
        substeps: match args.substeps {
            Some(value) => non_negative("substeps", value)?,
            None => defaults.substeps,
        },
        ..defaults
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
    if args.system == SystemArg::Kolmogorov {
        return simulate_kolmogorov::simulate(args);
    }
    let config = simulate_config(args)?;
    let steps = non_negative("steps", args.steps)?;
    let u0 = initial_state(args.init.as_deref().unwrap_or("paper-train:0"), &config)?;
    let (states, diverged_at) = match args.precision.unwrap_or(PrecisionArg::F64) {
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
