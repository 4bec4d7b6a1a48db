//! The FLOP rate of the training device, for the panel's time estimate: once the device is
//! ready, [`Calibration`] times a few training iterations of the default network (the page gets
//! to paint between the untimed first iteration and the timed ones).

use burn::tensor::Device;
use leptos::prelude::*;

use crate::numerics::study::cost::Calibration;
use crate::numerics::system::System;
use crate::platform::files::now_secs;
use crate::platform::timer::sleep;

/// The measured FLOP/s, `None` until `device` is ready and the measurement is done (or when
/// it failed: the estimate then keeps saying it waits for calibration, and the reason is
/// logged).
pub fn flop_rate(device: ReadSignal<Option<Device>, LocalStorage>) -> ReadSignal<Option<f64>> {
    let (rate, set_rate) = signal(None);
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(device) = device.get() else {
            return;
        };
        if started.get_value() {
            return;
        }
        started.set_value(true);
        leptos::task::spawn_local(async move {
            let measured = async {
                let calibration = Calibration::start(System::default().physics(), &device).await?;
                sleep(0).await;
                calibration.measure(&now_secs).await
            };
            match measured.await {
                Ok(flops_per_sec) => set_rate.set(Some(flops_per_sec)),
                Err(err) => log::warn!("FLOP-rate calibration failed: {err}"),
            }
        });
    });
    rate
}
