//! `unroll-lab simulate --system kolmogorov`: a Kolmogorov-flow trajectory as JSON.
//!
//! `--scheme spectral` steps the vorticity with the f64 pseudo-spectral solver; `--scheme piso`
//! (the paper's coarse solver), `--scheme coarse` (the SSP-RK3 MAC projection scheme) and
//! `--solver NAME` (a study's coarse-solver set-up: `piso`, `piso-advective`, `piso-official`,
//! `ssp-rk3`, …; instead of `--scheme`) turn it into the staggered velocity
//! (`velocity_from_vorticity`), step the coarse solver (f64, CPU device) and report the discrete
//! curl, so their `states[0]` is the mean-free part of the input.
//!
//! `{"system":"kolmogorov","scheme":"spectral","resolution":32,"reynolds":600.0,"dt":0.02,
//! "every":1,"states":[{"vorticity":[[…N…], …]}, …]}` plus `"diverged_at": k` when frame `k`
//! was not finite (then `states` holds the finite prefix `0..k`).

use serde::{Deserialize, Serialize};

use super::coarse::read_values;
use super::config::{check_dt, check_resolution, check_reynolds};
use super::setup::{Setup, SETUPS};
use super::staggered::{velocity_from_vorticity, vorticity_from_velocity};
use super::{CoarseSolver, KolmogorovError, SpectralSolver, TimeScheme};
use crate::backend;
use crate::system::simulate::{
    file_error, json_line, non_negative, SimulateError, SimulateRequest, Simulated,
};
use crate::types::{Precision, SolverSetup};

/// The flags a Kolmogorov simulation takes (besides `--steps`).
const FLAGS: [&str; 7] = [
    "scheme",
    "solver",
    "reynolds",
    "dt",
    "resolution",
    "every",
    "init",
];

/// One frame: the vorticity `[N][N]`, indexed `[row = y][column = x]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VorticityFrame {
    /// `ω(x_j, y_i)` at `[i][j]`.
    pub vorticity: Vec<Vec<f64>>,
}

/// A simulated Kolmogorov-flow trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationOutput {
    /// The PDE, `"kolmogorov"`.
    pub system: String,
    /// `"spectral"`, `"piso"` or `"coarse"` (SSP-RK3), or a set-up's name.
    pub scheme: String,
    /// Grid side `N`.
    pub resolution: usize,
    /// Reynolds number (`ν = 1/Re`).
    pub reynolds: f64,
    /// Time step.
    pub dt: f64,
    /// Steps between reported frames.
    pub every: usize,
    /// The states and where they diverged.
    #[serde(flatten)]
    pub run: Simulated<VorticityFrame>,
}

impl From<KolmogorovError> for SimulateError {
    fn from(err: KolmogorovError) -> Self {
        SimulateError::Solver(err.to_string())
    }
}

/// The `--init` file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InitFile {
    vorticity: Vec<Vec<f64>>,
}

/// `spectral`, a coarse scheme (`piso`, `coarse` = SSP-RK3), or a coarse-solver set-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KolmogorovScheme {
    Spectral,
    Coarse(TimeScheme),
    Setup(&'static str, Setup),
}

/// The `--scheme` or `--solver` of `args` (not both).
fn scheme_of(args: &SimulateRequest) -> Result<KolmogorovScheme, SimulateError> {
    if let Some(name) = args.solver.as_deref() {
        if args.scheme.is_some() {
            return Err(SimulateError::Usage(
                "give --scheme or --solver, not both".into(),
            ));
        }
        let setup = Setup::of(&SolverSetup::named(name))?;
        let name = SETUPS
            .iter()
            .find(|w| w.name == name)
            .map_or("piso", |w| w.name);
        return Ok(KolmogorovScheme::Setup(name, setup));
    }
    Ok(match args.scheme.as_deref().unwrap_or("spectral") {
        "spectral" => KolmogorovScheme::Spectral,
        "coarse" => KolmogorovScheme::Coarse(TimeScheme::SspRk3),
        "piso" => KolmogorovScheme::Coarse(TimeScheme::Piso),
        other => {
            return Err(SimulateError::Usage(format!(
            "unknown scheme '{other}' for --system kolmogorov (expected piso, spectral or coarse)"
        )))
        }
    })
}

/// The checked settings of one run.
struct Run {
    scheme: KolmogorovScheme,
    n: usize,
    reynolds: f64,
    dt: f64,
    steps: usize,
    every: usize,
    /// `[N²]`, row-major `[y][x]`.
    vorticity: Vec<f64>,
}

fn required(flag: &str, value: Option<f64>) -> Result<f64, SimulateError> {
    value.ok_or_else(|| {
        SimulateError::Usage(format!("--{flag} is required with --system kolmogorov"))
    })
}

