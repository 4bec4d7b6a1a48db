//! The application shell: title, the study in two paragraphs, the compute-device badge.

use leptos::prelude::*;

use super::{DeviceBadge, Intro};
use crate::platform::compute::{acquire, DevicePreference};
use crate::report::compute::ComputeDevice;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (device, set_device) = signal(ComputeDevice::Probing);
    leptos::task::spawn_local(async move {
        let acquired = acquire(DevicePreference::from_location()).await;
        set_device.set(acquired.description);
    });
    view! {
        <header class="masthead">
            <h1>"unroll-lab"</h1>
            <p class="subtitle">
                "Differentiability in unrolled training of neural physics simulators — "
                "an interactive companion to List, Chen, Bali & Thuerey (CMAME 2025)"
            </p>
            <DeviceBadge device=device />
        </header>
        <main>
            <Intro />
        </main>
    }
}
