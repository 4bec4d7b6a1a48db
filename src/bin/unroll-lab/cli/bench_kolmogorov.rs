//! `unroll-lab bench kolmogorov`: the developed flow's statistics at one Reynolds number (the
//! spectral truth at 128², dt 0.005, sampled every 0.02) and the solvers' speed: spectral 128²
//! and the coarse MAC solver at 32² (dt 0.02, batch 1, CPU device, f32), whose long run from
//! the down-sampled developed state is also the stability check.

use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::CliError;
use unroll_lab::numerics::backend;
use unroll_lab::numerics::kolmogorov::coarse::read_values;
use unroll_lab::numerics::kolmogorov::config::{
    check_reynolds, COARSE_DT, COARSE_RESOLUTION, FINE_DT, FINE_RESOLUTION,
};
use unroll_lab::numerics::kolmogorov::grid::spacing;
use unroll_lab::numerics::kolmogorov::initial::{
    random_vorticity, DEFAULT_MAX_WAVENUMBER, DEFAULT_RMS,
};
use unroll_lab::numerics::kolmogorov::staggered::{
    coarse_from_fine, divergence, vorticity_from_velocity,
};
use unroll_lab::numerics::kolmogorov::statistics::{
    autocorrelation, first_crossing, integral_time_scale, vorticity_rms,
};
use unroll_lab::numerics::kolmogorov::{CoarseSolver, SpectralSolver, TimeScheme};

/// Fine steps per coarse step (0.02 / 0.005).
const FINE_PER_COARSE: usize = 4;
/// Coarse steps between the coarse run's samples.
const COARSE_SAMPLE_EVERY: usize = 50;

