//! The compute devices in the browser: WebGPU when the browser offers an adapter and it passes
//! the self-check (with the reason when not), burn's CPU backend (compiled to wasm), and the
//! URL's `?device=` / `?device-slowdown=` (the choice between them is
//! `unroll_pool::device_choice`, made from the start-up probe, `unroll_browser::probe`).

use burn::tensor::Device;
use js_sys::{Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::files;
use super::timer::with_timeout;
use unroll_core::{backend, selfcheck};
use unroll_pool::device_choice::{Preference, Slowdown};

/// How long the WebGPU self-check may take (a software adapter compiles shaders slowly).
pub const WEBGPU_SELF_CHECK_TIMEOUT_MS: i32 = 120_000;

/// A self-checked WebGPU device.
#[derive(Clone)]
pub struct Acquired {
    /// The burn device (without autodiff; callers add it for training).
    pub device: Device,
    /// The adapter, e.g. `"google / swiftshader (SwiftShader Device (Subzero))"`.
    pub adapter: String,
    /// The self-check summary, e.g. `"6/6 checks passed"`.
    pub self_check: String,
}

/// `?device=` of the page's URL, and a notice for a value that is not a device.
pub fn preference_from_location() -> (Preference, Option<String>) {
    let value = files::query_value("device");
    Preference::parse(value.as_deref())
}

/// `?device-slowdown=` of the page's URL (a testing knob), and a notice for a bad value.
pub fn slowdown_from_location() -> (Option<Slowdown>, Option<String>) {
    match files::query_value("device-slowdown").map(|value| Slowdown::parse(&value)) {
        None => (None, None),
        Some(Ok(slowdown)) => (Some(slowdown), None),
        Some(Err(notice)) => (None, Some(notice)),
    }
}

/// The CPU backend's device (its self-check runs in the start-up probe's worker).
pub fn cpu_device() -> Device {
    backend::cpu()
}

thread_local! {
    /// This thread's WebGPU outcome once tried: burn registers one WebGPU device per thread, so a
    /// second initialisation fails ("a server is still registered").
    static ACQUIRED: std::cell::RefCell<Option<Result<Acquired, String>>> =
        const { std::cell::RefCell::new(None) };
}

/// WebGPU through burn, if an adapter exists, initialises and passes the self-check; tried once
/// per thread (later calls get the first outcome).
pub async fn webgpu() -> Result<Acquired, String> {
    if let Some(outcome) = ACQUIRED.with(|acquired| acquired.borrow().clone()) {
        return outcome;
    }
    let outcome = acquire_webgpu().await;
    ACQUIRED.with(|acquired| *acquired.borrow_mut() = Some(outcome.clone()));
    outcome
}

/// [`webgpu`]'s first try.
async fn acquire_webgpu() -> Result<Acquired, String> {
    let adapter = adapter_description().await?;
    let device = webgpu_device(&adapter).await?;
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
        adapter,
        self_check: report.summary(),
    })
}

/// burn's WebGPU device on the browser's adapter (named `adapter` in errors).
#[cfg(feature = "webgpu")]
async fn webgpu_device(adapter: &str) -> Result<Device, String> {
    use burn::tensor::wgpu::WgpuBackend;
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
    Ok(device)
}

/// A module built without the `webgpu` feature (the page: it never trains) has no WebGPU.
#[cfg(not(feature = "webgpu"))]
async fn webgpu_device(adapter: &str) -> Result<Device, String> {
    Err(format!(
        "this module was built without burn's WebGPU backend (the workers have it); adapter {adapter}"
    ))
}

/// Whether `navigator.gpu` exists (in the page or a worker): the browser offers WebGPU at all.
pub fn navigator_has_gpu() -> bool {
    Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|navigator| Reflect::get(&navigator, &"gpu".into()))
        .is_ok_and(|gpu| !gpu.is_undefined() && !gpu.is_null())
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
