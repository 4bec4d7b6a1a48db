//! The compute-device badge: what the app got (WebGPU adapter or CPU and why) and the self-check.

use leptos::prelude::*;

use crate::report::compute::ComputeDevice;

/// Shows `device.badge()` and its self-check line; `data-state` is `probing|webgpu|cpu|broken`.
#[component]
pub fn DeviceBadge(device: ReadSignal<ComputeDevice>) -> impl IntoView {
    let state = move || match device.get() {
        ComputeDevice::Probing => "probing",
        ComputeDevice::WebGpu { .. } => "webgpu",
        ComputeDevice::Cpu { .. } => "cpu",
        ComputeDevice::Broken { .. } => "broken",
    };
    view! {
        <div id="device-badge" class="badge" data-state=state>
            <span class="badge-label">{move || device.get().badge()}</span>
            <span id="self-check" class="badge-detail">
                {move || {
                    let line = device.get().self_check().to_string();
                    if line.is_empty() { line } else { format!("Start-up self-check: {line}") }
                }}
            </span>
        </div>
    }
}
