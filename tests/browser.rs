//! Browser tests (wasm-bindgen-test in headless Chromium, run by `scripts/test.sh` through `wasm-bindgen-test-runner`).
//!
//! The CPU backend compiled to wasm is always exercised; the WebGPU path runs whenever the browser
//! offers an adapter, and the test log names the adapter it used.
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario, read top to bottom (the limit is for the product's code)"
)]
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use unroll_browser::{compute, probe};
use unroll_core::selfcheck;
use unroll_core::system::config::Preset;
use unroll_core::types::System;
use unroll_lab::ui::DeviceBadge;
use unroll_pool::device_choice::{choose, Preference, ProbeRequest};
use unroll_report::device_words::ComputeDevice;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// Each test starts with `run_static_constructors()` (idempotent): this module links it, so wasm-ld
// no longer runs the constructors (burn's kernel registrations) around every export.

#[wasm_bindgen_test]
async fn cpu_backend_passes_the_self_check_in_wasm() {
    unroll_browser::run_static_constructors();
    let report = selfcheck::run(&compute::cpu_device())
        .await
        .expect("the self-check runs");
    console_log!("CPU backend (wasm): {}", report.summary());
    assert_eq!(report.summary(), "6/6 checks passed");
}

#[wasm_bindgen_test]
async fn the_start_up_probe_times_the_cpu_and_webgpu_where_it_exists() {
    unroll_browser::run_static_constructors();
    let system = System::default();
    let request = ProbeRequest {
        system,
        config: system.physics().preset(Preset::Quick, 1).base,
        webgpu: true,
        timeout_ms: probe::WEBGPU_TIMING_TIMEOUT_MS,
        // One training (a software adapter runs even that past the timeout; the timing then
        // finishes in the background, and the later tests share this thread's WebGPU device).
        members: 1,
    };
    let reports = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = reports.clone();
    probe::run(request, &move |probe| sink.borrow_mut().push(probe.clone())).await;
    let reports = reports.borrow();
    assert_eq!(
        reports.len(),
        2,
        "one report once the CPU is timed, one complete"
    );
    assert!(!reports[0].complete && reports[1].complete);
    let probe = reports[1].clone();
    console_log!("start-up probe: {probe:?}");
    assert_eq!(probe.cpu_self_check, "6/6 checks passed");
    assert!(probe.cpu.ms().is_some_and(|ms| ms > 0.0), "{:?}", probe.cpu);
    assert!(probe.flops_per_iteration > 0.0);
    assert_eq!(probe.webgpu_members, 1);
    let choice = choose(&probe.cpu, &probe.webgpu, 3, 6, Preference::Auto);
    console_log!("chosen: {:?} ({})", choice.device, choice.reason);
    assert!(choice.device.is_some());
}

#[wasm_bindgen_test]
async fn webgpu_path_is_exercised_where_an_adapter_exists() {
    unroll_browser::run_static_constructors();
    let adapter = match compute::adapter_description().await {
        Ok(adapter) => adapter,
        Err(reason) => {
            console_log!("WebGPU path not run: no adapter ({reason})");
            return;
        }
    };
    console_log!("WebGPU adapter: {adapter}");
    match compute::webgpu().await {
        Ok(acquired) => {
            console_log!("WebGPU self-check on {adapter}: {}", acquired.self_check);
            let report = selfcheck::run(&acquired.device)
                .await
                .expect("self-check runs again");
            assert!(report.passed(), "{}", report.summary());
        }
        Err(reason) => {
            // The fallback must say which adapter and what failed: that is what the badge shows.
            console_log!("WebGPU rejected, app falls back to the CPU: {reason}");
            assert!(
                reason.contains(&adapter),
                "reason must name the adapter: {reason}"
            );
        }
    }
}

