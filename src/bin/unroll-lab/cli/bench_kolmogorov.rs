//! `unroll-lab bench kolmogorov`: the developed flow's statistics at one Reynolds number (the
//! spectral truth at 128², dt 0.005, sampled every 0.02; its vorticity rms and the paper's
//! time-scale estimator also on the down-sampled 32² frames) and the solvers' speed: spectral
//! 128² and each coarse scheme at 32² (dt 0.02, batch 1, CPU device, f32), whose long run from
//! the down-sampled developed state is also the stability check and gives the coarse vorticity
//! rms. `--paper-tests` instead prints the paper's estimator on the `paper` preset's test truth
//! per test start, beside the published values.

use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::output::print_figures;
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
    autocorrelation, first_crossing, integral_time_scale, paper_time_scale_steps, vorticity_rms,
    PAPER_TIME_SCALES,
};
use unroll_lab::numerics::kolmogorov::system::Kolmogorov;
use unroll_lab::numerics::kolmogorov::{
    preset, CoarseSolver, KolmogorovError, SpectralSolver, TimeScheme,
};
use unroll_lab::numerics::study::contract::physics::PhysicalSystem;

impl From<KolmogorovError> for CliError {
    fn from(err: KolmogorovError) -> Self {
        CliError::Solver(err.to_string())
    }
}

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
    /// The coarse solvers' time integrators, comma-separated: piso | ssp-rk3 | heun.
    #[arg(long, default_value = "piso,ssp-rk3")]
    coarse_scheme: String,
    /// Print the paper's time-scale estimator on the `paper` preset's test truth per test
    /// start (and the 32² vorticity rms) instead of the run above.
    #[arg(long)]
    paper_tests: bool,
    /// Seed of the random initial field.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

/// One coarse scheme's long run from the down-sampled developed state.
#[derive(Debug, Serialize)]
struct CoarseRun {
    scheme: String,
    /// Coarse solver steps/s at 32², dt 0.02, batch 1, CPU f32 (readbacks every 50 steps).
    steps_per_second: f64,
    /// Coarse steps run, and the first non-finite sample's step if any.
    steps: usize,
    diverged_at: Option<usize>,
    /// Vorticity rms of the run's samples (discrete curl, 32²).
    vorticity_rms: f64,
    /// Largest `max|D u|·h / max|u|` of the run's samples.
    relative_divergence: f64,
    /// The paper's time-scale estimator on the run's samples, in coarse steps.
    paper_time_scale_steps: f64,
}

#[derive(Debug, Serialize)]
struct KolmogorovBench {
    reynolds: f64,
    seed: u64,
    spinup_time: f64,
    samples: usize,
    /// Vorticity rms of the truth over the sampled frames (128²).
    vorticity_rms: f64,
    /// The same on the down-sampled 32² frames (discrete curl of the staggered velocity).
    vorticity_rms_32: f64,
    /// The paper's estimator on the down-sampled 32² frames, in coarse steps.
    paper_time_scale_steps: f64,
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
    /// Each coarse scheme's run.
    coarse: Vec<CoarseRun>,
}

fn parse_scheme(name: &str) -> Result<TimeScheme, CliError> {
    match name {
        "piso" => Ok(TimeScheme::Piso),
        "ssp-rk3" => Ok(TimeScheme::SspRk3),
        "heun" => Ok(TimeScheme::Heun),
        other => Err(CliError::Usage(format!(
            "unknown --coarse-scheme '{other}' (expected piso, ssp-rk3 or heun)"
        ))),
    }
}

/// `steps` coarse steps of `scheme` at `reynolds` from the 32² state `start` `[2·N²]`.
fn coarse_run(
    name: &str,
    scheme: TimeScheme,
    reynolds: f64,
    start: Vec<f64>,
    steps: usize,
) -> Result<CoarseRun, CliError> {
    let coarse =
        CoarseSolver::new(COARSE_RESOLUTION, COARSE_DT, &backend::cpu())?.with_scheme(scheme);
    let n = COARSE_RESOLUTION;
    let mut state = coarse.velocity_tensor(&[start])?;
    let (mut vorticity, mut velocities) = (Vec::new(), Vec::new());
    let (mut relative_divergence, mut diverged_at) = (0.0f64, None);
    let clock = Instant::now();
    for step in 1..=steps {
        state = coarse.step(state, 1.0 / reynolds).0;
        if step % COARSE_SAMPLE_EVERY == 0 || step == steps {
            let velocity = read_values(state.clone())?;
            if velocity.iter().any(|v| !v.is_finite()) {
                diverged_at = Some(step);
                break;
            }
            let largest = velocity.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            let div = divergence(n, &velocity)?;
            let div = div.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            relative_divergence = relative_divergence.max(div * spacing(n) / largest.max(1e-300));
            vorticity.push(vorticity_from_velocity(n, &velocity)?);
            velocities.push(velocity);
        }
    }
    Ok(CoarseRun {
        scheme: name.to_string(),
        steps_per_second: steps as f64 / clock.elapsed().as_secs_f64().max(1e-12),
        steps,
        diverged_at,
        vorticity_rms: vorticity_rms(&vorticity),
        relative_divergence,
        paper_time_scale_steps: paper_time_scale_steps(&velocities, n, COARSE_DT),
    })
}

