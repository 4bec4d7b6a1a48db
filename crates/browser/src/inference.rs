//! The page's side of the playground's inference: one worker, started at the first request and
//! kept, rolls trained networks out ([`ToWorker::Rollout`]) so that the page links no burn.
//! Requests sent before the worker is ready wait in a queue; if it dies, every pending request
//! gets the reason and the next request starts a fresh worker.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::oneshot;

use super::workers::{Heard, WorkerHandle, WORKER_SCRIPT};
use unroll_core::study::rollout::inference::RolloutRequest;
use unroll_core::study::run::driver::RunEvent;
use unroll_pool::pool::{FromWorker, ToWorker};

type Pending = HashMap<u64, oneshot::Sender<Result<Vec<Vec<f64>>, String>>>;

#[derive(Default)]
struct State {
    worker: Option<WorkerHandle>,
    /// A dead worker, kept until the next request: its handlers may be running when it dies.
    retired: Option<WorkerHandle>,
    ready: bool,
    queue: Vec<ToWorker>,
    pending: Pending,
    tickets: u64,
}

/// The playground's inference worker (started lazily).
#[derive(Clone, Default)]
pub struct InferenceWorker {
    state: Rc<RefCell<State>>,
}

impl InferenceWorker {
    /// The frames of `request` (`[steps + 1][N]`), or why not (the variant's error, or the
    /// worker's death). Numbers the request itself.
    pub async fn rollout(&self, mut request: RolloutRequest) -> Result<Vec<Vec<f64>>, String> {
        let (sender, receiver) = oneshot::channel();
        {
            let mut state = self.state.borrow_mut();
            state.tickets += 1;
            request.ticket = state.tickets;
            if state.worker.is_none() {
                state.retired = None;
                let worker = WorkerHandle::spawn(WORKER_SCRIPT, 0, self.hear())?;
                state.worker = Some(worker);
                state.ready = false;
            }
            state.pending.insert(request.ticket, sender);
            let message = ToWorker::Rollout(Box::new(request));
            match (&state.worker, state.ready) {
                (Some(worker), true) => worker.send(&message),
                _ => state.queue.push(message),
            }
        }
        receiver
            .await
            .unwrap_or_else(|_| Err("the inference worker stopped".into()))
    }

    /// What the worker says: ready (send the queue), a reply, or its death.
    fn hear(&self) -> Rc<dyn Fn(usize, Heard)> {
        let state = self.state.clone();
        Rc::new(move |_, heard| {
            let mut state = state.borrow_mut();
            match heard {
                Heard::Message(FromWorker::Ready) => {
                    state.ready = true;
                    let queue = std::mem::take(&mut state.queue);
                    if let Some(worker) = &state.worker {
                        queue.iter().for_each(|message| worker.send(message));
                    }
                }
                Heard::Message(FromWorker::Rollout(reply)) => {
                    if let Some(sender) = state.pending.remove(&reply.ticket) {
                        let _ = sender.send(reply.outcome());
                    }
                }
                Heard::Message(FromWorker::Event(RunEvent::Error(why))) | Heard::Died(why) => {
                    if let Some(worker) = state.worker.take() {
                        worker.terminate();
                        state.retired = Some(worker);
                    }
                    state.queue.clear();
                    for (_, sender) in state.pending.drain() {
                        let _ = sender.send(Err(format!("the inference worker failed: {why}")));
                    }
                }
                Heard::Message(_) | Heard::Data(_) => {}
            }
        })
    }
}
