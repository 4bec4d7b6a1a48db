//! The start-up device probe. Inside a worker, [`run`] self-checks the CPU backend and WebGPU
//! and times the planned training on each (one untimed warm-up iteration, then
//! [`TIMING_BUDGET_SECS`] of timed rounds, WebGPU under a timeout) and reports once the CPU is
//! timed and again when complete; on the page, [`in_worker`] starts one worker for it, hears its
//! [`DeviceProbe`]s and stops it.

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;

use super::compute;
use super::timer::{now_secs, sleep};
use super::workers::{worker_script, Heard, WorkerHandle};
use unroll_core::study::cells::cost::{time_data, Calibration, TIMING_BUDGET_SECS};
use unroll_core::study::run::driver::RunEvent;
use unroll_core::train::flops::flops_per_iteration;
use unroll_core::train::TrainConfig;
use unroll_core::types::Trajectory;
use unroll_core::{backend, selfcheck};
use unroll_pool::device_choice::{DeviceProbe, ProbeRequest, Timing, STILL_MEASURING};
use unroll_pool::pool::{FromWorker, ToWorker};

/// How long the WebGPU probe's warm-up and timed iterations may take, ms (the self-check has its
/// own timeout, [`compute::WEBGPU_SELF_CHECK_TIMEOUT_MS`]).
pub const WEBGPU_TIMING_TIMEOUT_MS: u32 = 20_000;

/// How long the page waits for the probe's complete report, s (the WebGPU self-check's and
/// timing's own timeouts come first).
pub const PROBE_DEADLINE_SECS: f64 = 240.0;

/// Self-checks and times both devices for `request` (in a worker); `report` gets the probe once
/// the CPU is timed (when WebGPU is probed too, with WebGPU [`STILL_MEASURING`]) and complete.
pub async fn run(request: ProbeRequest, report: &dyn Fn(&DeviceProbe)) {
    let system = request.system.physics();
    let config = Calibration::small(request.config.clone());
    let flops = flops_per_iteration(
        &config,
        system.state_shape().values(),
        system.solver_flops_per_state(config.mode, config.alpha),
    );
    let (data, data_rate) = match time_data(system, &config, &now_secs) {
        Ok((data, rate)) => (Ok(data), rate),
        Err(err) => (
            Err(format!("its training data could not be made: {err}")),
            None,
        ),
    };
    let (cpu, cpu_self_check) = time_cpu(&request, &config, &data).await;
    let mut probe = DeviceProbe {
        cpu,
        cpu_self_check,
        webgpu: Timing::Unavailable {
            reason: if request.webgpu {
                STILL_MEASURING.into()
            } else {
                "disabled by ?device=cpu".into()
            },
        },
        adapter: None,
        webgpu_self_check: None,
        flops_per_iteration: flops,
        data_rate,
        webgpu_members: 1,
        complete: !request.webgpu,
    };
    report(&probe);
    if !request.webgpu {
        return;
    }
    match compute::webgpu().await {
        Ok(acquired) => {
            // As the WebGPU worker trains them: the variant's ensemble.
            let (timeout, members) = (Some(request.timeout_ms), request.members);
            let (timing, members) =
                time(&request, &config, &data, &acquired.device, timeout, members).await;
            probe.webgpu_members = members;
            probe.webgpu = timing;
            probe.adapter = Some(acquired.adapter);
            probe.webgpu_self_check = Some(acquired.self_check);
        }
        Err(reason) => {
            log::warn!("WebGPU not used: {reason}");
            probe.webgpu = Timing::Unavailable { reason };
        }
    }
    probe.complete = true;
    report(&probe);
}

/// Self-checks the CPU backend and times `config` on it: the timing and the self-check's words
/// (or why it is unavailable).
async fn time_cpu(
    request: &ProbeRequest,
    config: &TrainConfig,
    data: &Result<Vec<Trajectory>, String>,
) -> (Timing, String) {
    let device = backend::cpu();
    let reason = match selfcheck::run(&device).await {
        Ok(check) if check.passed() => {
            let (timing, _) = time(request, config, data, &device, None, 1).await;
            return (timing, check.summary());
        }
        Ok(check) => format!("the CPU backend failed its self-check: {}", check.summary()),
        Err(err) => format!("the CPU self-check could not run: {err}"),
    };
    (
        Timing::Unavailable {
            reason: reason.clone(),
        },
        reason,
    )
}

