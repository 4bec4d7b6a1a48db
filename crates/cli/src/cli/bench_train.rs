//! `unroll-lab bench train`: iterations/s of a system's study variants (KS: P/C × ONE/NOG/WIG;
//! Kolmogorov: C × ONE/NOG/WIG; Burgers: its modes) at the study's network on the CPU backend,
//! with counted FLOPs per iteration (network and solver) and achieved GFLOP/s; `--profile` splits
//! an iteration into network and solver forward and backward, Adam and the rest.

use std::collections::BTreeMap;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

mod configs;
mod fusion;
mod print;

use configs::{bench_configs, bench_data, heading};
use fusion::{compare_fusion, ROUNDS};
use print::print_bench;

use super::output::print_figures;
use super::CliError;
use unroll_core::backend::NativeDevice;
use unroll_core::counted;
use unroll_core::launches::count_launches;
use unroll_core::nets::Architecture;
use unroll_core::profile::{self, Phase, PHASES};
use unroll_core::system::{PhysicalSystem, System};
use unroll_core::train::flops::flops_per_iteration;
use unroll_core::train::run::LossLog;
use unroll_core::train::{Modality, Mode, TrainConfig, Trainer};
use unroll_core::types::Trajectory;

#[derive(Debug, Args)]
pub struct BenchTrainArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Timed iterations per variant (after 3 untimed ones).
    #[arg(long, default_value_t = 30)]
    iterations: usize,
    /// Also time each phase of an iteration (network and solver forward and backward, gather,
    /// loss, the rest of the backward, Adam, other) and count tensor ops and gemm calls.
    #[arg(long)]
    profile: bool,
    /// The system whose study variants are timed: ks, kolmogorov or burgers.
    #[arg(long, default_value_t = System::default(), value_parser = parse_system)]
    system: System,
    /// Also time the three levels of fusion (`nets::fusion::Fusion`: burn's composite ops, the
    /// fused LeakyReLU, the fused blocks and convolutions) on the same trainer, interleaved in
    /// rounds of rotating order, and print each.
    #[arg(long)]
    compare_fusion: bool,
    /// The device to train on: cpu, wgpu (built with `--features gpu`) or cuda (`--features cuda`).
    #[arg(long, default_value = "cpu", value_parser = parse_device)]
    device: NativeDevice,
    /// The network: the study's (KS: ResNet1D 16×10; Kolmogorov: the smallest 2-D ResNet) by
    /// default, or another of the system's architectures at its default size (`dilated`,
    /// `unet`, `gcn`, `fno`).
    #[arg(long)]
    architecture: Option<Architecture>,
    /// Instead: time ensembles of these sizes `K` (e.g. `1,6,18`: seeds of one variant trained
    /// as one model, `nets::Ensemble`) against one network trained alone, interleaved, and print
    /// the per-network iterations/s of each.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    ensemble: Vec<usize>,
}

fn parse_device(name: &str) -> Result<NativeDevice, String> {
    NativeDevice::parse(name)
}

fn parse_system(name: &str) -> Result<System, String> {
    name.parse::<System>().map_err(|err| err.to_string())
}

#[derive(Debug, Serialize)]
struct Variant {
    mode: &'static str,
    modality: &'static str,
    iterations_per_sec: f64,
    ms_per_iteration: f64,
    /// Tensor operations per iteration on the autodiff device (with `--profile`): the forward
    /// graph's nodes, see [`profile::tracked_ops`].
    #[serde(skip_serializing_if = "Option::is_none")]
    tracked_ops_per_iteration: Option<f64>,
    /// gemm calls per iteration on the CPU backend (with `--profile`): every matrix product of
    /// the forward and the reverse pass, see [`counted::gemm_calls`].
    #[serde(skip_serializing_if = "Option::is_none")]
    gemm_calls_per_iteration: Option<f64>,
    /// GPU kernel launches (dispatches) per iteration on a GPU device, see [`count_launches`].
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu_launches_per_iteration: Option<f64>,
    /// With `--compare-fusion`: ms and tensor ops per iteration at each level of fusion, timed
    /// interleaved on the same trainer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fusion: Vec<Level>,
    /// Milliseconds per iteration in each phase (with `--profile`), and `other` (the rest).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    phases_ms: BTreeMap<&'static str, f64>,
}

