//! Units for people: FLOPs, bytes, durations, and the one-line cost of a study.

use unroll_core::study::cells::cost::Cost;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// `3.2 GFLOP`.
pub fn format_flops(flops: f64) -> String {
    let units = [
        (1e15, "PFLOP"),
        (1e12, "TFLOP"),
        (1e9, "GFLOP"),
        (1e6, "MFLOP"),
        (1e3, "kFLOP"),
    ];
    for (scale, unit) in units {
        if flops >= scale {
            return format!("{:.1} {unit}", flops / scale);
        }
    }
    format!("{flops:.0} FLOP")
}

/// `412 MiB`, `1.6 GiB`.
pub fn format_bytes(bytes: f64) -> String {
    if bytes >= GIB {
        format!("{:.2} GiB", bytes / GIB)
    } else {
        format!("{:.0} MiB", (bytes / (1024.0 * 1024.0)).max(1.0))
    }
}

/// `45 s`, `12 min`, `3.5 h`.
pub fn format_seconds(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else if seconds < 90.0 * 60.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// One line: trainings, iterations, FLOPs, memory and the trainings' time at `flop_rate`
/// FLOP/s (or that the time waits for a calibration); the data are counted, not timed (the
/// page's estimate times them: `experiment::estimate`).
pub fn cost_summary(cost: &Cost, flop_rate: Option<f64>) -> String {
    let time = match (cost.seconds(flop_rate), flop_rate) {
        (Some(seconds), Some(rate)) => format!(
            "trainings ≈ {} at the measured {}/s",
            format_seconds(seconds),
            format_flops(rate)
        ),
        _ => "time estimate after calibration".to_string(),
    };
    with_time(cost, &time)
}

/// `cost`'s trainings, iterations, counted FLOPs (training, evaluation, data) and memory, then
/// `time`, as one sentence.
pub fn with_time(cost: &Cost, time: &str) -> String {
    format!(
        "{} trainings, {} iterations in all; {} counted ({} training, {} evaluation; data {}); \
         memory ≈ {}; {time}.",
        cost.trainings,
        cost.iterations,
        format_flops(cost.flops()),
        format_flops(cost.training_flops),
        format_flops(cost.evaluation_flops),
        format_flops(cost.data_flops),
        format_bytes(cost.memory_bytes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_well() {
        assert_eq!(format_flops(3.2e9), "3.2 GFLOP");
        assert_eq!(format_flops(12.0), "12 FLOP");
        assert_eq!(format_bytes(1.5 * GIB), "1.50 GiB");
        assert_eq!(format_bytes(10.0), "1 MiB");
        assert_eq!(format_seconds(30.0), "30 s");
        assert_eq!(format_seconds(600.0), "10 min");
        assert_eq!(format_seconds(7200.0), "2.0 h");
        let cost = Cost {
            trainings: 6,
            iterations: 1800,
            training_flops: 1e12,
            evaluation_flops: 2e11,
            data_flops: 0.0,
            memory_bytes: 2e7,
        };
        assert!(cost_summary(&cost, None).starts_with("6 trainings, 1800 iterations in all;"));
        assert!(cost_summary(&cost, None).contains("time estimate after calibration"));
        assert!(cost_summary(&cost, Some(1.2e12 / 120.0)).contains("≈ 2 min"));
    }
}
