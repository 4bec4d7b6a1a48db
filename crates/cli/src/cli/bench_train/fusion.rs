//! `bench train --compare-fusion`: the same training at every level of [`Fusion`], interleaved
//! in rounds so a load on the machine falls on every level alike.

use std::time::Instant;

use super::super::CliError;
use super::Level;
use unroll_core::nets::fusion::{self, Fusion};
use unroll_core::profile;
use unroll_core::train::run::LossLog;
use unroll_core::train::Trainer;

/// Rounds of [`compare_fusion`]; each runs every level, in rotating order.
pub(super) const ROUNDS: usize = 6;

/// `iterations` steps at each level of [`Fusion`] on the same trainer (the same math: only the
/// kernels differ), in [`ROUNDS`] rounds of rotating order, so that a load on the machine falls
/// on every level alike. Restores [`Fusion::Block`].
pub(super) fn compare_fusion(
    trainer: &mut Trainer,
    log: &mut LossLog,
    iterations: usize,
) -> Result<Vec<Level>, CliError> {
    let chunk = iterations.div_ceil(ROUNDS);
    let levels = Fusion::ALL.len();
    let mut seconds = vec![0.0f64; levels];
    let mut ops = vec![0u64; levels];
    let mut block = |which: usize| -> Result<(), CliError> {
        fusion::set_fusion(Fusion::ALL[which]);
        let ops_before = profile::tracked_ops();
        let start = Instant::now();
        for _ in 0..chunk {
            log.push(trainer.step()?);
        }
        pollster::block_on(log.flush())?;
        seconds[which] += start.elapsed().as_secs_f64();
        ops[which] += profile::tracked_ops() - ops_before - 1;
        Ok(())
    };
    let mut done = Ok(());
    for round in 0..ROUNDS {
        for k in 0..levels {
            done = done.and_then(|()| block((round + k) % levels));
        }
    }
    fusion::set_fusion(Fusion::Block);
    done?;
    let steps = (chunk * ROUNDS) as f64;
    Ok(Fusion::ALL
        .iter()
        .enumerate()
        .map(|(which, level)| Level {
            fusion: level.name(),
            ms_per_iteration: seconds[which] * 1e3 / steps,
            tracked_ops_per_iteration: ops[which] as f64 / steps,
        })
        .collect())
}