#[derive(Debug, Serialize)]
struct Level {
    fusion: &'static str,
    ms_per_iteration: f64,
    tracked_ops_per_iteration: f64,
}

#[derive(Debug, Serialize)]
struct Bench {
    system: &'static str,
    network: String,
    device: &'static str,
    channels: usize,
    depth: usize,
    batch: usize,
    horizon: usize,
    variants: Vec<Variant>,
    /// Keyed `"P-ONE"` …: counted forward + backward FLOPs of one iteration (network and
    /// solver, `train::flops`).
    flops_per_iteration: BTreeMap<String, f64>,
    /// Keyed likewise: counted FLOPs per iteration × iterations/s, in GFLOP/s.
    gflops: BTreeMap<String, f64>,
}

pub fn bench_train(args: &BenchTrainArgs) -> Result<(), CliError> {
    if args.iterations == 0 {
        return Err(CliError::Usage("--iterations must be at least 1".into()));
    }
    let device = args.device.device().map_err(CliError::Usage)?;
    let system = args.system.physics();
    if let Some(a) = args
        .architecture
        .filter(|a| !system.architectures().contains(a))
    {
        return Err(CliError::Usage(format!(
            "{} has no {a} network",
            args.system
        )));
    }
    let (data, trajectories) = bench_data(system)?;
    // Enough iterations for the timed ones, the warm-up and `--compare-fusion`'s rounds.
    let planned = 4 * args.iterations + 3 * ROUNDS + 3;
    let configs = bench_configs(system, args.architecture, &data, planned);
    if !args.ensemble.is_empty() {
        let bench = super::bench_ensemble::bench_ensemble(
            system,
            configs.clone(),
            &trajectories,
            &device,
            &args.ensemble,
            args.iterations,
        )?;
        if !args.json {
            println!("training on {}: {}", args.device.label(), heading(&configs));
        }
        return super::bench_ensemble::print(&bench, args.json);
    }
    let bench = time_configs(args, system, configs, &trajectories, &device)?;
    print_figures(&bench, args.json, print_bench)
}

/// Times every config of `configs` on `trajectories` (see [`time_variant`]).
fn time_configs(
    args: &BenchTrainArgs,
    system: &dyn PhysicalSystem,
    configs: Vec<TrainConfig>,
    trajectories: &[Trajectory],
    device: &burn::tensor::Device,
) -> Result<Bench, CliError> {
    let mut bench = Bench {
        system: args.system.name(),
        network: String::new(),
        device: args.device.label(),
        channels: 0,
        depth: 0,
        batch: 0,
        horizon: 0,
        variants: Vec::new(),
        flops_per_iteration: BTreeMap::new(),
        gflops: BTreeMap::new(),
    };
    for config in configs {
        bench.network = heading(std::slice::from_ref(&config));
        bench.channels = config.net.channels;
        bench.depth = config.net.depth;
        bench.batch = config.batch;
        bench.horizon = config.unroll.horizon;
        let label = config.variant_id().label();
        let solver = system.solver_flops_per_state(config.mode, config.alpha);
        let flops = flops_per_iteration(&config, system.state_shape().values(), solver);
        let (mode, modality) = (config.mode, config.modality);
        let mut trainer = system.trainer(config, trajectories, device)?;
        let variant = time_variant(args, &mut trainer, mode, modality)?;
        if !args.json {
            eprintln!("{label}: {:.2} it/s", variant.iterations_per_sec);
        }
        bench
            .gflops
            .insert(label.clone(), flops * variant.iterations_per_sec / 1e9);
        bench.flops_per_iteration.insert(label, flops);
        bench.variants.push(variant);
    }
    Ok(bench)
}