/// Times `config` on a self-checked `device`, within `timeout_ms` when given, `ensemble_size` trainings
/// as one ensemble where they can be one: the timing per network and the members timed. A
/// timing past its timeout is not dropped but left to finish in the background: a readback
/// dropped mid-map would leave the device's staging buffers unusable for this thread's next
/// user of WebGPU.
async fn time(
    request: &ProbeRequest,
    config: &TrainConfig,
    data: &Result<Vec<Trajectory>, String>,
    device: &Device,
    timeout_ms: Option<u32>,
    ensemble_size: usize,
) -> (Timing, usize) {
    let data = match data {
        Ok(data) => data.clone(),
        Err(why) => return (Timing::Untimed { why: why.clone() }, 1),
    };
    let system = request.system.physics();
    let members = Rc::new(std::cell::Cell::new(1));
    let outcome: Rc<RefCell<Option<Result<f64, String>>>> = Rc::default();
    let timed = {
        let (members, outcome) = (members.clone(), outcome.clone());
        let (config, device) = (config.clone(), device.clone());
        async move {
            let result = async {
                let calibration =
                    Calibration::with_members(system, config, ensemble_size, &data, &device)
                        .await?;
                members.set(calibration.members());
                sleep(0).await;
                calibration.ms_per_iteration(&now_secs).await
            }
            .await;
            *outcome.borrow_mut() = Some(result.map_err(|err| err.to_string()));
        }
    };
    wasm_bindgen_futures::spawn_local(timed);
    let started = now_secs();
    let result = loop {
        if let Some(result) = outcome.borrow_mut().take() {
            break result;
        }
        if let Some(ms) = timeout_ms.filter(|&ms| now_secs() - started > f64::from(ms) / 1000.0) {
            let why = format!(
                "timed out after {} s (1 warm-up iteration + {TIMING_BUDGET_SECS} s of timed ones)",
                ms / 1000
            );
            return (Timing::Untimed { why }, members.get());
        }
        sleep(20).await;
    };
    let timing = match result {
        Ok(ms_per_iteration) => Timing::Measured { ms_per_iteration },
        Err(err) => Timing::Untimed {
            why: format!("failed: {err}"),
        },
    };
    (timing, members.get())
}

/// Starts a worker, asks it for `request`'s probe, hands each report to `on_probe` and stops it
/// after the complete one; the error says why no complete report came (the worker could not
/// start, or died).
pub async fn in_worker(
    request: ProbeRequest,
    on_probe: Rc<dyn Fn(DeviceProbe)>,
) -> Result<(), String> {
    // The WebGPU worker only where it can time WebGPU: without `navigator.gpu` the CPU worker
    // says so itself.
    let webgpu = request.webgpu && compute::navigator_has_gpu();
    let outcome: Rc<RefCell<Option<Result<(), String>>>> = Rc::default();
    let handle: Rc<RefCell<Option<WorkerHandle>>> = Rc::default();
    let hear = {
        let outcome = outcome.clone();
        let handle = handle.clone();
        Rc::new(move |_: usize, heard: Heard| match heard {
            Heard::Message(FromWorker::Ready) => {
                if let Some(worker) = handle.borrow().as_ref() {
                    worker.send(&ToWorker::Probe(Box::new(request.clone())));
                }
            }
            Heard::Message(FromWorker::Probed(probe)) => {
                let complete = probe.complete;
                on_probe(probe);
                if complete {
                    *outcome.borrow_mut() = Some(Ok(()));
                }
            }
            Heard::Message(FromWorker::Event(RunEvent::Error(err))) => {
                *outcome.borrow_mut() = Some(Err(err))
            }
            Heard::Message(_) | Heard::Data(_) => {}
            Heard::Died(why) => *outcome.borrow_mut() = Some(Err(why)),
        })
    };
    let worker = WorkerHandle::spawn(worker_script(webgpu), 0, hear)?;
    *handle.borrow_mut() = Some(worker);
    let started = now_secs();
    let result = loop {
        if let Some(result) = outcome.borrow_mut().take() {
            break result;
        }
        if now_secs() - started > PROBE_DEADLINE_SECS {
            break Err(format!("no complete report within {PROBE_DEADLINE_SECS} s"));
        }
        sleep(50).await;
    };
    if let Some(worker) = handle.borrow_mut().take() {
        worker.terminate();
    }
    result
}
