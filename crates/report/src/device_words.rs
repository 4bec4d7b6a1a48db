//! What compute device the page trains on, in words the badge shows: the device chosen by the
//! start-up probe, both devices' measured figures and why.

use serde::{Deserialize, Serialize};

use unroll_pool::device_choice::{Choice, DeviceKind, DeviceProbe, Slowdown, Timing};

/// The device the app trains on, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ComputeDevice {
    /// Still self-checking and timing the devices.
    Probing,
    /// WebGPU, with the adapter as the browser reports it.
    WebGpu {
        /// e.g. `"google / swiftshader (SwiftShader Device (Subzero))"`.
        adapter: String,
        /// e.g. `"6/6 checks passed"`.
        self_check: String,
        /// Both devices' figures ([`timings_line`]).
        timings: String,
        /// Why this device ([`Choice::reason`]).
        reason: String,
    },
    /// burn's CPU backend compiled to WebAssembly, on `workers` workers at once.
    Cpu {
        /// Workers training at once.
        workers: usize,
        /// The CPU self-check summary.
        self_check: String,
        /// Both devices' figures ([`timings_line`]).
        timings: String,
        /// Why this device ([`Choice::reason`]).
        reason: String,
    },
    /// No device passed its self-check (or the probe could not run): the app cannot train.
    Broken {
        /// What failed.
        reason: String,
    },
}

impl ComputeDevice {
    /// The badge of `choice` made from `probe` (`slowdown`: the testing knob applied to it).
    pub fn chosen(probe: &DeviceProbe, choice: &Choice, slowdown: Option<Slowdown>) -> Self {
        let timings = timings_line(probe, choice.cpu_workers, slowdown);
        let reason = choice.reason.clone();
        match choice.device {
            Some(DeviceKind::Cpu) => Self::Cpu {
                workers: choice.cpu_workers,
                self_check: probe.cpu_self_check.clone(),
                timings,
                reason,
            },
            Some(DeviceKind::WebGpu) => Self::WebGpu {
                adapter: probe
                    .adapter
                    .clone()
                    .unwrap_or_else(|| "unnamed adapter".into()),
                self_check: probe.webgpu_self_check.clone().unwrap_or_default(),
                timings,
                reason,
            },
            None => Self::Broken { reason },
        }
    }

    /// The badge text: `"WebGPU: <adapter>"`, `"CPU (3 workers)"`, ….
    pub fn badge(&self) -> String {
        match self {
            Self::Probing => "Probing WebGPU…".to_string(),
            Self::WebGpu { adapter, .. } => format!("WebGPU: {adapter}"),
            Self::Cpu { workers, .. } => format!("CPU ({})", plural(*workers, "worker")),
            Self::Broken { reason } => format!("No working compute device: {reason}"),
        }
    }

    /// Both devices' measured figures (empty while probing or when broken).
    pub fn timings(&self) -> &str {
        match self {
            Self::WebGpu { timings, .. } | Self::Cpu { timings, .. } => timings,
            _ => "",
        }
    }

    /// Why this device (empty while probing).
    pub fn reason(&self) -> &str {
        match self {
            Self::WebGpu { reason, .. } | Self::Cpu { reason, .. } | Self::Broken { reason } => {
                reason
            }
            Self::Probing => "",
        }
    }

    /// The chosen device's self-check line (empty while probing).
    pub fn self_check(&self) -> &str {
        match self {
            Self::WebGpu { self_check, .. } | Self::Cpu { self_check, .. } => self_check,
            Self::Broken { reason } => reason,
            Self::Probing => "",
        }
    }

    /// True once a device passed its self-check and can be trained on.
    pub fn is_ready(&self) -> bool {
        matches!(self, Self::WebGpu { .. } | Self::Cpu { .. })
    }
}

