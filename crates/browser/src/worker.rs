//! Inside a Web Worker: receives [`ToWorker`] messages; answers the start-up probe (self-checks
//! and timings of both devices, `super::probe`) and the playground's rollouts of trained
//! networks (on the CPU backend); creates its own compute device (GPU
//! objects cannot cross threads), runs its share of the study as a [`CellBatch`] (making the
//! study's data and sharing them, or starting from the data it was given) and posts every
//! [`RunEvent`] as JSON text, in the thin [`FromWorker`] envelope. On the CPU backend it goes on
//! from a checkpoint it is given and posts its running training's every so often (burn reads
//! tensors synchronously there; on WebGPU it cannot). It yields after each tick so pause
//! messages get in; a panic is posted as an error before the worker dies.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use burn::tensor::Device;

use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::timer::{now_secs, sleep, yield_now};
use super::{assets, compute, probe};
use unroll_core::study::cells::batch::{CellBatch, DataSource};
use unroll_core::study::cells::cell::CellCheckpoint;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::rollout::inference::{model_frames, RolloutReply};
use unroll_core::study::run::driver::RunEvent;
use unroll_core::system::System;
use unroll_pool::pool::{message_text, worker_posts, Fault, FromWorker, ToWorker};

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

/// A run's parts (kept until its data message arrives when the data are shipped).
struct PendingRun {
    plan: StudyPlan,
    cells: Vec<usize>,
    webgpu: bool,
    fault: Option<Fault>,
    resume: Option<Box<CellCheckpoint>>,
    checkpoint_secs: Option<f64>,
}

/// What the worker keeps between messages.
#[derive(Default)]
struct Inbox {
    /// Set while the page has the run paused.
    paused: Rc<Cell<bool>>,
    /// Set once a run was asked for (a worker runs one).
    started: Cell<bool>,
    /// A run waiting for its shipped data.
    pending: RefCell<Option<PendingRun>>,
}

impl Inbox {
    /// Does what `message` asks.
    fn hear(&self, message: ToWorker) {
        match message {
            ToWorker::Run {
                plan,
                cells,
                webgpu,
                fault,
                data,
                resume,
                checkpoint_secs,
            } => {
                let run = PendingRun {
                    plan: *plan,
                    cells,
                    webgpu,
                    fault,
                    resume,
                    checkpoint_secs,
                };
                self.start_run(run, data);
            }
            ToWorker::Data(prepared) => match self.pending.borrow_mut().take() {
                Some(run) => self.spawn_run(run, DataSource::Given(prepared)),
                None => post(&error(
                    "the study's data came without a run to start".into(),
                )),
            },
            ToWorker::Probe(request) => wasm_bindgen_futures::spawn_local(async move {
                probe::run(*request, &|probe| post(&FromWorker::Probed(probe.clone()))).await;
            }),
            ToWorker::Rollout(request) => wasm_bindgen_futures::spawn_local(async move {
                let device = compute::cpu_device();
                let outcome = model_frames(request.system.physics(), &request, &device).await;
                post(&FromWorker::Rollout(RolloutReply::of(
                    request.ticket,
                    outcome,
                )));
            }),
            ToWorker::Pause => self.paused.set(true),
            ToWorker::Resume => self.paused.set(false),
        }
    }

    /// Starts `run` with `data`, or keeps it until shipped data arrive; a second run is refused.
    fn start_run(&self, run: PendingRun, data: DataSource) {
        if self.started.replace(true) {
            post(&error("the worker was asked to run twice".into()));
        } else if data == DataSource::Shipped {
            *self.pending.borrow_mut() = Some(run);
        } else {
            self.spawn_run(run, data);
        }
    }

    fn spawn_run(&self, run: PendingRun, data: DataSource) {
        wasm_bindgen_futures::spawn_local(run_cells(run, data, self.paused.clone()));
    }
}

/// Starts the worker: static constructors, panic hook, logger, message handler, then `Ready`.
pub fn start() {
    super::run_static_constructors();
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        post(&error(format!("the worker panicked: {info}")));
    }));
    let _ = console_log::init_with_level(log::Level::Warn);
    let inbox = Inbox::default();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        match serde_json::from_str::<ToWorker>(&text) {
            Ok(message) => inbox.hear(message),
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

/// The worker's device: WebGPU when asked and acquired (true), else the CPU backend; posts
/// which.
async fn device(webgpu: bool) -> (Device, bool) {
    if !webgpu {
        post(&FromWorker::Device("CPU backend".into()));
        return (compute::cpu_device(), false);
    }
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
}

/// Runs the cells of `run` with the data from `data` to the end (or the first error), posting
/// every event.
async fn run_cells(run: PendingRun, data: DataSource, paused: Rc<Cell<bool>>) {
    let (device, gpu) = device(run.webgpu).await;
    if matches!(data, DataSource::Make { .. }) {
        let system = run.plan.config.system.physics();
        for failure in assets::install_data_assets(system, &run.plan.config).await {
            log::warn!("{failure} (the data are made from the seeded fields instead)");
        }
    }
    let clock = Rc::new(now_secs);
    let batch = CellBatch::new(&run.plan, &run.cells, System::physics, &device, clock, data);
    let mut batch = match batch {
        Ok(batch) => batch,
        Err(err) => return post(&error(err.to_string())),
    };
    // On WebGPU a variant's seeds train as one ensemble (fewer, larger dispatches); on the CPU
    // one at a time, where an ensemble measured slower per network (the book, docs/src/ensembles.md).
    batch.set_ensembles(gpu);
    let mut checkpoints = (!gpu)
        .then_some(run.checkpoint_secs)
        .flatten()
        .map(Checkpoints::every);
    if let Some(checkpoint) = run.resume.filter(|_| !gpu) {
        let (cell, iteration) = (checkpoint.cell, checkpoint.training.trainer.iteration);
        match batch.resume_from(*checkpoint) {
            Ok(()) => post(&FromWorker::Resumed { cell, iteration }),
            Err(err) => log::warn!(
                "the checkpoint could not be resumed ({err}): the training starts from its seed"
            ),
        }
    }
    while !batch.stopped() {
        while paused.get() {
            sleep(50).await;
        }
        if run.fault == Some(Fault::Panic) && batch.training() {
            panic!("injected fault (?worker-fault=panic)");
        }
        for text in batch.tick().await.into_iter().flat_map(worker_posts) {
            post_text(&text);
        }
        if let Some(checkpoints) = checkpoints.as_mut() {
            checkpoints.post_when_due(&batch, &run.plan);
        }
        yield_now().await;
    }
}

/// Posts the running training's checkpoint every `secs` seconds of wall time.
struct Checkpoints {
    secs: f64,
    last: f64,
}

impl Checkpoints {
    fn every(secs: f64) -> Self {
        Self {
            secs,
            last: now_secs(),
        }
    }

    /// Posts `batch`'s checkpoint if one is due and it is training (a checkpoint that cannot be
    /// made is logged: the training goes on).
    fn post_when_due(&mut self, batch: &CellBatch, plan: &StudyPlan) {
        if now_secs() - self.last < self.secs || batch.stopped() {
            return;
        }
        self.last = now_secs();
        match batch.checkpoint(plan) {
            Some(Ok(checkpoint)) => post(&FromWorker::Checkpoint(Box::new(checkpoint))),
            Some(Err(err)) => log::warn!("no checkpoint of the running training: {err}"),
            None => {}
        }
    }
}
