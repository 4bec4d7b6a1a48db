//! What compute device a run got, in words the UI shows and results files record.

use serde::{Deserialize, Serialize};

/// The device the app computes on, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ComputeDevice {
    /// Still probing WebGPU / running the start-up self-check.
    Probing,
    /// WebGPU, with the adapter as the browser reports it and the self-check summary.
    WebGpu {
        /// e.g. `"google / swiftshader (SwiftShader Device (Subzero))"`.
        adapter: String,
        /// e.g. `"6/6 checks passed"`.
        self_check: String,
    },
    /// burn's CPU backend compiled to WebAssembly (or native), and why WebGPU is not used.
    Cpu {
        /// Why WebGPU is not in use, e.g. `"navigator.gpu is missing"`.
        reason: String,
        /// The CPU self-check summary.
        self_check: String,
    },
    /// Not even the CPU backend passed its self-check: the app cannot compute.
    Broken {
        /// What failed.
        reason: String,
    },
}

impl ComputeDevice {
    /// The badge text: `"WebGPU: <adapter>"`, `"CPU (WebGPU unavailable: <reason>)"`, ….
    pub fn badge(&self) -> String {
        match self {
            Self::Probing => "Probing WebGPU…".to_string(),
            Self::WebGpu { adapter, .. } => format!("WebGPU: {adapter}"),
            Self::Cpu { reason, .. } => format!("CPU (WebGPU unavailable: {reason})"),
            Self::Broken { reason } => format!("No working compute device: {reason}"),
        }
    }

    /// The self-check line shown under the badge (empty while probing).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badge_says_what_the_app_got() {
        let gpu = ComputeDevice::WebGpu {
            adapter: "google / swiftshader".into(),
            self_check: "6/6 checks passed".into(),
        };
        assert_eq!(gpu.badge(), "WebGPU: google / swiftshader");
        let cpu = ComputeDevice::Cpu {
            reason: "navigator.gpu is missing".into(),
            self_check: "6/6 checks passed".into(),
        };
        assert_eq!(
            cpu.badge(),
            "CPU (WebGPU unavailable: navigator.gpu is missing)"
        );
        assert!(cpu.is_ready() && gpu.is_ready());
        assert!(!ComputeDevice::Probing.is_ready());
    }

    #[test]
    fn round_trips_through_json() {
        let cpu = ComputeDevice::Cpu {
            reason: "r".into(),
            self_check: "s".into(),
        };
        let json = serde_json::to_string(&cpu).expect("serialises");
        assert!(json.contains("\"kind\":\"cpu\""), "{json}");
        let back: ComputeDevice = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, cpu);
    }
}
