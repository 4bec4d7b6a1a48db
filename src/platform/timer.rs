//! Browser timers as futures: `sleep` yields a macrotask (lets the page paint); `with_timeout`
//! bounds a future by wall time.

use futures::future::{select, Either};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Resolves after `millis` milliseconds via `setTimeout` (0 = yield one macrotask).
pub async fn sleep(millis: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                resolve.unchecked_ref(),
                millis,
            );
        }
    });
    let _ = JsFuture::from(promise).await;
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
