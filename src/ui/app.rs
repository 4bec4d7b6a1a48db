//! The application shell: title, the study in two paragraphs, the compute-device badge. At
//! start-up the first worker self-checks and times both devices on the planned study's costliest
//! training ([`Experiment::probe_request`], [`probe::in_worker`]); the page picks the device that finishes the study sooner
//! ([`choose`]) unless `?device=` says otherwise, and the study panel's estimate uses its figure.
//! The probe reports once the CPU is timed (the page can train at once) and again with WebGPU.

use std::rc::Rc;

use leptos::prelude::*;

use super::{DeviceBadge, StudyPanel};
use unroll_browser::compute::{preference_from_location, slowdown_from_location};
use unroll_browser::probe::{self, WEBGPU_TIMING_TIMEOUT_MS};
use unroll_browser::timer::sleep;
use unroll_browser::{files, workers::hardware_concurrency};
use unroll_pool::device_choice::{choose, DeviceKind, DeviceProbe, Preference, Slowdown};
use unroll_report::device_words::ComputeDevice;
use unroll_report::experiment::estimate::Machine;
use unroll_report::experiment::Experiment;

/// What the start-up probe sets.
#[derive(Clone, Copy)]
struct Probed {
    device: RwSignal<ComputeDevice>,
    ready: RwSignal<bool>,
    train_on_webgpu: RwSignal<bool>,
    training_note: RwSignal<String>,
    flop_rate: RwSignal<Option<f64>>,
    data_rate: RwSignal<Option<f64>>,
    complete: RwSignal<bool>,
}

impl Probed {
    /// Chooses the device again from a report of the probe (the first may come before WebGPU
    /// is timed) for `trainings` trainings on `cpu_workers` CPU workers; `notices` precede the
    /// choice's reason.
    fn hear(self, probe: &DeviceProbe, how: &ProbeChoice, notices: &[String]) {
        let probe = probe.clone().slowed(how.slowdown);
        let choice = choose(
            &probe.cpu,
            &probe.webgpu,
            how.cpu_workers,
            how.trainings,
            how.preference,
        );
        if let Some(chosen) = choice.device {
            self.flop_rate.set(probe.flop_rate(chosen));
            self.data_rate.set(probe.data_rate);
            self.ready.set(true);
        }
        self.train_on_webgpu
            .set(choice.device == Some(DeviceKind::WebGpu));
        let mut notes = notices.to_vec();
        notes.push(format!("Training runs on {}.", choice.reason));
        self.training_note.set(notes.join(" "));
        self.complete.set(probe.complete);
        self.device
            .set(ComputeDevice::chosen(&probe, &choice, how.slowdown));
    }

    /// The probe's worker failed: a device chosen from a first report is kept; without one,
    /// nothing can train.
    fn failed(self, why: String) {
        let reason = format!("the start-up probe's worker failed: {why}");
        log::warn!("{reason}");
        if !self.device.get_untracked().is_ready() {
            self.device.set(ComputeDevice::Broken { reason });
        }
        self.complete.set(true);
    }
}

/// How the page chooses between the devices.
struct ProbeChoice {
    preference: Preference,
    slowdown: Option<Slowdown>,
    trainings: usize,
    cpu_workers: usize,
}

/// What the probe reads from the URL, read before the panel rewrites it (it keeps only its own
/// keys and `device`): the experiment, the device preference and slowdown with their notices,
/// and the workers asked for.
struct FromUrl {
    experiment: Experiment,
    preference: Preference,
    slowdown: Option<Slowdown>,
    notices: Vec<String>,
    requested: Option<usize>,
}

impl FromUrl {
    fn read() -> Self {
        let (preference, preference_notice) = preference_from_location();
        let (slowdown, slowdown_notice) = slowdown_from_location();
        Self {
            experiment: Experiment::from_query(&files::query()).0,
            preference,
            slowdown,
            notices: [preference_notice, slowdown_notice]
                .into_iter()
                .flatten()
                .collect(),
            requested: files::query_value("workers").and_then(|n| n.parse().ok()),
        }
    }
}

/// Probes the devices on the URL's experiment (its costliest training) in a worker, choosing
/// again at every report.
async fn probe_devices(probed: Probed, url: FromUrl) {
    // In a task of its own, after the one that mounts the page.
    sleep(0).await;
    let config = url.experiment.study_config();
    let trainings = config.variants().len() * config.seeds.len();
    let cpu = Machine {
        webgpu: false,
        cores: hardware_concurrency(),
        requested: url.requested,
        flop_rate: None,
        data_rate: None,
    };
    let webgpu = url.preference != Preference::Cpu;
    let request = url
        .experiment
        .probe_request(webgpu, WEBGPU_TIMING_TIMEOUT_MS);
    let how = ProbeChoice {
        preference: url.preference,
        slowdown: url.slowdown,
        trainings,
        cpu_workers: cpu.workers(trainings),
    };
    let notices = url.notices;
    let on_probe = Rc::new(move |probe: DeviceProbe| probed.hear(&probe, &how, &notices));
    if let Err(why) = probe::in_worker(request, on_probe).await {
        probed.failed(why);
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let probed = Probed {
        device: RwSignal::new(ComputeDevice::Probing),
        ready: RwSignal::new(false),
        train_on_webgpu: RwSignal::new(false),
        training_note: RwSignal::new(String::new()),
        flop_rate: RwSignal::new(None),
        data_rate: RwSignal::new(None),
        complete: RwSignal::new(false),
    };
    leptos::task::spawn_local(probe_devices(probed, FromUrl::read()));
    // The first screen mounts in several tasks (`Later`), hidden: shown, and `index.html`'s static
    // copy removed, in the task that completes it, so nothing moves.
    let (first_screen, set_first_screen) = signal(false);
    Effect::new(move |_| {
        if first_screen.get() {
            unroll_browser::hide_boot_message();
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
            <DeviceBadge device=probed.device.read_only() complete=probed.complete.read_only() />
        </header>
        <main>
            <StudyPanel
                ready=probed.ready.read_only()
                webgpu=probed.train_on_webgpu.read_only()
                flop_rate=probed.flop_rate.read_only()
                data_rate=probed.data_rate.read_only()
                training_note=probed.training_note.read_only()
                first_screen=set_first_screen
            />
        </main>
        </div>
    }
}
