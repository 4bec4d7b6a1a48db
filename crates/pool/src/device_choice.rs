//! Which device trains the page's study, chosen by measurement: the start-up probe (in the first
//! worker) times the planned study's iteration on the CPU backend and on WebGPU
//! ([`DeviceProbe`]); [`choose`] takes the device that finishes the study's trainings sooner —
//! the CPU trains one training per worker, several workers at once, WebGPU one training at a time
//! ([`WEBGPU_PARALLEL`]) — unless `?device=cpu|webgpu` ([`Preference`]) says otherwise.
//! `?device-slowdown=webgpu:10` ([`Slowdown`], a testing knob) multiplies one device's measured
//! time so a test can force either order. The probe reports twice when it probes WebGPU: once the
//! CPU is timed, then complete ([`DeviceProbe::complete`]). Pure: no browser code.

use serde::{Deserialize, Serialize};

use unroll_core::train::TrainConfig;
use unroll_core::types::System;

/// Trainings WebGPU runs at once: the page trains on WebGPU in one worker (one GPU queue).
pub const WEBGPU_PARALLEL: usize = 1;

/// A device the page can train on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeviceKind {
    /// burn's CPU backend compiled to wasm, one training per worker.
    Cpu,
    /// burn's WebGPU backend.
    WebGpu,
}

impl DeviceKind {
    /// `"CPU"` or `"WebGPU"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Cpu => "CPU",
            Self::WebGpu => "WebGPU",
        }
    }
}

/// One device's start-up timing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Timing {
    /// Self-checked and timed: milliseconds per training iteration (one training).
    Measured {
        /// ms per iteration.
        ms_per_iteration: f64,
    },
    /// Self-checked, so it can train, but not timed (the timing ran past its timeout or failed):
    /// counted as slower than any measured device.
    Untimed {
        /// Why, e.g. `"timed out after 20 s"`.
        why: String,
    },
    /// Cannot train: not probed, no adapter, a failed self-check.
    Unavailable {
        /// Why, e.g. `"navigator.gpu is missing"`.
        reason: String,
    },
}

impl Timing {
    /// The measured ms per iteration, if any.
    pub fn ms(&self) -> Option<f64> {
        match self {
            Self::Measured { ms_per_iteration } => Some(*ms_per_iteration),
            _ => None,
        }
    }

    /// True when the device passed its self-check.
    pub fn usable(&self) -> bool {
        !matches!(self, Self::Unavailable { .. })
    }

    /// This timing with a measured time multiplied by `factor` (the testing knob).
    pub fn slowed(&self, factor: f64) -> Self {
        match self {
            Self::Measured { ms_per_iteration } => Self::Measured {
                ms_per_iteration: ms_per_iteration * factor,
            },
            other => other.clone(),
        }
    }
}

/// What the page asks the probing worker to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeRequest {
    /// The planned study's system.
    pub system: System,
    /// The training to time (the planned study's costliest variant per iteration).
    pub config: TrainConfig,
    /// Probe WebGPU too (false under `?device=cpu`).
    pub webgpu: bool,
    /// How long WebGPU's warm-up and timed iterations may take, ms.
    pub timeout_ms: u32,
    /// Trainings in the timed variant's ensemble (its seeds, and those of the variants that
    /// share its model: [`unroll_core::train::ensemble::shares_model`]): WebGPU times them
    /// as one ensemble, as its worker would train them, where they can be one.
    #[serde(default = "one")]
    pub members: usize,
}

fn one() -> usize {
    1
}

/// What the probing worker reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceProbe {
    /// The CPU backend's timing.
    pub cpu: Timing,
    /// The CPU backend's self-check summary (or its failure).
    pub cpu_self_check: String,
    /// WebGPU's timing.
    pub webgpu: Timing,
    /// The WebGPU adapter, when one was found.
    pub adapter: Option<String>,
    /// WebGPU's self-check summary, when it ran.
    pub webgpu_self_check: Option<String>,
    /// Counted FLOPs of the timed iteration (for a FLOP rate).
    pub flops_per_iteration: f64,
    /// The CPU's measured FLOP/s making the system's data (a small set:
    /// [`unroll_core::study::cells::cost::time_data`]); the estimate's data phase.
    #[serde(default)]
    pub data_rate: Option<f64>,
    /// Trainings WebGPU timed as one ensemble (1: one network alone); its timing is per
    /// network, the ensemble's time divided by this.
    #[serde(default = "one")]
    pub webgpu_members: usize,
    /// False in the first report, sent once the CPU is timed while WebGPU is still being probed
    /// (its timing then [`Timing::Unavailable`] with [`STILL_MEASURING`]): the page can train
    /// on the CPU at once and choose again when the complete report arrives.
    pub complete: bool,
}

/// WebGPU's reason in a report that is not [`DeviceProbe::complete`].
pub const STILL_MEASURING: &str = "still being measured";

