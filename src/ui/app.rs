//! The application shell: title, the study in two paragraphs, the compute-device badge.

use leptos::prelude::*;

use super::{DeviceBadge, StudyPanel};
use crate::platform::compute::{acquire, cpu_device, DevicePreference};
use crate::report::compute::ComputeDevice;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (device, set_device) = signal(ComputeDevice::Probing);
    let (training_device, set_training_device) = signal_local(None);
    let (train_on_webgpu, set_train_on_webgpu) = signal(false);
    let (training_note, set_training_note) = signal(String::new());
    leptos::task::spawn_local(async move {
        let acquired = acquire(DevicePreference::from_location()).await;
        let software = software_adapter(&acquired.description);
        if let Some(adapter) = &software {
            // A software adapter passes the self-check but trains far slower than the CPU
            // backend: train on the CPU, say so.
            set_training_note.set(format!(
                "Training runs on the CPU backend: the WebGPU adapter ({adapter}) is a software \
                 rasterizer, used here for the start-up check only."
            ));
            set_training_device.set(Some(cpu_device()));
        } else {
            if let ComputeDevice::Cpu { reason, .. } = &acquired.description {
                set_training_note.set(format!(
                    "Training runs on the CPU backend (WebGPU unavailable: {reason})."
                ));
            }
            set_train_on_webgpu.set(matches!(acquired.description, ComputeDevice::WebGpu { .. }));
            set_training_device.set(Some(acquired.device));
        }
        set_device.set(acquired.description);
    });
    view! {
        <header class="masthead">
            <div class="titles">
                <h1>"unroll-lab"</h1>
                <p class="subtitle">
                    "Differentiability in unrolled training of neural physics simulators — "
                    "an interactive companion to List, Chen, Bali & Thuerey (CMAME 2025)"
                </p>
            </div>
            <DeviceBadge device=device />
        </header>
        <main>
            <StudyPanel device=training_device webgpu=train_on_webgpu training_note=training_note />
        </main>
    }
}

/// The adapter name when WebGPU runs on a software rasterizer (SwiftShader, llvmpipe/lavapipe).
fn software_adapter(device: &ComputeDevice) -> Option<String> {
    let ComputeDevice::WebGpu { adapter, .. } = device else {
        return None;
    };
    let lower = adapter.to_lowercase();
    ["swiftshader", "llvmpipe", "lavapipe", "software"]
        .iter()
        .any(|name| lower.contains(name))
        .then(|| adapter.clone())
}
