//! The compute-device badge: the device chosen at start-up, both devices' measured figures, why,
//! and the chosen device's self-check.

use leptos::prelude::*;

use unroll_report::device_words::ComputeDevice;

/// Shows `device.badge()`, its figures (`#device-timings`), the reason (`#device-reason`) and its
/// self-check line (`#self-check`); `data-state` is `probing|webgpu|cpu|broken`, `data-probe` is
/// `running` until the probe's complete report (WebGPU timed too), then `done`.
#[component]
pub fn DeviceBadge(device: ReadSignal<ComputeDevice>, complete: ReadSignal<bool>) -> impl IntoView {
    let state = move || match device.get() {
        ComputeDevice::Probing => "probing",
        ComputeDevice::WebGpu { .. } => "webgpu",
        ComputeDevice::Cpu { .. } => "cpu",
        ComputeDevice::Broken { .. } => "broken",
    };
    view! {
        <div
            id="device-badge"
            class="badge"
            data-state=state
            data-probe=move || if complete.get() { "done" } else { "running" }
        >
            <span class="badge-label">{move || device.get().badge()}</span>
            <span id="device-timings" class="badge-detail">
                {move || device.get().timings().to_string()}
            </span>
            <span id="device-reason" class="badge-detail">
                {move || {
                    let device = device.get();
                    if device.is_ready() { format!("Chosen: {}", device.reason()) } else { String::new() }
                }}
            </span>
            <span id="self-check" class="badge-detail">
                {move || {
                    let line = device.get().self_check().to_string();
                    if line.is_empty() { line } else { format!("Start-up self-check: {line}") }
                }}
            </span>
        </div>
    }
}
