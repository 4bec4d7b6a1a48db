//! The page's lifecycle events the app reacts to.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A `pagehide` listener (the page is being left or reloaded), removed when dropped.
pub struct OnPageHide(Closure<dyn FnMut()>);

impl OnPageHide {
    /// Calls `handler` when the page goes away; `None` without a window.
    pub fn new(handler: impl FnMut() + 'static) -> Option<Self> {
        let closure = Closure::<dyn FnMut()>::new(handler);
        web_sys::window()?
            .add_event_listener_with_callback("pagehide", closure.as_ref().unchecked_ref())
            .ok()?;
        Some(Self(closure))
    }
}

impl Drop for OnPageHide {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window
                .remove_event_listener_with_callback("pagehide", self.0.as_ref().unchecked_ref());
        }
    }
}