#[derive(Debug, Args)]
pub struct BenchKolmogorovArgs {
    /// Reynolds number (ν = 1/Re).
    #[arg(long, default_value_t = 600.0, allow_negative_numbers = true)]
    reynolds: f64,
    /// Spin-up time of the truth from the seeded random field (time units).
    #[arg(long, default_value_t = 50.0)]
    spinup_time: f64,
    /// Truth frames sampled after the spin-up, one per coarse step (Δt = 0.02).
    #[arg(long, default_value_t = 1000)]
    samples: usize,
    /// Largest lag of the autocorrelation, in coarse steps.
    #[arg(long, default_value_t = 200)]
    max_lag: usize,
    /// Coarse steps of the coarse solver's run (speed and stability).
    #[arg(long, default_value_t = 3000)]
    coarse_steps: usize,
    /// The coarse solver's time integrator: ssp-rk3 (default) | heun.
    #[arg(long, default_value = "ssp-rk3")]
    coarse_scheme: String,
    /// Seed of the random initial field.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Serialize)]
struct KolmogorovBench {
    reynolds: f64,
    coarse_scheme: String,
    seed: u64,
    spinup_time: f64,
    samples: usize,
    /// Vorticity rms of the truth over the sampled frames (128²).
    vorticity_rms: f64,
    /// Integral of the vorticity autocorrelation to its first zero, in coarse steps of 0.02
    /// (`None` if it stays positive up to `max_lag`).
    integral_time_scale_steps: Option<f64>,
    /// The same in time units.
    integral_time_scale_time: Option<f64>,
    /// The lag at which the autocorrelation first falls to 1/e, in coarse steps.
    e_folding_steps: Option<f64>,
    /// The normalised autocorrelation at lags `0..=max_lag` coarse steps.
    correlation: Vec<f64>,
    /// Spectral solver steps/s at 128², dt 0.005 (spin-up and sampling).
    spectral_steps_per_second: f64,
    /// Coarse solver steps/s at 32², dt 0.02, batch 1, CPU f32 (readbacks every 50 steps).
    coarse_steps_per_second: f64,
    /// Coarse steps run, and the first non-finite sample's step if any.
    coarse_steps: usize,
    coarse_diverged_at: Option<usize>,
    /// Vorticity rms of the coarse run's samples (discrete curl, 32²).
    coarse_vorticity_rms: f64,
    /// Largest `max|D u|·h / max|u|` of the coarse run's samples.
    coarse_relative_divergence: f64,
}

pub fn bench_kolmogorov(args: &BenchKolmogorovArgs) -> Result<(), CliError> {
    let reynolds = check_reynolds(args.reynolds)?;
    if args.samples < 2 {
        return Err(CliError::Usage("--samples must be at least 2".into()));
    }
    let truth = SpectralSolver::new(FINE_RESOLUTION, reynolds, FINE_DT)?;
    let start = random_vorticity(
        FINE_RESOLUTION,
        args.seed,
        DEFAULT_MAX_WAVENUMBER,
        DEFAULT_RMS,
    )?;
    let spinup_steps = (args.spinup_time.max(0.0) / FINE_DT).round() as usize;
    let clock = Instant::now();
    let mut spectrum = truth.to_spectrum(&start)?;
    for _ in 0..spinup_steps {
        spectrum = truth.step_spectrum(&spectrum);
    }
    let developed = truth.to_grid(&spectrum);
    let mut frames = Vec::with_capacity(args.samples);
    for _ in 0..args.samples {
        for _ in 0..FINE_PER_COARSE {
            spectrum = truth.step_spectrum(&spectrum);
        }
        frames.push(truth.to_grid(&spectrum));
    }
    let fine_steps = spinup_steps + args.samples * FINE_PER_COARSE;
    let spectral_steps_per_second = fine_steps as f64 / clock.elapsed().as_secs_f64().max(1e-12);
    let correlation = autocorrelation(&frames, args.max_lag);
    let scale = integral_time_scale(&correlation);

    let scheme = match args.coarse_scheme.as_str() {
        "ssp-rk3" => TimeScheme::SspRk3,
        "heun" => TimeScheme::Heun,
        other => {
            return Err(CliError::Usage(format!(
                "unknown --coarse-scheme '{other}' (expected ssp-rk3 or heun)"
            )))
        }
    };
    let coarse =
        CoarseSolver::new(COARSE_RESOLUTION, COARSE_DT, &backend::cpu())?.with_scheme(scheme);
    let n = COARSE_RESOLUTION;
    let mut state = coarse.velocity_tensor(&[coarse_from_fine(&developed, FINE_RESOLUTION, n)?])?;
    let (mut coarse_frames, mut coarse_divergence, mut diverged_at) = (Vec::new(), 0.0f64, None);
    let clock = Instant::now();
    for step in 1..=args.coarse_steps {
        state = coarse.step(state, 1.0 / reynolds).0;
        if step % COARSE_SAMPLE_EVERY == 0 || step == args.coarse_steps {
            let velocity = read_values(state.clone())?;
            if velocity.iter().any(|v| !v.is_finite()) {
                diverged_at = Some(step);
                break;
            }
            let largest = velocity.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            let div = divergence(n, &velocity)?;
            let div = div.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            coarse_divergence = coarse_divergence.max(div * spacing(n) / largest.max(1e-300));
            coarse_frames.push(vorticity_from_velocity(n, &velocity)?);
        }
    }
    let coarse_steps_per_second =
        args.coarse_steps as f64 / clock.elapsed().as_secs_f64().max(1e-12);
    let bench = KolmogorovBench {
        reynolds,
        coarse_scheme: args.coarse_scheme.clone(),
        seed: args.seed,
        spinup_time: spinup_steps as f64 * FINE_DT,
        samples: args.samples,
        vorticity_rms: vorticity_rms(&frames),
        integral_time_scale_steps: scale,
        integral_time_scale_time: scale.map(|s| s * COARSE_DT),
        e_folding_steps: first_crossing(&correlation, (-1.0f64).exp()),
        correlation,
        spectral_steps_per_second,
        coarse_steps_per_second,
        coarse_steps: args.coarse_steps,
        coarse_diverged_at: diverged_at,
        coarse_vorticity_rms: vorticity_rms(&coarse_frames),
        coarse_relative_divergence: coarse_divergence,
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

fn print_bench(b: &KolmogorovBench) {
    println!(
        "Kolmogorov flow, Re {}: truth 128² (dt 0.005), spin-up {} from seed {}, {} frames every 0.02",
        b.reynolds, b.spinup_time, b.seed, b.samples
    );
    println!("  vorticity rms                {:.4}", b.vorticity_rms);
    match b.integral_time_scale_steps {
        Some(steps) => println!(
            "  integral time scale          {steps:.2} coarse steps ({:.4} time units)",
            steps * COARSE_DT
        ),
        None => println!(
            "  integral time scale          correlation stays positive up to the largest lag"
        ),
    }
    match b.e_folding_steps {
        Some(steps) => println!("  e-folding time (C = 1/e)     {steps:.2} coarse steps"),
        None => println!("  e-folding time (C = 1/e)     beyond the largest lag"),
    }
    let at = |lag: usize| b.correlation.get(lag).map_or(f64::NAN, |c| *c);
    println!(
        "  autocorrelation              lag 1: {:.3}, 5: {:.3}, 10: {:.3}, 20: {:.3}, 50: {:.3}, 100: {:.3}",
        at(1),
        at(5),
        at(10),
        at(20),
        at(50),
        at(100)
    );
    println!(
        "  spectral 128², dt 0.005      {:.1} steps/s",
        b.spectral_steps_per_second
    );
    println!(
        "  coarse 32², dt 0.02 (f32)    {:.1} steps/s, batch 1, CPU, {}",
        b.coarse_steps_per_second, b.coarse_scheme
    );
    match b.coarse_diverged_at {
        Some(step) => println!("  coarse run                   DIVERGED at step {step}"),
        None => println!(
            "  coarse run                   {} steps finite; vorticity rms {:.4}; max relative divergence {:.1e}",
            b.coarse_steps, b.coarse_vorticity_rms, b.coarse_relative_divergence
        ),
    }
}
