//! `unroll-lab bench train --ensemble 1,6,18`: per-network iterations/s of ensembles of `K`
//! members (the seeds of one variant as one model, `nets::Ensemble`) against one network
//! trained alone, each variant's sizes timed in interleaved rounds; on a GPU also the kernel
//! launches (dispatches) per iteration, which an ensemble shares among its members.

use std::time::Instant;

use serde::Serialize;

use super::output::print_figures;
use super::CliError;
use unroll_core::launches::count_launches;
use unroll_core::system::PhysicalSystem;
use unroll_core::train::run::LossLog;
use unroll_core::train::{EnsembleTrainer, MemberLogs, TrainConfig, Trainer};
use unroll_core::types::Trajectory;

/// Rounds per variant; each times every size once, in rotating order.
const ROUNDS: usize = 3;

/// One variant's figures.
#[derive(Debug, Serialize)]
pub struct VariantEnsembles {
    variant: String,
    /// The network, `gcn 16×10`.
    network: String,
    /// Iterations/s of one network trained alone (`Trainer`).
    alone_iterations_per_sec: f64,
    /// GPU kernel launches per iteration of one network alone (none on the CPU).
    #[serde(skip_serializing_if = "Option::is_none")]
    alone_gpu_launches_per_iteration: Option<f64>,
    sizes: Vec<Size>,
}

/// One ensemble size's figures.
#[derive(Debug, Serialize)]
pub struct Size {
    members: usize,
    /// Ensemble iterations/s (every member steps once per iteration).
    iterations_per_sec: f64,
    /// `members × iterations_per_sec`: network iterations/s.
    per_network_iterations_per_sec: f64,
    /// `per_network_iterations_per_sec` / one network alone.
    speedup: f64,
    /// GPU kernel launches per ensemble iteration (all members; none on the CPU).
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu_launches_per_iteration: Option<f64>,
}

/// Either trainer, stepped `iterations` times with a readback at the end.
enum Timed {
    Alone(Box<Trainer>, LossLog),
    Together(Box<EnsembleTrainer>, MemberLogs),
}

impl Timed {
    fn steps(&mut self, iterations: usize) -> Result<f64, CliError> {
        let start = Instant::now();
        match self {
            Timed::Alone(trainer, log) => {
                for _ in 0..iterations {
                    log.push(trainer.step()?);
                }
                pollster::block_on(log.flush())?;
            }
            Timed::Together(trainer, logs) => {
                for _ in 0..iterations {
                    logs.push(trainer.step()?);
                }
                pollster::block_on(logs.flush())?;
            }
        }
        Ok(start.elapsed().as_secs_f64())
    }
}

/// Times every config in `configs` alone and as ensembles of each of `sizes` (seeds 1…K),
/// `iterations` per size split over [`ROUNDS`] rounds, after 2 untimed iterations each.
pub fn bench_ensemble(
    system: &dyn PhysicalSystem,
    configs: Vec<TrainConfig>,
    trajectories: &[Trajectory],
    device: &burn::tensor::Device,
    sizes: &[usize],
    iterations: usize,
) -> Result<Vec<VariantEnsembles>, CliError> {
    if sizes.contains(&0) {
        return Err(CliError::Usage(
            "--ensemble sizes must be at least 1".into(),
        ));
    }
    let chunk = iterations.div_ceil(ROUNDS);
    configs
        .into_iter()
        .map(|config| time_variant(system, config, trajectories, device, sizes, chunk))
        .collect()
}