impl DeviceProbe {
    /// The timing of `device`.
    pub fn timing(&self, device: DeviceKind) -> &Timing {
        match device {
            DeviceKind::Cpu => &self.cpu,
            DeviceKind::WebGpu => &self.webgpu,
        }
    }

    /// The counted FLOP/s of `device`, if it was timed.
    pub fn flop_rate(&self, device: DeviceKind) -> Option<f64> {
        self.timing(device)
            .ms()
            .filter(|ms| *ms > 0.0 && ms.is_finite())
            .map(|ms| self.flops_per_iteration / (ms / 1000.0))
    }

    /// This probe with `slowdown` applied.
    pub fn slowed(mut self, slowdown: Option<Slowdown>) -> Self {
        if let Some(Slowdown { device, factor }) = slowdown {
            let slowed = self.timing(device).slowed(factor);
            match device {
                DeviceKind::Cpu => self.cpu = slowed,
                DeviceKind::WebGpu => self.webgpu = slowed,
            }
        }
        self
    }
}

/// `?device=`: what the reader asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preference {
    /// The faster of the measured devices.
    Auto,
    /// The CPU backend, WebGPU not even probed.
    Cpu,
    /// WebGPU even when it measured slower (the CPU when WebGPU is unavailable).
    WebGpu,
}

impl Preference {
    /// Reads the `device` URL value: `cpu`, `webgpu`, or absent (auto); anything else is auto
    /// with a notice.
    pub fn parse(value: Option<&str>) -> (Self, Option<String>) {
        match value {
            None | Some("") | Some("auto") => (Self::Auto, None),
            Some("cpu") => (Self::Cpu, None),
            Some("webgpu") => (Self::WebGpu, None),
            Some(other) => (
                Self::Auto,
                Some(format!(
                    "?device={other} is not a device (cpu or webgpu): the device is chosen by \
                     measurement"
                )),
            ),
        }
    }
}

/// `?device-slowdown=webgpu:10` (a testing knob): multiply one device's measured time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slowdown {
    /// The device slowed down.
    pub device: DeviceKind,
    /// The factor (> 0).
    pub factor: f64,
}

impl Slowdown {
    /// Parses `cpu:F` or `webgpu:F` (F > 0, finite).
    pub fn parse(value: &str) -> Result<Self, String> {
        let bad = || format!("?device-slowdown={value} is not cpu:F or webgpu:F (F > 0): ignored");
        let (device, factor) = value.split_once(':').ok_or_else(bad)?;
        let device = match device {
            "cpu" => DeviceKind::Cpu,
            "webgpu" => DeviceKind::WebGpu,
            _ => return Err(bad()),
        };
        let factor: f64 = factor.parse().map_err(|_| bad())?;
        if !(factor > 0.0 && factor.is_finite()) {
            return Err(bad());
        }
        Ok(Self { device, factor })
    }
}

/// The device chosen and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The device to train on; `None` when neither can train.
    pub device: Option<DeviceKind>,
    /// One line: why.
    pub reason: String,
    /// CPU workers the pool uses at once for the study.
    pub cpu_workers: usize,
}

/// Milliseconds for one iteration of every training of the study on a device that trains
/// `parallel` trainings at once at `ms_per_iteration` each: rounds × ms.
pub fn study_ms(ms_per_iteration: f64, parallel: usize, trainings: usize) -> f64 {
    let parallel = parallel.max(1);
    let rounds = trainings.max(1).div_ceil(parallel);
    rounds as f64 * ms_per_iteration
}

/// The device that finishes `trainings` trainings sooner: the CPU trains `cpu_workers` at once,
/// WebGPU [`WEBGPU_PARALLEL`]; a measured device beats an untimed one, a usable one an
/// unavailable one; ties go to the CPU. `preference` overrides the measurement.
pub fn choose(
    cpu: &Timing,
    webgpu: &Timing,
    cpu_workers: usize,
    trainings: usize,
    preference: Preference,
) -> Choice {
    let cpu_workers = cpu_workers.max(1);
    let choice = |device: Option<DeviceKind>, reason: String| Choice {
        device,
        reason,
        cpu_workers,
    };
    let cpu_ms = cpu.ms().map(|ms| study_ms(ms, cpu_workers, trainings));
    let gpu_ms = webgpu
        .ms()
        .map(|ms| study_ms(ms, WEBGPU_PARALLEL, trainings));
    let comparison = match (cpu_ms, gpu_ms) {
        (Some(c), Some(g)) if g < c => Some(format!("WebGPU measured {:.1}× faster", c / g)),
        (Some(c), Some(g)) => Some(format!("WebGPU measured {:.1}× slower", g / c)),
        _ => None,
    };
    let measuring = matches!(webgpu, Timing::Unavailable { reason } if reason == STILL_MEASURING);
    match preference {
        _ if measuring && cpu.usable() => choice(
            Some(DeviceKind::Cpu),
            "the CPU while WebGPU is still being measured".into(),
        ),
        Preference::Cpu if cpu.usable() => choice(
            Some(DeviceKind::Cpu),
            "the CPU, as ?device=cpu asks (WebGPU not probed)".into(),
        ),
        Preference::WebGpu if webgpu.usable() => choice(
            Some(DeviceKind::WebGpu),
            match (&comparison, webgpu) {
                (Some(c), _) => format!("WebGPU, as ?device=webgpu asks ({c} for this study)"),
                (None, Timing::Untimed { why }) => {
                    format!("WebGPU, as ?device=webgpu asks (its timing {why})")
                }
                _ => "WebGPU, as ?device=webgpu asks".into(),
            },
        ),
        Preference::WebGpu if cpu.usable() => choice(
            Some(DeviceKind::Cpu),
            format!(
                "the CPU: ?device=webgpu asks for WebGPU, but it is unavailable ({})",
                unavailable(webgpu)
            ),
        ),
        _ => auto(cpu, webgpu, cpu_ms, gpu_ms, cpu_workers, trainings, choice),
    }
}

