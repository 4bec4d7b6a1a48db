//! What shipping a study's data and baseline to the workers saves: for the page's default KS
//! study and its Kolmogorov study (browser presets), the time to make the data and score the
//! baseline natively, and what handing them on as JSON costs (size; written by the maker, read
//! and written again by the page, read and decoded by a worker). Every worker but the first
//! used to spend the making time; it now receives the data instead. A measurement, not a check:
//! `cargo test --test prepare_timing -- --ignored --nocapture`.

#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use unroll_core::backend;
use unroll_core::study::data::prepared::Prepared;
use unroll_core::study::run::runner::Study;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_report::experiment::{Experiment, Target};

fn measure(system: System) {
    let config = Experiment::defaults_for(system, Preset::Quick, Target::Browser).study_config();
    let clock = Instant::now();
    let mut study = Study::new(
        config.clone(),
        System::physics,
        &backend::cpu(),
        Box::new(move || clock.elapsed().as_secs_f64()),
    )
    .expect("study");
    let start = Instant::now();
    while !study.data_ready() {
        pollster::block_on(study.advance(1)).expect("advance");
    }
    let making = start.elapsed().as_secs_f64();
    let prepared = study.prepared().expect("prepared");
    let start = Instant::now();
    let json = serde_json::to_string(&prepared).expect("json");
    let write = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let back: Prepared = serde_json::from_str(&json).expect("parse");
    let read = start.elapsed().as_secs_f64();
    assert_eq!(back, prepared);
    let start = Instant::now();
    let receiver = Study::new(config, System::physics, &backend::cpu(), Box::new(|| 0.0))
        .expect("study")
        .with_prepared(back)
        .expect("decodes");
    let decode = start.elapsed().as_secs_f64();
    assert_eq!(receiver.prepared().as_ref(), Some(&prepared));
    println!(
        "{system}: data + baseline made in {making:.2} s; shipped as {:.1} MB of JSON \
         ({:.1} MB of numbers), written in {write:.2} s, read in {read:.2} s, decoded into a \
         study in {decode:.2} s",
        json.len() as f64 / 1e6,
        prepared.value_bytes() as f64 / 1e6,
    );
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn time_to_prepare_the_browser_presets() {
    for system in [System::Ks, System::Kolmogorov] {
        measure(system);
    }
}