#[wasm_bindgen_test]
async fn device_badge_shows_the_device_and_updates() {
    unroll_browser::run_static_constructors();
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("document");
    let host: web_sys::HtmlElement = document
        .create_element("div")
        .expect("div")
        .dyn_into()
        .expect("html element");
    document
        .body()
        .expect("body")
        .append_child(&host)
        .expect("append");
    let (device, set_device) = signal(ComputeDevice::Probing);
    let (complete, _) = signal(true);
    let _handle = leptos::mount::mount_to(
        host.clone(),
        move || view! { <DeviceBadge device=device complete=complete /> },
    );
    // Leptos applies signal updates to the DOM asynchronously: let its scheduler run.
    unroll_browser::timer::sleep(0).await;
    assert!(host
        .text_content()
        .unwrap_or_default()
        .contains("Probing WebGPU"));
    set_device.set(ComputeDevice::Cpu {
        workers: 3,
        self_check: "6/6 checks passed".into(),
        timings: "CPU: 30.0 ms/iteration × 3 workers at once · WebGPU not measured: \
                  navigator.gpu is missing"
            .into(),
        reason: "the CPU: WebGPU is unavailable (navigator.gpu is missing)".into(),
    });
    unroll_browser::timer::sleep(0).await;
    let text = host.text_content().unwrap_or_default();
    assert!(text.contains("CPU (3 workers)"), "{text}");
    assert!(
        text.contains("WebGPU not measured: navigator.gpu is missing"),
        "{text}"
    );
    assert!(
        text.contains("Chosen: the CPU: WebGPU is unavailable"),
        "{text}"
    );
    assert!(
        text.contains("Start-up self-check: 6/6 checks passed"),
        "{text}"
    );
}

/// Issue 3's browser figure: the study's default training set (36 trajectories, 200 warm-up +
/// 5000 kept frames, ETRK2 in f64) generated in wasm. The time is printed, not asserted.
#[wasm_bindgen_test]
fn default_training_set_generates_in_wasm() {
    unroll_browser::run_static_constructors();
    use unroll_core::ks::data::{training_set, DataConfig, KEPT_FRAMES};
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .expect("performance");
    let start = performance.now();
    let set = training_set(&DataConfig::default()).expect("training set");
    let elapsed_ms = performance.now() - start;
    assert_eq!(set.len(), 36);
    assert!(set.iter().all(|t| t.frames() == KEPT_FRAMES));
    assert!(set.iter().all(|t| t.values.iter().all(|v| v.is_finite())));
    console_log!(
        "default training set (36 × (200 + 5000) ETRK2 f64 steps) in wasm: {:.2} s",
        elapsed_ms / 1000.0
    );
}

/// Every architecture trains in wasm on the CPU backend, in every mode and modality: three
/// iterations of a 4-channel, depth-1 net on a short two-size training set give finite losses,
/// and the same seed gives the same losses again.
/// A small KS training set: 2 domain sizes, 20 frames each.
fn tiny_ks_set() -> (
    unroll_core::train::config::TrainDataConfig,
    Vec<unroll_core::types::Trajectory>,
) {
    use unroll_core::ks::data::{data_solver, generate};
    let data = unroll_core::train::config::TrainDataConfig {
        scales: vec![1.0, 1.2],
        warmup_steps: 20,
        frames: 20,
    };
    let set = generate(&data, data_solver(48)).expect("training set");
    (data, set)
}

#[wasm_bindgen_test]
async fn every_architecture_trains_in_every_mode_and_modality_in_wasm() {
    unroll_browser::run_static_constructors();
    use unroll_core::backend;
    use unroll_core::ks::preset::quick;
    use unroll_core::nets::Architecture;
    use unroll_core::system::System;
    use unroll_core::train::run::LossLog;
    use unroll_core::train::{Modality, Mode};

    let (data, set) = tiny_ks_set();
    let device = backend::cpu();
    for architecture in Architecture::ONE_D {
        for mode in [Mode::Predict, Mode::Correct, Mode::Transition] {
            for modality in Modality::ALL {
                let mut config = quick(mode, modality);
                config.net.architecture = architecture;
                config.net.channels = 4;
                config.net.depth = 1;
                config.batch = 2;
                config.iterations = 3;
                config.data = data.clone();
                let mut losses = Vec::new();
                for _ in 0..2 {
                    let mut trainer = System::Ks
                        .physics()
                        .trainer(config.clone(), &set, &device)
                        .expect("trainer");
                    let mut log = LossLog::default();
                    while !trainer.finished() {
                        log.push(trainer.step().expect("step"));
                    }
                    log.flush().await.expect("readback");
                    losses.push(log.history);
                }
                let tag = format!("{architecture} {mode:?} {modality:?}");
                assert_eq!(losses[0].len(), 3, "{tag}");
                assert!(losses[0].iter().all(|l| l.is_finite()), "{tag}: {losses:?}");
                assert_eq!(losses[0], losses[1], "{tag}");
            }
        }
    }
    console_log!("5 architectures × 3 modes × 3 modalities trained in wasm");
}

