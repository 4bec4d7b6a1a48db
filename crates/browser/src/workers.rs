//! The page's side of the Web Workers: starting one (a module worker from trunk's loader shim),
//! sending it a [`ToWorker`], hearing its [`FromWorker`] messages (its study's events) or its
//! death, stopping it.

use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Event, MessageEvent, Worker, WorkerOptions, WorkerType};

use unroll_pool::pool::{FromWorker, ToWorker, DATA_MESSAGE_PREFIX};

/// The worker script trunk writes beside the page (`data-bin="unroll-lab-worker"`): the CPU
/// backend only.
pub const WORKER_SCRIPT: &str = "./unroll-lab-worker_loader.js";

/// The same worker with burn's WebGPU backend (`data-bin="unroll-lab-gpu-worker"`): ≈ 3 × the
/// download, started only to probe or train on WebGPU.
pub const GPU_WORKER_SCRIPT: &str = "./unroll-lab-gpu-worker_loader.js";

/// The worker script for a worker that uses WebGPU (`webgpu`) or only the CPU backend.
pub fn worker_script(webgpu: bool) -> &'static str {
    if webgpu {
        GPU_WORKER_SCRIPT
    } else {
        WORKER_SCRIPT
    }
}

/// What the page hears from worker `index`.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// A message.
    Message(FromWorker),
    /// The study's data as the maker posted them: the page forwards them with
    /// [`WorkerHandle::send_text`].
    Data(WorkerText),
    /// The worker failed to start, threw or died (out of memory, a trap), in words.
    Died(String),
}

/// A message's text kept as the browser's string (a `ToWorker::Data` message, megabytes):
/// never copied into wasm, forwarded as it came.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerText(JsValue);

/// A running worker; dropping it does not stop it ([`WorkerHandle::terminate`] does).
pub struct WorkerHandle {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl WorkerHandle {
    /// Starts worker `index` from `script`; `hear` gets everything it says.
    pub fn spawn(
        script: &str,
        index: usize,
        hear: Rc<dyn Fn(usize, Heard)>,
    ) -> Result<Self, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(script, &options)
            .map_err(|err| format!("the browser refused to start a worker: {err:?}"))?;
        let on_message = {
            let hear = hear.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let data = event.data();
                if is_data_message(&data) {
                    return hear(index, Heard::Data(WorkerText(data)));
                }
                let text = data.as_string().unwrap_or_default();
                hear(
                    index,
                    match serde_json::from_str(&text) {
                        Ok(message) => Heard::Message(message),
                        Err(err) => Heard::Died(format!("sent an unreadable message ({err})")),
                    },
                );
            })
        };
        // An `ErrorEvent` for an exception in the worker; a plain `Event` when its script could
        // not be loaded.
        let script = script.to_string();
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            let message = Reflect::get(&event, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default();
            hear(
                index,
                Heard::Died(if message.is_empty() {
                    format!("it could not be loaded from {script}, or it crashed")
                } else {
                    message
                }),
            );
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Self {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends `message` (as JSON text).
    pub fn send(&self, message: &ToWorker) {
        if let Ok(text) = serde_json::to_string(message) {
            let _ = self.worker.post_message(&JsValue::from_str(&text));
        }
    }

    /// Sends a message's text as it came (a [`Heard::Data`]).
    pub fn send_text(&self, text: &WorkerText) {
        let _ = self.worker.post_message(&text.0);
    }

    /// Stops the worker at once.
    pub fn terminate(&self) {
        self.worker.terminate();
    }
}

/// Whether `data` is a data message's text, read from its first characters only.
fn is_data_message(data: &JsValue) -> bool {
    let Some(text) = data.dyn_ref::<js_sys::JsString>() else {
        return false;
    };
    let prefix = DATA_MESSAGE_PREFIX.len() as u32;
    text.length() >= prefix && text.slice(0, prefix) == DATA_MESSAGE_PREFIX
}

/// The browser's logical cores (`navigator.hardwareConcurrency`, 1 when unknown).
pub fn hardware_concurrency() -> usize {
    web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .filter(|n| n.is_finite() && *n >= 1.0)
        .map_or(1, |n| n as usize)
}