/// Reads `{"vorticity": [[…]]}` as N and the row-major values; checks squareness, finiteness.
fn read_init(request: &SimulateRequest, path: &str) -> Result<(usize, Vec<f64>), SimulateError> {
    let file_error = |message: String| file_error(path, message);
    let text = request.read(path)?;
    let file: InitFile = serde_json::from_str(&text).map_err(|err| {
        file_error(format!(
            "not a JSON object {{\"vorticity\": [[numbers]]}} ({err})"
        ))
    })?;
    let n = file.vorticity.len();
    if let Some((row, values)) = file
        .vorticity
        .iter()
        .enumerate()
        .find(|(_, values)| values.len() != n)
    {
        return Err(file_error(format!(
            "vorticity must be a square N×N array: {n} rows but row {row} has {} values",
            values.len()
        )));
    }
    let values: Vec<f64> = file.vorticity.into_iter().flatten().collect();
    if let Some(index) = values.iter().position(|v| !v.is_finite()) {
        return Err(file_error(format!(
            "vorticity[{}][{}] is not finite",
            index / n,
            index % n
        )));
    }
    Ok((n, values))
}

fn checked_run(args: &SimulateRequest) -> Result<Run, SimulateError> {
    args.refuse_others(&FLAGS, "kolmogorov")?;
    let scheme = scheme_of(args)?;
    let reynolds = check_reynolds(required("reynolds", args.reynolds)?)?;
    let dt = check_dt(required("dt", args.dt)?)?;
    let steps = non_negative("steps", args.steps)?;
    let every = non_negative("every", args.every.unwrap_or(1))?;
    if every == 0 {
        return Err(SimulateError::Usage("--every must be at least 1".into()));
    }
    let init = args.init.as_deref().ok_or_else(|| {
        SimulateError::Usage("--init FILE.json is required with --system kolmogorov".into())
    })?;
    let (size, vorticity) = read_init(args, init)?;
    let n = match args.resolution {
        Some(value) => non_negative("resolution", value)?,
        None => size,
    };
    check_resolution(n)?;
    if size != n {
        return Err(SimulateError::Usage(format!(
            "the --init array is {size}×{size}, expected {n}×{n} (--resolution)"
        )));
    }
    Ok(Run {
        scheme,
        n,
        reynolds,
        dt,
        steps,
        every,
        vorticity,
    })
}

/// Frames `0, every, 2·every, …` up to `steps` (the last partial interval is not reported),
/// each `[N²]`, stopping at the first non-finite one (its index returned).
fn frames(run: &Run) -> Result<(Vec<Vec<f64>>, Option<usize>), KolmogorovError> {
    let count = run.steps / run.every;
    let mut frames = Vec::with_capacity(count + 1);
    match run.scheme {
        KolmogorovScheme::Spectral => {
            let solver = SpectralSolver::new(run.n, run.reynolds, run.dt)?;
            let mut spectrum = solver.to_spectrum(&run.vorticity)?;
            frames.push(run.vorticity.clone());
            for k in 1..=count {
                for _ in 0..run.every {
                    spectrum = solver.step_spectrum(&spectrum);
                }
                let frame = solver.to_grid(&spectrum);
                if frame.iter().any(|w| !w.is_finite()) {
                    return Ok((frames, Some(k)));
                }
                frames.push(frame);
            }
        }
        KolmogorovScheme::Coarse(_) | KolmogorovScheme::Setup(..) => {
            let solver =
                CoarseSolver::with_precision(run.n, run.dt, &backend::cpu(), Precision::F64)?;
            let solver = match run.scheme {
                KolmogorovScheme::Setup(_, setup) => setup.configure(solver),
                KolmogorovScheme::Coarse(scheme) => solver.with_scheme(scheme),
                KolmogorovScheme::Spectral => solver,
            };
            let start = velocity_from_vorticity(run.n, &run.vorticity)?;
            frames.push(vorticity_from_velocity(run.n, &start)?);
            let mut state = solver.velocity_tensor(&[start])?;
            for k in 1..=count {
                for _ in 0..run.every {
                    state = solver.step(state, 1.0 / run.reynolds).0;
                }
                let velocity = read_values(state.clone())?;
                if velocity.iter().any(|w| !w.is_finite()) {
                    return Ok((frames, Some(k)));
                }
                frames.push(vorticity_from_velocity(run.n, &velocity)?);
            }
        }
    }
    Ok((frames, None))
}

/// The trajectory `request` asks for, as one line of JSON.
pub fn simulate(request: &SimulateRequest) -> Result<String, SimulateError> {
    let run = checked_run(request)?;
    let (frames, diverged_at) = frames(&run)?;
    let output = SimulationOutput {
        system: "kolmogorov".into(),
        scheme: match run.scheme {
            KolmogorovScheme::Spectral => "spectral".into(),
            KolmogorovScheme::Coarse(TimeScheme::Piso) => "piso".into(),
            KolmogorovScheme::Coarse(_) => "coarse".into(),
            KolmogorovScheme::Setup(name, _) => name.into(),
        },
        resolution: run.n,
        reynolds: run.reynolds,
        dt: run.dt,
        every: run.every,
        run: (
            frames
                .iter()
                .map(|frame| VorticityFrame {
                    vorticity: frame.chunks(run.n).map(<[f64]>::to_vec).collect(),
                })
                .collect::<Vec<_>>(),
            diverged_at,
        )
            .into(),
    };
    json_line(&output)
}