/// Kolmogorov flow trains in wasm: the 2-D ResNet through the MAC projection solver, WIG with
/// the curriculum 1 → 2 and the gradient guard (its async readback), twice to the same losses.
#[wasm_bindgen_test]
async fn kolmogorov_wig_trains_with_its_curriculum_in_wasm() {
    unroll_browser::run_static_constructors();
    use unroll_core::backend;
    use unroll_core::system::config::Preset;
    use unroll_core::system::System;
    use unroll_core::train::run::LossLog;
    use unroll_core::train::Modality;

    let mut config = System::Kolmogorov.physics().preset(Preset::Quick, 1).base;
    config.modality = Modality::Wig;
    config.unroll.horizon = 2;
    let curriculum = config.curriculum.as_mut().expect("curriculum");
    curriculum.horizons = vec![1, 2];
    curriculum.learning_rates = vec![1e-3, 1e-3];
    curriculum.stage_iterations = 2;
    config.iterations = 4;
    config.data.scales = vec![500.0];
    config.data.frames = 5;
    config.data.warmup_steps = 0;
    let physics = System::Kolmogorov.physics();
    let set = physics
        .training_data(&config.data, &config.solver)
        .expect("data");
    let mut losses = Vec::new();
    for _ in 0..2 {
        let mut trainer = physics
            .trainer(config.clone(), &set, &backend::cpu())
            .expect("trainer");
        let mut log = LossLog::default();
        while !trainer.finished() {
            if let Some(loss) = trainer.advance().await.expect("step") {
                log.push(loss);
            }
        }
        log.flush().await.expect("readback");
        assert_eq!(trainer.skipped_updates(), 0);
        losses.push(log.history);
    }
    assert_eq!(losses[0].len(), 4);
    assert!(losses[0].iter().all(|l| l.is_finite()), "{losses:?}");
    assert_eq!(losses[0], losses[1]);
    console_log!(
        "Kolmogorov C-WIG (curriculum 1 → 2, guard) trained in wasm: {:?}",
        losses[0]
    );
}

