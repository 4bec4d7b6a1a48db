//! `unroll-lab simulate --system NAME`: one trajectory of a system's own solvers as JSON (the
//! contract other tools rely on). The flags are handed to the system through the registry
//! (`PhysicalSystem::simulate`), which reads those it takes and refuses the others; each
//! system's `simulate.rs` documents its flags and its output.

use clap::{Args, ValueEnum};

use super::CliError;
use unroll_core::system::simulate::SimulateRequest;
use unroll_core::system::System;
use unroll_core::types::Precision;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PrecisionArg {
    /// The f64 reference solver.
    F64,
    /// The f32 tensor path on the CPU backend.
    F32,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The system (ks, kolmogorov, burgers, custom).
    #[arg(long, default_value_t = System::default())]
    pub system: System,
    /// With --system custom: the equation, as text ('a2=-1,a4=-1,b=-1;L=8;N=48') or a file
    /// holding its text or JSON. Custom takes --scheme etd1|etrk2|etdrk4, --substeps, --init
    /// train:K | FILE.json.
    #[arg(long, allow_hyphen_values = true)]
    pub equation: Option<String>,
    /// KS: etd1 | etrk2 | etdrk4 (default etrk2). Kolmogorov: spectral | coarse | piso (default
    /// spectral). Burgers: etdrk4 | etd1 (default etdrk4).
    #[arg(long)]
    pub scheme: Option<String>,
    /// Kolmogorov only: a coarse-solver set-up of the study instead of --scheme (piso |
    /// piso-exact | piso-advective | piso-official | ssp-rk3).
    #[arg(long)]
    pub solver: Option<String>,
    /// KS only: domain parameter L (= 8·s; default 8).
    #[arg(long, allow_negative_numbers = true)]
    pub domain_size: Option<f64>,
    /// Burgers only: viscosity ν (0.01..=0.2, default 0.02).
    #[arg(long, allow_negative_numbers = true)]
    pub viscosity: Option<f64>,
    /// Steps (KS: learned steps; Burgers: steps of Δt = 0.1).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true)]
    pub steps: i64,
    /// KS: sub-steps per learned step (each h = 0.5; default 2). Burgers: sub-steps per step
    /// (default 10 with etdrk4, 1 with etd1).
    #[arg(long, allow_negative_numbers = true)]
    pub substeps: Option<i64>,
    /// Grid points N (KS, Burgers: default 48, ≥ 8; Kolmogorov: N×N, even, default the --init
    /// array's).
    #[arg(long, allow_negative_numbers = true)]
    pub resolution: Option<i64>,
    /// KS: paper-train:K (K = 0..5) | paper-test:SEED | FILE.json (a JSON array of N numbers;
    /// default paper-train:0). Kolmogorov (required): FILE.json = {"vorticity": [[…]]}, N×N
    /// indexed [row = y][column = x]. Burgers: train:K (K = 0..7) | FILE.json (default
    /// train:0).
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

impl SimulateArgs {
    /// The flags as the system reads them.
    fn request(&self) -> SimulateRequest {
        SimulateRequest {
            scheme: self.scheme.clone(),
            solver: self.solver.clone(),
            domain_size: self.domain_size,
            viscosity: self.viscosity,
            reynolds: self.reynolds,
            dt: self.dt,
            steps: self.steps,
            substeps: self.substeps,
            resolution: self.resolution,
            every: self.every,
            init: self.init.clone(),
            precision: self.precision.map(|precision| match precision {
                PrecisionArg::F64 => Precision::F64,
                PrecisionArg::F32 => Precision::F32,
            }),
            read_file: |path| std::fs::read_to_string(path),
        }
    }
}

pub fn simulate(args: &SimulateArgs) -> Result<(), CliError> {
    let system = super::knobs::equation_system(Some(args.system), args.equation.as_deref())
        .map_err(CliError::Usage)?
        .unwrap_or(args.system);
    let json = system.physics().simulate(&args.request())?;
    println!("{json}");
    Ok(())
}