/// `"CPU: 31.2 ms/iteration × 3 workers at once · WebGPU: 250.0 ms/iteration, one training at
/// a time"`, or why a device was not measured; a figure slowed by `slowdown` says so.
pub fn timings_line(probe: &DeviceProbe, workers: usize, slowdown: Option<Slowdown>) -> String {
    let slowed = |device: DeviceKind| match slowdown {
        Some(s) if s.device == device && probe.timing(device).ms().is_some() => {
            format!(" (×{} by ?device-slowdown)", s.factor)
        }
        _ => String::new(),
    };
    let cpu = match &probe.cpu {
        Timing::Measured { ms_per_iteration } => format!(
            "CPU: {ms_per_iteration:.1} ms/iteration × {} at once",
            plural(workers, "worker")
        ),
        Timing::Untimed { why } => format!("CPU: not timed ({why})"),
        Timing::Unavailable { reason } => format!("CPU: unavailable ({reason})"),
    };
    let webgpu = match &probe.webgpu {
        Timing::Measured { ms_per_iteration } if probe.webgpu_members > 1 => format!(
            "WebGPU: {ms_per_iteration:.1} ms/iteration per training, {} trainings as one ensemble",
            probe.webgpu_members
        ),
        Timing::Measured { ms_per_iteration } => {
            format!("WebGPU: {ms_per_iteration:.1} ms/iteration, one training at a time")
        }
        Timing::Untimed { why } => format!("WebGPU: not timed ({why})"),
        Timing::Unavailable { reason } => format!("WebGPU not measured: {reason}"),
    };
    format!(
        "{cpu}{} · {webgpu}{}",
        slowed(DeviceKind::Cpu),
        slowed(DeviceKind::WebGpu)
    )
}

/// `"1 worker"`, `"3 workers"`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_pool::device_choice::{choose, Preference};

    fn probe(webgpu: Timing) -> DeviceProbe {
        DeviceProbe {
            cpu: Timing::Measured {
                ms_per_iteration: 31.2,
            },
            cpu_self_check: "6/6 checks passed".into(),
            webgpu,
            adapter: Some("google / swiftshader".into()),
            webgpu_self_check: Some("6/6 checks passed".into()),
            flops_per_iteration: 2e8,
            data_rate: None,
            webgpu_members: 1,
            complete: true,
        }
    }

    #[test]
    fn badge_shows_both_figures_the_choice_and_why() {
        let measured = probe(Timing::Measured {
            ms_per_iteration: 250.0,
        });
        let choice = choose(&measured.cpu, &measured.webgpu, 3, 6, Preference::Auto);
        let badge = ComputeDevice::chosen(&measured, &choice, None);
        assert_eq!(badge.badge(), "CPU (3 workers)");
        assert_eq!(
            badge.timings(),
            "CPU: 31.2 ms/iteration × 3 workers at once · WebGPU: 250.0 ms/iteration, one \
             training at a time"
        );
        assert_eq!(
            badge.reason(),
            "the CPU: on 3 workers at once it finishes the study's 6 trainings 24.0× sooner \
             than WebGPU one at a time"
        );
        assert_eq!(badge.self_check(), "6/6 checks passed");
        assert!(badge.is_ready());
        // Forced: WebGPU, still saying it measured slower.
        let forced = choose(&measured.cpu, &measured.webgpu, 3, 6, Preference::WebGpu);
        let badge = ComputeDevice::chosen(&measured, &forced, None);
        assert_eq!(badge.badge(), "WebGPU: google / swiftshader");
        assert!(
            badge.reason().contains("24.0× slower"),
            "{}",
            badge.reason()
        );
    }

    #[test]
    fn badge_says_why_webgpu_was_not_measured() {
        let missing = probe(Timing::Unavailable {
            reason: "disabled by ?device=cpu".into(),
        });
        let choice = choose(&missing.cpu, &missing.webgpu, 1, 6, Preference::Cpu);
        let badge = ComputeDevice::chosen(&missing, &choice, None);
        assert_eq!(badge.badge(), "CPU (1 worker)");
        assert!(badge
            .timings()
            .ends_with(" · WebGPU not measured: disabled by ?device=cpu"));
        let slowed = probe(Timing::Measured {
            ms_per_iteration: 1.0,
        })
        .slowed(Slowdown::parse("webgpu:100").ok());
        let line = timings_line(&slowed, 1, Slowdown::parse("webgpu:100").ok());
        assert!(
            line.ends_with(
                "WebGPU: 100.0 ms/iteration, one training at a time (×100 by \
                 ?device-slowdown)"
            ),
            "{line}"
        );
        assert!(!ComputeDevice::Probing.is_ready());
    }

    #[test]
    fn round_trips_through_json() {
        let cpu = ComputeDevice::Cpu {
            workers: 2,
            self_check: "s".into(),
            timings: "t".into(),
            reason: "r".into(),
        };
        let json = serde_json::to_string(&cpu).expect("serialises");
        assert!(json.contains("\"kind\":\"cpu\""), "{json}");
        let back: ComputeDevice = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, cpu);
    }
}
