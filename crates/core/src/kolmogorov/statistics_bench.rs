//! `unroll-lab bench statistics --system kolmogorov`: the developed flow's statistics at one
//! Reynolds number (the spectral truth at 128², dt 0.005, sampled every 0.02; its vorticity rms
//! and the paper's time-scale estimator also on the down-sampled 32² frames) and the solvers'
//! speed: spectral 128² and each coarse scheme at 32² (dt 0.02, batch 1, CPU device, f32), whose
//! long run from the down-sampled developed state is also the stability check and gives the
//! coarse vorticity rms. `--paper-tests` instead prints the paper's estimator on the `paper`
//! preset's test truth per test start, beside the published values.
//!
//! Flags and defaults: `--reynolds` 600, `--spinup-time` 50, `--samples` 1000 (≥ 2),
//! `--max-lag` 200, `--coarse-steps` 3000, `--coarse-scheme` `piso,ssp-rk3` (of piso, ssp-rk3,
//! heun), `--seed` 0, `--json`.

use std::time::Instant;

use serde::Serialize;

use super::coarse::read_values;
use super::config::{check_reynolds, COARSE_DT, COARSE_RESOLUTION, FINE_DT, FINE_RESOLUTION};
use super::grid::spacing;
use super::initial::{random_vorticity, DEFAULT_MAX_WAVENUMBER, DEFAULT_RMS};
use super::staggered::{coarse_from_fine, divergence, vorticity_from_velocity};
use super::statistics::{
    autocorrelation, first_crossing, integral_time_scale, paper_time_scale_steps, vorticity_rms,
    PAPER_TIME_SCALES,
};
use super::{preset, CoarseSolver, SpectralSolver, TimeScheme};
use crate::backend;
use crate::system::bench::{emit_figures, Emit, SimulateError, StatisticsRequest};
use crate::system::physics::PhysicalSystem;

/// Fine steps per coarse step (0.02 / 0.005).
const FINE_PER_COARSE: usize = 4;
/// Coarse steps between the coarse run's samples.
const COARSE_SAMPLE_EVERY: usize = 50;

/// The request with this bench's defaults filled in, checked before any work.
struct Settings {
    reynolds: f64,
    spinup_time: f64,
    samples: usize,
    max_lag: usize,
    coarse_steps: usize,
    /// The coarse schemes by name, in the order given.
    coarse_schemes: Vec<(String, TimeScheme)>,
    seed: u64,
}

