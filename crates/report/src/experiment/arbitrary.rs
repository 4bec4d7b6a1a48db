//! proptest generators of experiments (the `arbitrary` feature, for property tests here and in
//! the CLI): a valid browser experiment of every system.

use proptest::prelude::*;
use proptest::sample::subsequence;

use crate::experiment::{Experiment, Target};
use unroll_core::nets::Architecture;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};

/// 1 to 8 distinct training values of `system`'s parameter inside its browser range (steps of
/// a thousandth of the range).
fn scales(system: System) -> impl Strategy<Value = Vec<f64>> {
    let (low, high) = system.physics().parameter().browser;
    prop::collection::btree_set(0u32..=1000, 1..=8).prop_map(move |steps| {
        steps
            .into_iter()
            .map(|k| (low + (high - low) * f64::from(k) / 1000.0).min(high))
            .collect()
    })
}

/// A valid browser experiment of any system (every knob within the browser's limits for that
/// system; architectures the system's study refuses are replaced by its defaults).
#[expect(
    clippy::too_many_lines,
    reason = "one generator: every knob's range beside the field it fills"
)]
pub fn experiment() -> impl Strategy<Value = Experiment> {
    prop::sample::select(System::ALL.to_vec()).prop_flat_map(|system| {
        (
            (
                prop::sample::select(Preset::BROWSER.to_vec()),
                subsequence(Mode::ALL.to_vec(), 1..=3),
                subsequence(Modality::ALL.to_vec(), 1..=3),
                prop::sample::select(Architecture::ALL.to_vec()),
                1usize..=64,
                0usize..=16,
                1usize..=32,
                0usize..=32,
            ),
            (
                0usize..=32,
                0.0f64..1.0,
                1e-6f64..=1.0,
                1usize..=5,
                1usize..=20_000,
                12usize..=5000,
                scales(system),
                subsequence(Architecture::ALL.to_vec(), 1..=5),
            ),
        )
            .prop_map(
                move |(
                    (preset, modes, modalities, architecture, channels, depth, horizon, warmup),
                    (
                        detach,
                        alpha,
                        learning_rate,
                        seeds,
                        iterations,
                        rollout,
                        scales,
                        architectures,
                    ),
                )| {
                    let defaults = Experiment::defaults_for(system, preset, Target::Browser);
                    let accepted = |a: &Architecture| {
                        Experiment {
                            architecture: *a,
                            architectures: vec![*a],
                            ..defaults.clone()
                        }
                        .study_config()
                        .validate(defaults.system.physics())
                        .is_ok()
                    };
                    let architecture = Some(architecture)
                        .filter(accepted)
                        .unwrap_or(defaults.architecture);
                    let architectures: Vec<Architecture> =
                        architectures.into_iter().filter(accepted).collect();
                    let architectures = if architectures.is_empty() {
                        defaults.architectures.clone()
                    } else {
                        architectures
                    };
                    Experiment {
                        modes,
                        modalities,
                        architecture,
                        architectures,
                        channels,
                        // A U-Net halves 48 points at most 4 times.
                        depth: depth.min(architecture.max_depth()),
                        horizon,
                        warmup,
                        detach,
                        alpha,
                        learning_rates: vec![learning_rate],
                        seeds,
                        iterations,
                        rollout,
                        scales,
                        ..defaults
                    }
                },
            )
    })
}
