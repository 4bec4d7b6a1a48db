//! Inside a Web Worker: receives [`ToWorker`] messages; answers the start-up probe (self-checks
//! and timings of both devices, `super::probe`) and the playground's rollouts of trained
//! networks (on the CPU backend); creates its own compute device (GPU
//! objects cannot cross threads), runs its share of the study as a [`CellBatch`] (making the
//! study's data and sharing them, or starting from the data it was given) and posts every
//! [`RunEvent`] as JSON text, in the thin [`FromWorker`] envelope. It yields after each tick so
//! pause messages get in; a panic is posted as an error before the worker dies.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::timer::{now_secs, sleep, yield_now};
use super::{assets, compute, probe};
use crate::numerics::study::cells::batch::{CellBatch, DataSource};
use crate::numerics::study::cells::plan::StudyPlan;
use crate::numerics::study::rollout::inference::{model_frames, RolloutReply};
use crate::numerics::study::run::driver::RunEvent;
use crate::numerics::study::workers::pool::{
    message_text, worker_posts, Fault, FromWorker, ToWorker,
};
use crate::numerics::system::System;

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts `message` to the page as JSON text.
pub fn post(message: &FromWorker) {
    post_text(&message_text(message));
}

/// Posts a message's text.
fn post_text(text: &str) {
    let _ = scope().post_message(&JsValue::from_str(text));
}

/// A `Run` whose data are shipped: its parts until the data message arrives.
struct PendingRun {
    plan: StudyPlan,
    cells: Vec<usize>,
    webgpu: bool,
    fault: Option<Fault>,
}

/// Starts the worker: static constructors, panic hook, logger, message handler, then `Ready`.
pub fn start() {
    super::run_static_constructors();
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post(&error(format!("the worker panicked: {info}")));
    }));
    let _ = console_log::init_with_level(log::Level::Warn);
    let paused = Rc::new(Cell::new(false));
    let started = Rc::new(RefCell::new(false));
    let pending: Rc<RefCell<Option<PendingRun>>> = Rc::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        match serde_json::from_str::<ToWorker>(&text) {
            Ok(ToWorker::Run {
                plan,
                cells,
                webgpu,
                fault,
                data,
            }) => {
                if std::mem::replace(&mut *started.borrow_mut(), true) {
                    post(&error("the worker was asked to run twice".into()));
                    return;
                }
                if data == DataSource::Shipped {
                    *pending.borrow_mut() = Some(PendingRun {
                        plan: *plan,
                        cells,
                        webgpu,
                        fault,
                    });
                    return;
                }
                let paused = paused.clone();
                wasm_bindgen_futures::spawn_local(run(*plan, cells, webgpu, fault, data, paused));
            }
            Ok(ToWorker::Data(prepared)) => match pending.borrow_mut().take() {
                Some(PendingRun {
                    plan,
                    cells,
                    webgpu,
                    fault,
                }) => {
                    let data = DataSource::Given(prepared);
                    let paused = paused.clone();
                    wasm_bindgen_futures::spawn_local(run(
                        plan, cells, webgpu, fault, data, paused,
                    ));
                }
                None => post(&error(
                    "the study's data came without a run to start".into(),
                )),
            },
            Ok(ToWorker::Probe(request)) => {
                wasm_bindgen_futures::spawn_local(async move {
                    probe::run(*request, &|probe| post(&FromWorker::Probed(probe.clone()))).await;
                });
            }
            Ok(ToWorker::Rollout(request)) => {
                wasm_bindgen_futures::spawn_local(async move {
                    let outcome =
                        model_frames(request.system.physics(), &request, &compute::cpu_device())
                            .await;
                    post(&FromWorker::Rollout(RolloutReply::of(
                        request.ticket,
                        outcome,
                    )));
                });
            }
            Ok(ToWorker::Pause) => paused.set(true),
            Ok(ToWorker::Resume) => paused.set(false),
            Err(err) => post(&error(format!("unreadable message: {err}"))),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&FromWorker::Ready);
}

/// An error event.
fn error(message: String) -> FromWorker {
    FromWorker::Event(RunEvent::Error(message))
}

/// Runs `cells` of `plan` with the data from `data` to the end (or the first error), posting
/// every event.
async fn run(
    plan: StudyPlan,
    cells: Vec<usize>,
    webgpu: bool,
    fault: Option<Fault>,
    data: DataSource,
    paused: Rc<Cell<bool>>,
) {
    let (device, gpu) = if webgpu {
        match compute::webgpu().await {
            Ok(acquired) => {
                post(&FromWorker::Device(format!("WebGPU: {}", acquired.adapter)));
                (acquired.device, true)
            }
            Err(reason) => {
                post(&FromWorker::Device(format!(
                    "CPU backend (WebGPU failed in the worker: {reason})"
                )));
                (compute::cpu_device(), false)
            }
        }
    } else {
        post(&FromWorker::Device("CPU backend".into()));
        (compute::cpu_device(), false)
    };
    if matches!(data, DataSource::Make { .. }) {
        let system = plan.config.system.physics();
        for failure in assets::install_data_assets(system, &plan.config).await {
            log::warn!("{failure} (the data are made from the seeded fields instead)");
        }
    }
    let mut batch = match CellBatch::new(
        &plan,
        &cells,
        System::physics,
        &device,
        Rc::new(now_secs),
        data,
    ) {
        Ok(batch) => batch,
        Err(err) => return post(&error(err.to_string())),
    };
    // On WebGPU a variant's seeds train as one ensemble (fewer, larger dispatches); on the CPU
    // one at a time, where an ensemble measured slower per network (the book, docs/src/ensembles.md).
    batch.set_ensembles(gpu);
    while !batch.stopped() {
        while paused.get() {
            sleep(50).await;
        }
        if fault == Some(Fault::Panic) && batch.training() {
            panic!("injected fault (?worker-fault=panic)");
        }
        for text in batch.tick().await.into_iter().flat_map(worker_posts) {
            post_text(&text);
        }
        yield_now().await;
    }
}