/// The paper's estimator and the 32² vorticity rms on the `paper` preset's test truth, per
/// test start, beside the published values.
fn paper_tests() -> Result<(), CliError> {
    let eval = preset::paper_eval();
    let n = COARSE_RESOLUTION;
    println!(
        "The paper's time scale 1/rms(W)/0.02 on our 32² test truth ({} steps per start)",
        eval.rollout_steps
    );
    for (size, &reynolds) in eval.scales.iter().enumerate() {
        let published = PAPER_TIME_SCALES
            .iter()
            .find(|(re, _)| *re == reynolds)
            .map(|(_, values)| values);
        for test in 0..eval.tests_per_size {
            let truth = Kolmogorov
                .test_truth(&eval, &Default::default(), size, test)
                .map_err(|err| CliError::Usage(err.to_string()))?;
            let ours = paper_time_scale_steps(&truth, n, COARSE_DT);
            let vorticity: Vec<Vec<f64>> = truth
                .iter()
                .map(|frame| vorticity_from_velocity(n, frame))
                .collect::<Result<_, _>>()?;
            let paper = published.and_then(|values| values.get(test)).copied();
            println!(
                "  Re {reynolds:6} start {test}: ours {ours:.2}, published {}, ratio {}; ω rms (32²) {:.3}",
                paper.map_or("—".into(), |p| format!("{p:.2}")),
                paper.map_or("—".into(), |p| format!("{:.3}", ours / p)),
                vorticity_rms(&vorticity)
            );
        }
    }
    Ok(())
}

/// The 128² truth of a bench: the developed state after the spin-up and the frames sampled
/// after it.
struct TruthFrames {
    spinup_steps: usize,
    /// The state at the end of the spin-up (vorticity, 128²).
    developed: Vec<f64>,
    /// `samples` frames every coarse step (vorticity, 128²).
    frames: Vec<Vec<f64>>,
    /// Fine steps per second over the spin-up and the sampling.
    steps_per_second: f64,
}

/// Spins the truth up from `args.seed` and samples `args.samples` frames.
fn truth_frames(args: &BenchKolmogorovArgs, reynolds: f64) -> Result<TruthFrames, CliError> {
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
    Ok(TruthFrames {
        spinup_steps,
        developed,
        frames,
        steps_per_second: fine_steps as f64 / clock.elapsed().as_secs_f64().max(1e-12),
    })
}

/// Each coarse scheme of `args.coarse_scheme` from the developed truth, down-sampled.
fn coarse_runs(
    args: &BenchKolmogorovArgs,
    reynolds: f64,
    developed: &[f64],
) -> Result<Vec<CoarseRun>, CliError> {
    let mut coarse = Vec::new();
    for name in args.coarse_scheme.split(',').map(str::trim) {
        let scheme = parse_scheme(name)?;
        let start = coarse_from_fine(developed, FINE_RESOLUTION, COARSE_RESOLUTION)?;
        coarse.push(coarse_run(
            name,
            scheme,
            reynolds,
            start,
            args.coarse_steps,
        )?);
    }
    Ok(coarse)
}

/// `unroll-lab bench kolmogorov`: the truth's statistics and time scales, and each coarse scheme.
pub fn bench_kolmogorov(args: &BenchKolmogorovArgs) -> Result<(), CliError> {
    if args.paper_tests {
        return paper_tests();
    }
    let reynolds = check_reynolds(args.reynolds)?;
    if args.samples < 2 {
        return Err(CliError::Usage("--samples must be at least 2".into()));
    }
    let truth = truth_frames(args, reynolds)?;
    let (frames, spectral_steps_per_second) = (&truth.frames, truth.steps_per_second);
    let correlation = autocorrelation(frames, args.max_lag);
    let scale = integral_time_scale(&correlation);

    let n = COARSE_RESOLUTION;
    let coarse_frames: Vec<Vec<f64>> = frames
        .iter()
        .map(|frame| coarse_from_fine(frame, FINE_RESOLUTION, n))
        .collect::<Result<_, _>>()?;
    let coarse_vorticity: Vec<Vec<f64>> = coarse_frames
        .iter()
        .map(|frame| vorticity_from_velocity(n, frame))
        .collect::<Result<_, _>>()?;
    let coarse = coarse_runs(args, reynolds, &truth.developed)?;
    let bench = KolmogorovBench {
        reynolds,
        seed: args.seed,
        spinup_time: truth.spinup_steps as f64 * FINE_DT,
        samples: args.samples,
        vorticity_rms: vorticity_rms(frames),
        vorticity_rms_32: vorticity_rms(&coarse_vorticity),
        paper_time_scale_steps: paper_time_scale_steps(&coarse_frames, n, COARSE_DT),
        integral_time_scale_steps: scale,
        integral_time_scale_time: scale.map(|s| s * COARSE_DT),
        e_folding_steps: first_crossing(&correlation, (-1.0f64).exp()),
        correlation,
        spectral_steps_per_second,
        coarse,
    };
    print_figures(&bench, args.json, print_bench)
}

fn print_bench(b: &KolmogorovBench) {
    println!(
        "Kolmogorov flow, Re {}: truth 128² (dt 0.005), spin-up {} from seed {}, {} frames every 0.02",
        b.reynolds, b.spinup_time, b.seed, b.samples
    );
    println!(
        "  vorticity rms                {:.4} (128²), {:.4} (32²)",
        b.vorticity_rms, b.vorticity_rms_32
    );
    println!(
        "  paper's time scale (32²)     {:.2} coarse steps (1/rms(W)/0.02)",
        b.paper_time_scale_steps
    );
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
    for run in &b.coarse {
        println!(
            "  coarse {:8} 32², dt 0.02 (f32): {:.1} steps/s, batch 1, CPU",
            run.scheme, run.steps_per_second
        );
        match run.diverged_at {
            Some(step) => println!("    DIVERGED at step {step}"),
            None => println!(
                "    {} steps finite; vorticity rms {:.4} (coarse/truth at 32²: {:.3}); paper's time scale {:.2}; max relative divergence {:.1e}",
                run.steps,
                run.vorticity_rms,
                run.vorticity_rms / b.vorticity_rms_32,
                run.paper_time_scale_steps,
                run.relative_divergence
            ),
        }
    }
}
