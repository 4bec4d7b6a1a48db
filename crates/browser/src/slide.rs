//! A slide the compositor runs: an element moved left at a constant speed by a Web Animations
//! API animation (`element.animate`, a transform, so no script runs while it moves), which the
//! page can pause, play and ask where it is. Called through `js_sys::Reflect`, as web-sys marks
//! `Element::animate` unstable.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// A running (or paused) slide of one element.
pub struct Slide {
    animation: Object,
}

/// `target.method(...args)`, `None` where the browser has no such method or it throws.
fn call(target: &JsValue, method: &str, args: &Array) -> Option<JsValue> {
    let function: Function = Reflect::get(target, &method.into()).ok()?.dyn_into().ok()?;
    function.apply(target, args).ok()
}

fn object(fields: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&object, &(*key).into(), value);
    }
    object
}

impl Slide {
    /// Starts moving `element` from where it is to `percent` % of its own width to the left, at
    /// a constant speed over `millis` milliseconds; it stays there after. `None` where the
    /// browser has no Web Animations.
    pub fn start(element: &Element, percent: f64, millis: f64) -> Option<Self> {
        let keyframes = Array::of2(
            &object(&[("transform", "translateX(0)".into())]),
            &object(&[("transform", format!("translateX(-{percent}%)").into())]),
        );
        let options = object(&[
            ("duration", millis.into()),
            ("easing", "linear".into()),
            ("fill", "forwards".into()),
        ]);
        let animation = call(element, "animate", &Array::of2(&keyframes, &options))?;
        Some(Self {
            animation: animation.dyn_into().ok()?,
        })
    }

    /// Milliseconds of the slide run so far (0 before its first frame).
    pub fn position_ms(&self) -> f64 {
        Reflect::get(&self.animation, &"currentTime".into())
            .ok()
            .and_then(|t| t.as_f64())
            .unwrap_or(0.0)
    }

    /// Moves the slide to `millis` milliseconds from its start.
    pub fn seek(&self, millis: f64) {
        let _ = Reflect::set(&self.animation, &"currentTime".into(), &millis.into());
    }

    /// Holds the element where it is.
    pub fn pause(&self) {
        let _ = call(&self.animation, "pause", &Array::new());
    }

    /// Moves it on from where it is.
    pub fn play(&self) {
        let _ = call(&self.animation, "play", &Array::new());
    }
}
