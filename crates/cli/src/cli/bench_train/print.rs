//! `bench train`'s human-readable table: per variant its speed, counted FLOPs and, with
//! `--profile` or `--compare-fusion`, its detail lines.

use super::{Bench, Variant};
use unroll_core::train::Mode;

/// The human-readable table.
pub(super) fn print_bench(bench: &Bench) {
    println!(
        "{} training on {}: {}",
        bench.system, bench.device, bench.network
    );
    for v in &bench.variants {
        let label = format!(
            "{}-{}",
            v.mode.parse::<Mode>().map_or("?", Mode::letter),
            v.modality.to_uppercase()
        );
        let flops = bench.flops_per_iteration[&label];
        println!(
            "  {label:<6} {:>8.2} it/s  {:>7.2} ms/it  {:>8.1} MFLOP/it  {:>6.2} GFLOP/s",
            v.iterations_per_sec,
            v.ms_per_iteration,
            flops / 1e6,
            bench.gflops[&label]
        );
        print_details(v, flops);
    }
}

/// A variant's profile lines.
fn print_details(v: &Variant, flops: f64) {
    if !v.phases_ms.is_empty() {
        let parts: Vec<String> = v
            .phases_ms
            .iter()
            .map(|(phase, ms)| format!("{phase} {ms:.2}"))
            .collect();
        println!("         ms/it by phase: {}", parts.join(", "));
    }
    if let Some(ops) = v.tracked_ops_per_iteration {
        println!("         tensor ops/it on the autodiff device (forward graph): {ops:.0}");
    }
    if let Some(launches) = v.gpu_launches_per_iteration {
        println!("         GPU kernel launches/it (dispatches, after fusion): {launches:.0}");
    }
    if let Some(gemms) = v.gemm_calls_per_iteration {
        println!(
            "         gemm calls/it (forward and backward): {gemms:.0}, {:.0} kFLOP counted per call",
            flops / gemms.max(1.0) / 1e3
        );
    }
    if let Some(base) = v.fusion.first() {
        let parts: Vec<String> = v
            .fusion
            .iter()
            .map(|l| {
                format!(
                    "{} {:.2} ms/it ({:.3}×, {:.0} ops/it)",
                    l.fusion,
                    l.ms_per_iteration,
                    l.ms_per_iteration / base.ms_per_iteration,
                    l.tracked_ops_per_iteration
                )
            })
            .collect();
        println!("         interleaved: {}", parts.join(", "));
    }
}
