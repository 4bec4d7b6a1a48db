//! The FLOP rate of the training device, for the panel's time estimate: once the device is
//! ready, three training iterations of the default network (quick preset, correction + WIG, the
//! study's ResNet1D 16 × 10) are timed with one readback at the end, and their counted FLOPs
//! ([`flops_per_iteration`]) divided by the wall time. One untimed iteration first takes the
//! first-use costs (allocations, WebGPU pipeline compilation) out of the measurement.

use burn::tensor::Device;
use leptos::prelude::*;

use crate::numerics::study::runner::RESOLUTION;
use crate::numerics::train::data::generate;
use crate::numerics::train::flops::flops_per_iteration;
use crate::numerics::train::run::LossLog;
use crate::numerics::train::trainer::data_solver;
use crate::numerics::train::{Modality, Mode, Preset, Trainer};
use crate::platform::files::now_secs;
use crate::platform::timer::sleep;

/// Iterations timed.
pub const TIMED_ITERATIONS: usize = 3;

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
            match measure(&device).await {
                Ok(flops_per_sec) => set_rate.set(Some(flops_per_sec)),
                Err(err) => log::warn!("FLOP-rate calibration failed: {err}"),
            }
        });
    });
    rate
}

/// Times [`TIMED_ITERATIONS`] training iterations of the default network on `device`; counted
/// FLOP/s.
pub async fn measure(device: &Device) -> Result<f64, String> {
    let mut config = Preset::Quick.config(Mode::Correct, Modality::Wig);
    // A small data set: the cost of an iteration does not depend on it.
    config.data.scales = vec![1.0];
    config.data.warmup_steps = 0;
    config.data.frames = 32;
    let trajectories =
        generate(&config.data, data_solver(RESOLUTION)).map_err(|err| err.to_string())?;
    let mut trainer =
        Trainer::new(config.clone(), &trajectories, device).map_err(|err| err.to_string())?;
    let mut log = LossLog::default();
    log.push(trainer.step().map_err(|err| err.to_string())?);
    log.flush().await.map_err(|err| err.to_string())?;
    // Let the page paint before the timed part.
    sleep(0).await;
    let start = now_secs();
    for _ in 0..TIMED_ITERATIONS {
        log.push(trainer.step().map_err(|err| err.to_string())?);
    }
    log.flush().await.map_err(|err| err.to_string())?;
    let seconds = now_secs() - start;
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(format!("the clock did not advance ({seconds} s)"));
    }
    Ok(TIMED_ITERATIONS as f64 * flops_per_iteration(&config, RESOLUTION) / seconds)
}
