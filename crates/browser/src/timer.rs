//! Browser time as futures, in the page and in a worker alike: `sleep` yields a macrotask (lets
//! the page paint), `yield_now` lets queued messages in at a fraction of its cost, `with_timeout`
//! bounds a future by wall time, `idle` waits for an idle period, `next_frame` for an animation
//! frame, `now_secs` reads `performance.now()`.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures::future::{select, Either};
use js_sys::Reflect;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Resolves after `millis` milliseconds via `setTimeout` (0 = yield one macrotask).
pub async fn sleep(millis: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let global = js_sys::global();
        if let Some(window) = global.dyn_ref::<web_sys::Window>() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                resolve.unchecked_ref(),
                millis,
            );
        } else if let Some(worker) = global.dyn_ref::<web_sys::WorkerGlobalScope>() {
            let _ = worker.set_timeout_with_callback_and_timeout_and_arguments_0(
                resolve.unchecked_ref(),
                millis,
            );
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Yields to the event loop through a `MessageChannel` round trip (≈ 0.06 ms, against
/// `setTimeout(0)`'s ≥ 4 ms when nested), so a worker's loop receives pause messages.
pub async fn yield_now() {
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return sleep(0).await;
    };
    let port = channel.port1();
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        port.set_onmessage(Some(resolve.unchecked_ref()));
    });
    let _ = channel.port2().post_message(&JsValue::NULL);
    let _ = JsFuture::from(promise).await;
    port.set_onmessage(None);
}

/// Runs `future`, giving up after `millis` milliseconds (`None`).
pub async fn with_timeout<T>(
    millis: i32,
    future: impl std::future::Future<Output = T>,
) -> Option<T> {
    let future = std::pin::pin!(future);
    let timeout = std::pin::pin!(sleep(millis));
    match select(future, timeout).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(_) => None,
    }
}

thread_local! {
    /// `performance` and its `now` method, looked up once per thread (the page, each worker),
    /// not by reflection at every reading.
    static CLOCK: Option<(JsValue, js_sys::Function)> = {
        let performance = Reflect::get(&js_sys::global(), &"performance".into()).ok();
        performance.and_then(|performance| {
            let now = Reflect::get(&performance, &"now".into()).ok()?.dyn_into().ok()?;
            Some((performance, now))
        })
    };
}

/// Milliseconds since the Unix epoch: the wall clock, for the dates shown.
pub fn epoch_ms() -> f64 {
    js_sys::Date::now()
}

/// `2026-12-07 23:10`: the moment `epoch_ms` in the browser's local time.
pub fn local_date(epoch_ms: f64) -> String {
    let date = js_sys::Date::new(&epoch_ms.into());
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        date.get_full_year(),
        date.get_month() + 1,
        date.get_date(),
        date.get_hours(),
        date.get_minutes()
    )
}

/// The browser clock in seconds (`performance.now()`, page or worker).
pub fn now_secs() -> f64 {
    CLOCK
        .with(|clock| {
            let (performance, now) = clock.as_ref()?;
            now.call0(performance).ok()?.as_f64()
        })
        .map_or(0.0, |millis| millis / 1000.0)
}

/// Resolves in an idle period of the page (`requestIdleCallback`, at most `timeout_ms` later),
/// or after a macrotask where the browser has no idle callbacks (Safari, workers): for work
/// that must not lengthen the task that asked for it (storage).
pub async fn idle(timeout_ms: u32) {
    let window = js_sys::global().dyn_into::<web_sys::Window>().ok();
    let request = window.as_ref().and_then(|w| {
        Reflect::get(w, &"requestIdleCallback".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()
    });
    let (Some(window), Some(request)) = (window, request) else {
        return sleep(0).await;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"timeout".into(), &timeout_ms.into());
        let _ = request.call2(&window, &resolve, &options);
    });
    let _ = JsFuture::from(promise).await;
}

/// Resolves at the page's next animation frame (`requestAnimationFrame`; a 16 ms timer where
/// there is none). Every waiter shares one callback, registered once per frame, so a loop woken
/// on every frame builds no promise or closure per frame.
pub async fn next_frame() {
    if js_sys::global().dyn_into::<web_sys::Window>().is_err() {
        return sleep(16).await;
    }
    let target = FRAMES.with(|frames| frames.state.borrow().frame + 1);
    NextFrame { target }.await;
}

/// The animation frames seen so far and who waits for the next.
#[derive(Default)]
struct FrameState {
    frame: u64,
    requested: bool,
    waiting: Vec<Waker>,
}

/// The shared `requestAnimationFrame` callback and its state.
struct Frames {
    state: Rc<RefCell<FrameState>>,
    callback: Closure<dyn FnMut(f64)>,
}

thread_local! {
    static FRAMES: Frames = {
        let state = Rc::new(RefCell::new(FrameState::default()));
        let shared = state.clone();
        let callback = Closure::<dyn FnMut(f64)>::new(move |_timestamp: f64| {
            let waiting = {
                let mut state = shared.borrow_mut();
                state.frame += 1;
                state.requested = false;
                std::mem::take(&mut state.waiting)
            };
            waiting.into_iter().for_each(Waker::wake);
        });
        Frames { state, callback }
    };
}

/// Ready once frame `target` has been seen.
struct NextFrame {
    target: u64,
}

impl Future for NextFrame {
    type Output = ();

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        FRAMES.with(|frames| {
            let mut state = frames.state.borrow_mut();
            if state.frame >= self.target {
                return Poll::Ready(());
            }
            state.waiting.push(context.waker().clone());
            if !state.requested {
                let requested = web_sys::window().is_some_and(|window| {
                    window
                        .request_animation_frame(frames.callback.as_ref().unchecked_ref())
                        .is_ok()
                });
                // Without a frame to wait for, resolve now rather than never.
                if !requested {
                    return Poll::Ready(());
                }
                state.requested = true;
            }
            Poll::Pending
        })
    }
}
