//! The application shell: title, the study in two paragraphs, the compute-device badge. At
//! start-up the first worker self-checks and times both devices on the planned study's costliest
//! training ([`probe::in_worker`]); the page picks the device that finishes the study sooner
//! ([`choose`]) unless `?device=` says otherwise, and the study panel's estimate uses its figure.
//! The probe reports once the CPU is timed (the page can train at once) and again with WebGPU.

use std::rc::Rc;

use leptos::prelude::*;

use super::{DeviceBadge, StudyPanel};
use crate::experiment::Experiment;
use crate::numerics::study::workers::device_choice::{
    choose, DeviceKind, DeviceProbe, Preference, ProbeRequest,
};
use crate::numerics::study::workers::pool::pool_size;
use crate::numerics::train::ensemble::shares_model;
use crate::numerics::train::flops::flops_per_iteration;
use crate::numerics::train::TrainConfig;
use crate::platform::compute::{preference_from_location, slowdown_from_location};
use crate::platform::probe::{self, WEBGPU_TIMING_TIMEOUT_MS};
use crate::platform::timer::sleep;
use crate::platform::{files, workers::hardware_concurrency};
use crate::report::compute::ComputeDevice;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (device, set_device) = signal(ComputeDevice::Probing);
    let (ready, set_ready) = signal(false);
    let (train_on_webgpu, set_train_on_webgpu) = signal(false);
    let (training_note, set_training_note) = signal(String::new());
    let (flop_rate, set_flop_rate) = signal(None::<f64>);
    let (probe_complete, set_probe_complete) = signal(false);
    // Read before the panel rewrites the URL (it keeps only its own keys and `device`).
    let (preference, preference_notice) = preference_from_location();
    let (slowdown, slowdown_notice) = slowdown_from_location();
    let (experiment, _) = Experiment::from_query(&files::query());
    leptos::task::spawn_local(async move {
        // In a task of its own, after the one that mounts the page.
        sleep(0).await;
        let config = experiment.study_config();
        let trainings = config.variants().len() * config.seeds.len();
        let requested = files::query_value("workers").and_then(|n| n.parse().ok());
        let workers = pool_size(hardware_concurrency(), trainings, requested);
        let variants = config.variants();
        let timed = costliest(&variants, config.system).unwrap_or_else(|| config.base.clone());
        let request = ProbeRequest {
            system: config.system,
            config: timed.clone(),
            webgpu: preference != Preference::Cpu,
            timeout_ms: WEBGPU_TIMING_TIMEOUT_MS,
            members: ensemble_members(&variants, &timed, config.seeds.len()),
        };
        let notices: Vec<String> = [preference_notice, slowdown_notice]
            .into_iter()
            .flatten()
            .collect();
        // Every report of the probe: choose again (the first may come before WebGPU is timed).
        let on_probe = Rc::new(move |probe: DeviceProbe| {
            let probe = probe.slowed(slowdown);
            let choice = choose(&probe.cpu, &probe.webgpu, workers, trainings, preference);
            if let Some(chosen) = choice.device {
                set_flop_rate.set(probe.flop_rate(chosen));
                set_ready.set(true);
            }
            set_train_on_webgpu.set(choice.device == Some(DeviceKind::WebGpu));
            let mut notes = notices.clone();
            notes.push(format!("Training runs on {}.", choice.reason));
            set_training_note.set(notes.join(" "));
            set_probe_complete.set(probe.complete);
            set_device.set(ComputeDevice::chosen(&probe, &choice, slowdown));
        });
        if let Err(why) = probe::in_worker(request, on_probe).await {
            let reason = format!("the start-up probe's worker failed: {why}");
            log::warn!("{reason}");
            // Keep a device chosen from a first report; without one, nothing can train.
            if !device.get_untracked().is_ready() {
                set_device.set(ComputeDevice::Broken { reason });
            }
            set_probe_complete.set(true);
        }
    });
    // The first screen mounts in several tasks (`Later`), hidden: shown, and `index.html`'s static
    // copy removed, in the task that completes it, so nothing moves.
    let (first_screen, set_first_screen) = signal(false);
    Effect::new(move |_| {
        if first_screen.get() {
            crate::platform::hide_boot_message();
        }
    });
    view! {
        <div id="app" class:hidden=move || !first_screen.get()>
        <header class="masthead">
            <div class="titles">
                <h1>"unroll-lab"</h1>
                <p class="subtitle">
                    "Differentiability in unrolled training of neural physics simulators — "
                    "an interactive companion to List, Chen, Bali & Thuerey (CMAME 2025)"
                </p>
            </div>
            <DeviceBadge device=device complete=probe_complete />
        </header>
        <main>
            <StudyPanel
                ready=ready
                webgpu=train_on_webgpu
                flop_rate=flop_rate
                training_note=training_note
                first_screen=set_first_screen
            />
        </main>
        </div>
    }
}

/// Trainings in `timed`'s ensemble when every variant runs `seeds` seeds: the seeds of each of
/// `variants` that shares its model ([`shares_model`]; `timed` among them).
fn ensemble_members(variants: &[TrainConfig], timed: &TrainConfig, seeds: usize) -> usize {
    let sharing = variants.iter().filter(|v| shares_model(v, timed)).count();
    seeds * sharing.max(1)
}

/// The variant of `variants` with the most counted FLOPs per iteration (the probe times it).
fn costliest(
    variants: &[TrainConfig],
    system: crate::numerics::types::System,
) -> Option<TrainConfig> {
    let physics = system.description();
    let n = physics.state_shape().values();
    variants
        .iter()
        .max_by(|a, b| {
            let flops = |v: &TrainConfig| {
                flops_per_iteration(v, n, physics.solver_flops_per_state(v.mode, v.alpha))
            };
            flops(a).total_cmp(&flops(b))
        })
        .cloned()
}