/// An ensemble's members train as they would alone, in wasm on the CPU backend and on WebGPU
/// where the browser offers an adapter: every member's losses, and its output layer's weights
/// after training, agree with its own training's (CPU 1e-6, WebGPU 1e-4 relative: another
/// kernel order).
#[wasm_bindgen_test]
async fn ensemble_members_train_as_they_would_alone_on_cpu_and_webgpu() {
    unroll_browser::run_static_constructors();
    use unroll_core::backend;
    use unroll_core::ks::preset::quick;
    use unroll_core::nets::Net;
    use unroll_core::readback::read_f32;
    use unroll_core::system::System;
    use unroll_core::train::run::LossLog;
    use unroll_core::train::{MemberLogs, Modality, Mode, TrainConfig};

    let (data, set) = tiny_ks_set();
    let mut devices = vec![("CPU", backend::cpu(), 1e-6f32)];
    match compute::webgpu().await {
        Ok(acquired) => devices.push(("WebGPU", acquired.device, 1e-4)),
        Err(reason) => console_log!("ensemble on WebGPU not run: {reason}"),
    }
    let output_weights = |net: &Net| match net {
        Net::Resnet(net) => net.output.weight.val().flatten::<1>(0, 2),
        other => panic!("not a resnet: {}", other.architecture()),
    };
    let close = |a: &[f32], b: &[f32], tolerance: f32| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= tolerance * (1.0 + y.abs()))
    };
    for (name, device, tolerance) in devices {
        let mut config = quick(Mode::Correct, Modality::Wig);
        config.net.channels = 4;
        config.net.depth = 1;
        config.batch = 2;
        config.iterations = 5;
        config.data = data.clone();
        let seeds = [1u64, 2, 3];
        let members: Vec<TrainConfig> = seeds
            .iter()
            .map(|&seed| TrainConfig {
                seed,
                ..config.clone()
            })
            .collect();
        let ks = System::Ks.physics();
        let mut together = ks
            .ensemble_trainer(members.clone(), &set, &device)
            .expect("ensemble");
        let mut logs = MemberLogs::new(seeds.len());
        while !together.finished() {
            logs.push(together.step().expect("step"));
        }
        logs.flush().await.expect("readback");
        for (k, member) in members.into_iter().enumerate() {
            let mut alone = ks.trainer(member, &set, &device).expect("trainer");
            let mut log = LossLog::default();
            while !alone.finished() {
                log.push(alone.step().expect("step"));
            }
            log.flush().await.expect("readback");
            let history = &logs.logs[k].history;
            assert!(
                close(history, &log.history, tolerance),
                "{name} member {k}: {history:?} vs {:?}",
                log.history
            );
            let trained = together.member(k).expect("member");
            let got = read_f32(output_weights(&trained)).await.expect("readback");
            let want = read_f32(output_weights(alone.net()))
                .await
                .expect("readback");
            assert!(close(&got, &want, tolerance), "{name} member {k} weights");
        }
        console_log!("ensemble of 3 trained as each alone on {name}");
    }
}

/// The run store keeps every run it is given (no count limit, nothing dropped), lists them by
/// their summaries, returns, deletes and keeps the running study's partial results; runs an
/// earlier version kept in `localStorage` were moved in when it opened, and their key removed.
#[wasm_bindgen_test]
async fn the_run_store_keeps_every_run_and_moves_the_old_ones_in() {
    use unroll_browser::run_store;
    let old = include_str!("e2e/fixtures/old-quick-results.json");
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .expect("localStorage");
    let legacy = serde_json::to_string(&vec![old; 2]).expect("JSON");
    storage.set_item("unroll-lab/runs", &legacy).expect("set");
    let store = run_store::open().await.expect("the store opens");
    assert_eq!(
        storage.get_item("unroll-lab/runs").expect("get"),
        None,
        "moved once"
    );
    let before = store.runs().await.expect("list");
    assert!(before.len() >= 2, "the two old runs moved in: {before:?}");
    let mut ids = Vec::new();
    for i in 0..12 {
        ids.push(store.add(old, f64::from(i)).await.expect("kept"));
    }
    let runs = store.runs().await.expect("list");
    assert_eq!(runs.len(), before.len() + 12, "nothing dropped");
    let last = runs.last().expect("a run");
    assert_eq!(last.id, ids[11]);
    assert!(last.summary.contains("quick"), "{}", last.summary);
    assert_eq!(last.bytes, old.encode_utf16().count());
    assert_eq!(store.run(ids[3]).await.expect("read"), old);
    store.delete(ids[3]).await.expect("deleted");
    assert!(store.run(ids[3]).await.is_err(), "gone");
    assert_eq!(store.runs().await.expect("list").len(), before.len() + 11);
    assert_eq!(store.in_progress().await.expect("read"), None);
    store
        .save_in_progress("{\"partial\":1}")
        .expect("issued")
        .await
        .expect("kept");
    assert_eq!(
        store.in_progress().await.expect("read").as_deref(),
        Some("{\"partial\":1}")
    );
    store.clear_in_progress().await.expect("cleared");
    assert_eq!(store.in_progress().await.expect("read"), None);
    let usage = unroll_browser::storage_quota::estimate()
        .await
        .expect("an estimate");
    assert!(usage.used > 0.0 && usage.quota > usage.used, "{usage:?}");
}