impl Settings {
    fn of(request: &StatisticsRequest) -> Result<Self, SimulateError> {
        let reynolds = check_reynolds(request.reynolds.unwrap_or(600.0))?;
        let samples = request.samples.unwrap_or(1000);
        if samples < 2 {
            return Err(SimulateError::Usage("--samples must be at least 2".into()));
        }
        let schemes = request.coarse_scheme.as_deref().unwrap_or("piso,ssp-rk3");
        Ok(Settings {
            reynolds,
            spinup_time: request.spinup_time.unwrap_or(50.0),
            samples,
            max_lag: request.max_lag.unwrap_or(200),
            coarse_steps: request.coarse_steps.unwrap_or(3000),
            coarse_schemes: schemes
                .split(',')
                .map(str::trim)
                .map(|name| Ok((name.to_string(), parse_scheme(name)?)))
                .collect::<Result<_, SimulateError>>()?,
            seed: request.seed.unwrap_or(0),
        })
    }
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
struct StatisticsBench {
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

fn parse_scheme(name: &str) -> Result<TimeScheme, SimulateError> {
    match name {
        "piso" => Ok(TimeScheme::Piso),
        "ssp-rk3" => Ok(TimeScheme::SspRk3),
        "heun" => Ok(TimeScheme::Heun),
        other => Err(SimulateError::Usage(format!(
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
) -> Result<CoarseRun, SimulateError> {
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
fn paper_tests(system: &dyn PhysicalSystem, emit: Emit<'_>) -> Result<(), SimulateError> {
    let eval = preset::paper_eval();
    let n = COARSE_RESOLUTION;
    emit(&format!(
        "The paper's time scale 1/rms(W)/0.02 on our 32² test truth ({} steps per start)",
        eval.rollout_steps
    ));
    for (size, &reynolds) in eval.scales.iter().enumerate() {
        let published = PAPER_TIME_SCALES
            .iter()
            .find(|(re, _)| *re == reynolds)
            .map(|(_, values)| values);
        for test in 0..eval.tests_per_size {
            let truth = system
                .test_truth(&eval, &Default::default(), size, test)
                .map_err(|err| SimulateError::Usage(err.to_string()))?;
            let ours = paper_time_scale_steps(&truth, n, COARSE_DT);
            let vorticity: Vec<Vec<f64>> = truth
                .iter()
                .map(|frame| vorticity_from_velocity(n, frame))
                .collect::<Result<_, _>>()?;
            let paper = published.and_then(|values| values.get(test)).copied();
            emit(&format!(
                "  Re {reynolds:6} start {test}: ours {ours:.2}, published {}, ratio {}; ω rms (32²) {:.3}",
                paper.map_or("—".into(), |p| format!("{p:.2}")),
                paper.map_or("—".into(), |p| format!("{:.3}", ours / p)),
                vorticity_rms(&vorticity)
            ));
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

/// Spins the truth up from `settings.seed` and samples `settings.samples` frames.
fn truth_frames(settings: &Settings) -> Result<TruthFrames, SimulateError> {
    let truth = SpectralSolver::new(FINE_RESOLUTION, settings.reynolds, FINE_DT)?;
    let start = random_vorticity(
        FINE_RESOLUTION,
        settings.seed,
        DEFAULT_MAX_WAVENUMBER,
        DEFAULT_RMS,
    )?;
    let spinup_steps = (settings.spinup_time.max(0.0) / FINE_DT).round() as usize;
    let clock = Instant::now();
    let mut spectrum = truth.to_spectrum(&start)?;
    for _ in 0..spinup_steps {
        spectrum = truth.step_spectrum(&spectrum);
    }
    let developed = truth.to_grid(&spectrum);
    let mut frames = Vec::with_capacity(settings.samples);
    for _ in 0..settings.samples {
        for _ in 0..FINE_PER_COARSE {
            spectrum = truth.step_spectrum(&spectrum);
        }
        frames.push(truth.to_grid(&spectrum));
    }
    let fine_steps = spinup_steps + settings.samples * FINE_PER_COARSE;
    Ok(TruthFrames {
        spinup_steps,
        developed,
        frames,
        steps_per_second: fine_steps as f64 / clock.elapsed().as_secs_f64().max(1e-12),
    })
}

/// Each coarse scheme of `settings` from the developed truth, down-sampled.
fn coarse_runs(settings: &Settings, developed: &[f64]) -> Result<Vec<CoarseRun>, SimulateError> {
    let mut coarse = Vec::new();
    for (name, scheme) in &settings.coarse_schemes {
        let start = coarse_from_fine(developed, FINE_RESOLUTION, COARSE_RESOLUTION)?;
        coarse.push(coarse_run(
            name,
            *scheme,
            settings.reynolds,
            start,
            settings.coarse_steps,
        )?);
    }
    Ok(coarse)
}

/// The truth's statistics and time scales, and each coarse scheme (`--paper-tests`: the
/// paper's estimator per test start), printed through `emit`.
pub fn bench_statistics(
    system: &dyn PhysicalSystem,
    request: &StatisticsRequest,
    emit: Emit<'_>,
) -> Result<(), SimulateError> {
    if request.paper_tests {
        return paper_tests(system, emit);
    }
    let settings = Settings::of(request)?;
    let truth = truth_frames(&settings)?;
    let (frames, spectral_steps_per_second) = (&truth.frames, truth.steps_per_second);
    let correlation = autocorrelation(frames, settings.max_lag);
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
    let coarse = coarse_runs(&settings, &truth.developed)?;
    let bench = StatisticsBench {
        reynolds: settings.reynolds,
        seed: settings.seed,
        spinup_time: truth.spinup_steps as f64 * FINE_DT,
        samples: settings.samples,
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
    emit_figures(&bench, request.json, emit, |bench, emit| {
        print_truth(bench, emit);
        print_coarse(bench, emit);
    })
}

/// The table's truth lines.
fn print_truth(b: &StatisticsBench, emit: Emit<'_>) {
    emit(&format!(
        "Kolmogorov flow, Re {}: truth 128² (dt 0.005), spin-up {} from seed {}, {} frames every 0.02",
        b.reynolds, b.spinup_time, b.seed, b.samples
    ));
    emit(&format!(
        "  vorticity rms                {:.4} (128²), {:.4} (32²)",
        b.vorticity_rms, b.vorticity_rms_32
    ));
    emit(&format!(
        "  paper's time scale (32²)     {:.2} coarse steps (1/rms(W)/0.02)",
        b.paper_time_scale_steps
    ));
    emit(&match b.integral_time_scale_steps {
        Some(steps) => format!(
            "  integral time scale          {steps:.2} coarse steps ({:.4} time units)",
            steps * COARSE_DT
        ),
        None => {
            "  integral time scale          correlation stays positive up to the largest lag".into()
        }
    });
    emit(&match b.e_folding_steps {
        Some(steps) => format!("  e-folding time (C = 1/e)     {steps:.2} coarse steps"),
        None => "  e-folding time (C = 1/e)     beyond the largest lag".into(),
    });
    let at = |lag: usize| b.correlation.get(lag).map_or(f64::NAN, |c| *c);
    emit(&format!(
        "  autocorrelation              lag 1: {:.3}, 5: {:.3}, 10: {:.3}, 20: {:.3}, 50: {:.3}, 100: {:.3}",
        at(1),
        at(5),
        at(10),
        at(20),
        at(50),
        at(100)
    ));
}

/// The table's solver-speed lines: the spectral truth, then each coarse run.
fn print_coarse(b: &StatisticsBench, emit: Emit<'_>) {
    emit(&format!(
        "  spectral 128², dt 0.005      {:.1} steps/s",
        b.spectral_steps_per_second
    ));
    for run in &b.coarse {
        emit(&format!(
            "  coarse {:8} 32², dt 0.02 (f32): {:.1} steps/s, batch 1, CPU",
            run.scheme, run.steps_per_second
        ));
        emit(&match run.diverged_at {
            Some(step) => format!("    DIVERGED at step {step}"),
            None => format!(
                "    {} steps finite; vorticity rms {:.4} (coarse/truth at 32²: {:.3}); paper's time scale {:.2}; max relative divergence {:.1e}",
                run.steps,
                run.vorticity_rms,
                run.vorticity_rms / b.vorticity_rms_32,
                run.paper_time_scale_steps,
                run.relative_divergence
            ),
        });
    }
}