/// Times `config` alone and as ensembles of each of `sizes`, `chunk` iterations per size and
/// round.
fn time_variant(
    system: &dyn PhysicalSystem,
    mut config: TrainConfig,
    trajectories: &[Trajectory],
    device: &burn::tensor::Device,
    sizes: &[usize],
    chunk: usize,
) -> Result<VariantEnsembles, CliError> {
    config.iterations = chunk * ROUNDS + 2;
    // Seeds share one model only in seeded rounds (in ks_train.py's epochs each seed keeps its
    // own learning-rate clock): the bench times the member axis in the order the page trains.
    config.order = unroll_core::train::config::MinibatchOrder::Rounds;
    let label = config.variant_id().label();
    let net = &config.net;
    let network = format!("{} {}×{}", net.architecture, net.channels, net.depth);
    let mut timed = vec![Timed::Alone(
        Box::new(system.trainer(config.clone(), trajectories, device)?),
        LossLog::default(),
    )];
    for &members in sizes {
        let seeds = (1..=members as u64).map(|seed| TrainConfig {
            seed,
            ..config.clone()
        });
        let trainer = system.ensemble_trainer(seeds.collect(), trajectories, device)?;
        timed.push(Timed::Together(Box::new(trainer), MemberLogs::new(members)));
    }
    let (seconds, launches) = time_rounds(&mut timed, chunk)?;
    let done = (chunk * ROUNDS) as f64;
    let per_iteration = |n: Option<u64>| n.filter(|&n| n > 0).map(|n| n as f64 / done);
    let alone = done / seconds[0];
    let sizes = sizes
        .iter()
        .zip(seconds[1..].iter().zip(&launches[1..]))
        .map(|(&members, (&secs, &launched))| {
            let rate = done / secs;
            Size {
                members,
                iterations_per_sec: rate,
                per_network_iterations_per_sec: rate * members as f64,
                speedup: rate * members as f64 / alone,
                gpu_launches_per_iteration: per_iteration(launched),
            }
        })
        .collect();
    eprintln!("{label}: done");
    Ok(VariantEnsembles {
        variant: label,
        network,
        alone_iterations_per_sec: alone,
        alone_gpu_launches_per_iteration: per_iteration(launches[0]),
        sizes,
    })
}

/// Seconds and GPU launches of each of `timed` over [`ROUNDS`] rounds of `chunk` iterations
/// (rotating order), after 2 untimed iterations each.
fn time_rounds(
    timed: &mut [Timed],
    chunk: usize,
) -> Result<(Vec<f64>, Vec<Option<u64>>), CliError> {
    let mut seconds = vec![0.0; timed.len()];
    let mut launches: Vec<Option<u64>> = vec![Some(0); timed.len()];
    for t in timed.iter_mut() {
        t.steps(2)?;
    }
    for round in 0..ROUNDS {
        for k in 0..timed.len() {
            let which = (round + k) % timed.len();
            let (secs, launched) = count_launches(|| timed[which].steps(chunk));
            seconds[which] += secs?;
            launches[which] = launches[which].zip(launched).map(|(a, b)| a + b);
        }
    }
    Ok((seconds, launches))
}

/// Prints the figures (a table, or JSON).
pub fn print(bench: &[VariantEnsembles], json: bool) -> Result<(), CliError> {
    print_figures(bench, json, print_table)
}

/// Prints the figures as a table.
fn print_table(bench: &[VariantEnsembles]) {
    println!(
        "per-network iterations/s: one network alone, and K members as one ensemble (× alone)"
    );
    for variant in bench {
        let sizes: Vec<String> = variant
            .sizes
            .iter()
            .map(|s| {
                format!(
                    "K={} {:.1} ({:.2}×)",
                    s.members, s.per_network_iterations_per_sec, s.speedup
                )
            })
            .collect();
        println!(
            "  {:<22} alone {:>6.1}   {}",
            variant.variant,
            variant.alone_iterations_per_sec,
            sizes.join("   ")
        );
        if let Some(alone) = variant.alone_gpu_launches_per_iteration {
            let sizes: Vec<String> = variant
                .sizes
                .iter()
                .map(|s| {
                    let launches = s.gpu_launches_per_iteration.unwrap_or(0.0);
                    format!("K={} {launches:.0}", s.members)
                })
                .collect();
            println!(
                "  {:<22} GPU kernel launches/it: alone {alone:.0}   {}",
                "",
                sizes.join("   ")
            );
        }
    }
}
