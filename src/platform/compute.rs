//! Choosing the compute device in the browser: WebGPU when the browser offers an adapter and it
//! passes the self-check, burn's CPU backend (compiled to wasm) otherwise — always with the reason.

use burn::tensor::wgpu::WgpuBackend;
use burn::tensor::Device;
use js_sys::{Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::timer::with_timeout;
use crate::numerics::{backend, selfcheck};
use crate::report::compute::ComputeDevice;

/// How long the WebGPU self-check may take (a software adapter compiles shaders slowly).
pub const WEBGPU_SELF_CHECK_TIMEOUT_MS: i32 = 120_000;

/// A device the app can compute on, with its description for the badge.
#[derive(Clone)]
pub struct Acquired {
    /// The burn device (without autodiff; callers add it for training).
    pub device: Device,
    /// What the badge shows.
    pub description: ComputeDevice,
}

/// What the page asked for in its URL (`?device=cpu` forces the CPU backend).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DevicePreference {
    /// WebGPU if it works, else the CPU.
    Auto,
    /// The CPU backend, WebGPU not even probed.
    Cpu,
}

impl DevicePreference {
    /// Reads `device=` from the page's query string; anything but `cpu` means [`Self::Auto`].
    pub fn from_location() -> Self {
        let search = web_sys::window()
            .and_then(|window| window.location().search().ok())
            .unwrap_or_default();
        if search
            .trim_start_matches('?')
            .split('&')
            .any(|pair| pair == "device=cpu")
        {
            Self::Cpu
        } else {
            Self::Auto
        }
    }
}

/// Probes WebGPU, self-checks it and falls back to the CPU (self-checked too).
pub async fn acquire(preference: DevicePreference) -> Acquired {
    let reason = match preference {
        DevicePreference::Cpu => "disabled by ?device=cpu".to_string(),
        DevicePreference::Auto => match webgpu().await {
            Ok(acquired) => return acquired,
            Err(reason) => reason,
        },
    };
    if reason != "disabled by ?device=cpu" {
        log::warn!("WebGPU not used: {reason}");
    }
    cpu(reason).await
}

/// The CPU backend's device, without a self-check (training beside a software WebGPU adapter
/// that passed its own).
pub fn cpu_device() -> Device {
    backend::cpu()
}

/// The CPU backend after its self-check (`Broken` if even that fails).
pub async fn cpu(reason: String) -> Acquired {
    let device = backend::cpu();
    let description = match selfcheck::run(&device).await {
        Ok(report) if report.passed() => ComputeDevice::Cpu {
            reason,
            self_check: report.summary(),
        },
        Ok(report) => ComputeDevice::Broken {
            reason: format!(
                "the CPU backend failed its self-check: {}",
                report.summary()
            ),
        },
        Err(err) => ComputeDevice::Broken {
            reason: format!("the CPU self-check could not run: {err}"),
        },
    };
    Acquired {
        device,
        description,
    }
}

/// WebGPU through burn, if an adapter exists, initialises and passes the self-check.
pub async fn webgpu() -> Result<Acquired, String> {
    let adapter = adapter_description().await?;
    let (device, setup) = Device::wgpu_options()
        .graphics_api(WgpuBackend::WebGpu)
        .init_with_setup_async()
        .await
        .map_err(|err| format!("burn could not initialise WebGPU on {adapter}: {err}"))?;
    // wgpu's default handler panics on a validation error (e.g. a shader the adapter rejects):
    // log it instead, so a bad adapter shows up as a failed self-check, not a dead page.
    setup
        .device
        .on_uncaptured_error(std::sync::Arc::new(|error| {
            log::error!("WebGPU error: {error}");
        }));
    let report = with_timeout(WEBGPU_SELF_CHECK_TIMEOUT_MS, selfcheck::run(&device))
        .await
        .ok_or_else(|| {
            format!(
                "the self-check on {adapter} did not finish within {} s",
                WEBGPU_SELF_CHECK_TIMEOUT_MS / 1000
            )
        })?
        .map_err(|err| format!("the self-check on {adapter} could not run: {err}"))?;
    if !report.passed() {
        return Err(format!(
            "{adapter} gave wrong results ({})",
            report.summary()
        ));
    }
    Ok(Acquired {
        device,
        description: ComputeDevice::WebGpu {
            adapter,
            self_check: report.summary(),
        },
    })
}

/// `"vendor / architecture (description)"` of the adapter `navigator.gpu.requestAdapter()` gives.
pub async fn adapter_description() -> Result<String, String> {
    // `navigator` of the page or of a worker (`WorkerNavigator.gpu` exists in dedicated workers).
    let navigator =
        Reflect::get(&js_sys::global(), &"navigator".into()).map_err(|_| "no navigator object")?;
    let gpu = Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
    if gpu.is_undefined() || gpu.is_null() {
        return Err(
            "navigator.gpu is missing (this browser has no WebGPU, or it is disabled)".into(),
        );
    }
    let request: js_sys::Function = Reflect::get(&gpu, &"requestAdapter".into())
        .map_err(|_| "navigator.gpu.requestAdapter is missing")?
        .dyn_into()
        .map_err(|_| "navigator.gpu.requestAdapter is not a function")?;
    let promise: Promise = request
        .call0(&gpu)
        .map_err(|err| format!("requestAdapter threw: {err:?}"))?
        .dyn_into()
        .map_err(|_| "requestAdapter did not return a promise")?;
    let adapter = JsFuture::from(promise)
        .await
        .map_err(|err| format!("requestAdapter failed: {err:?}"))?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err("requestAdapter returned no adapter".into());
    }
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let field = |name: &str| {
        Reflect::get(&info, &name.into())
            .ok()
            .and_then(|value| value.as_string())
            .filter(|value| !value.is_empty())
    };
    let mut text = [field("vendor"), field("architecture")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" / ");
    if let Some(description) = field("description") {
        text = if text.is_empty() {
            description
        } else {
            format!("{text} ({description})")
        };
    }
    Ok(if text.is_empty() {
        "unnamed adapter".to_string()
    } else {
        text
    })
}