/// What one timed run measured: the phases' seconds, tensor ops, gemm calls and GPU launches
/// per iteration (the first three with `--profile`).
type Measured = (Option<[f64; PHASES]>, Option<f64>, Option<f64>, Option<f64>);

/// Times `trainer` (3 untimed steps, then `--iterations`), profiled with `--profile`.
fn time_variant(
    args: &BenchTrainArgs,
    trainer: &mut Trainer,
    mode: Mode,
    modality: Modality,
) -> Result<Variant, CliError> {
    let mut log = LossLog::default();
    for _ in 0..3 {
        log.push(trainer.step()?);
    }
    pollster::block_on(log.flush())?;
    let start = Instant::now();
    let (phase_seconds, tracked_ops, gemm_calls, launches) = measure(args, trainer, &mut log)?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let fusion = if args.compare_fusion {
        compare_fusion(trainer, &mut log, args.iterations)?
    } else {
        Vec::new()
    };
    let ms_per_iteration = 1e3 * seconds / args.iterations as f64;
    let phases_ms = phase_seconds.map_or_else(BTreeMap::new, |phase_seconds| {
        per_iteration_ms(&phase_seconds, ms_per_iteration, args.iterations)
    });
    Ok(Variant {
        mode: mode.name(),
        modality: modality.name(),
        iterations_per_sec: args.iterations as f64 / seconds,
        ms_per_iteration,
        tracked_ops_per_iteration: tracked_ops,
        gemm_calls_per_iteration: gemm_calls,
        gpu_launches_per_iteration: launches,
        fusion,
        phases_ms,
    })
}

/// `--iterations` steps of `trainer`, recorded and counted with `--profile`.
fn measure(
    args: &BenchTrainArgs,
    trainer: &mut Trainer,
    log: &mut LossLog,
) -> Result<Measured, CliError> {
    let mut timed = |log: &mut LossLog| -> Result<(), CliError> {
        for _ in 0..args.iterations {
            log.push(trainer.step()?);
        }
        pollster::block_on(log.flush())?;
        Ok(())
    };
    let per_iteration = |n: u64| Some(n as f64 / args.iterations as f64);
    let on_gpu = args.device != NativeDevice::Cpu;
    if !args.profile {
        let (done, launches) = count_launches(|| timed(log));
        done?;
        return Ok((
            None,
            None,
            None,
            launches.filter(|_| on_gpu).and_then(per_iteration),
        ));
    }
    let ops_before = profile::tracked_ops();
    let gemms_before = counted::gemm_calls();
    let ((done, seconds), launches) =
        count_launches(|| profile::record(seconds_since_start, || timed(log)));
    done?;
    let ops = profile::tracked_ops() - ops_before - 1;
    let gemms = counted::gemm_calls() - gemms_before;
    Ok((
        Some(seconds),
        per_iteration(ops),
        per_iteration(gemms),
        launches.filter(|_| on_gpu).and_then(per_iteration),
    ))
}

/// Seconds since the first call: the profile's clock.
fn seconds_since_start() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Milliseconds per iteration in each phase, plus `other`: the iteration time outside them.
fn per_iteration_ms(
    phase_seconds: &[f64; PHASES],
    ms_per_iteration: f64,
    iterations: usize,
) -> BTreeMap<&'static str, f64> {
    let mut phases: BTreeMap<&'static str, f64> = Phase::ALL
        .iter()
        .map(|&phase| {
            (
                phase.name(),
                1e3 * phase_seconds[phase as usize] / iterations as f64,
            )
        })
        .collect();
    let counted: f64 = phases.values().sum();
    phases.insert("other", (ms_per_iteration - counted).max(0.0));
    phases
}