/// The measured choice (also the fallback when the preferred device cannot train).
fn auto(
    cpu: &Timing,
    webgpu: &Timing,
    cpu_ms: Option<f64>,
    gpu_ms: Option<f64>,
    cpu_workers: usize,
    trainings: usize,
    choice: impl Fn(Option<DeviceKind>, String) -> Choice,
) -> Choice {
    let (device, reason) = match (cpu_ms, gpu_ms) {
        (Some(c), Some(g)) => sooner(c, g, cpu_workers, trainings),
        _ => without_both_timings(cpu, webgpu, cpu_ms, gpu_ms),
    };
    choice(device, reason)
}

/// The device that finishes the study sooner when both were timed: `cpu_ms` and `gpu_ms` are
/// the study's milliseconds per iteration on each ([`study_ms`]).
fn sooner(
    cpu_ms: f64,
    gpu_ms: f64,
    cpu_workers: usize,
    trainings: usize,
) -> (Option<DeviceKind>, String) {
    let at_once = cpu_workers.min(trainings.max(1));
    let workers = format!(
        "{at_once} worker{} at once",
        if at_once == 1 { "" } else { "s" }
    );
    if gpu_ms < cpu_ms {
        (
            Some(DeviceKind::WebGpu),
            format!(
                "WebGPU: it finishes the study's {trainings} trainings {:.1}× sooner than the CPU \
                 on {workers}",
                cpu_ms / gpu_ms
            ),
        )
    } else {
        (
            Some(DeviceKind::Cpu),
            format!(
                "the CPU: on {workers} it finishes the study's {trainings} trainings {:.1}× \
                 sooner than WebGPU one at a time",
                gpu_ms / cpu_ms
            ),
        )
    }
}

/// The choice when at most one device was timed: a usable device beats an unavailable one, a
/// timed one an untimed one, and the CPU breaks ties.
fn without_both_timings(
    cpu: &Timing,
    webgpu: &Timing,
    cpu_ms: Option<f64>,
    gpu_ms: Option<f64>,
) -> (Option<DeviceKind>, String) {
    match (cpu_ms, gpu_ms) {
        _ if cpu.usable() && !webgpu.usable() => (
            Some(DeviceKind::Cpu),
            format!("the CPU: WebGPU is unavailable ({})", unavailable(webgpu)),
        ),
        _ if !cpu.usable() && webgpu.usable() => (
            Some(DeviceKind::WebGpu),
            format!(
                "WebGPU: the CPU backend is unavailable ({})",
                unavailable(cpu)
            ),
        ),
        (Some(_), None) => (
            Some(DeviceKind::Cpu),
            format!(
                "the CPU: WebGPU's timing {}, counted as slower",
                untimed(webgpu)
            ),
        ),
        (None, Some(_)) => (
            Some(DeviceKind::WebGpu),
            format!(
                "WebGPU: the CPU's timing {}, counted as slower",
                untimed(cpu)
            ),
        ),
        _ if cpu.usable() => (
            Some(DeviceKind::Cpu),
            "the CPU: neither device was timed".into(),
        ),
        _ => (
            None,
            format!(
                "no device can train: CPU {}; WebGPU {}",
                unavailable(cpu),
                unavailable(webgpu)
            ),
        ),
    }
}

/// The reason a device is unavailable (empty for a usable one).
fn unavailable(timing: &Timing) -> &str {
    match timing {
        Timing::Unavailable { reason } => reason,
        _ => "",
    }
}

/// Why a device was not timed (empty for a measured one).
fn untimed(timing: &Timing) -> &str {
    match timing {
        Timing::Untimed { why } => why,
        _ => "",
    }
}

#[cfg(test)]
#[path = "device_choice_tests.rs"]
mod tests;
