//! Pointer input on a drawing surface (mouse, pen or finger alike): where a pointer event falls
//! within the element that listens, as fractions of its width and height, and pointer capture so
//! a stroke that leaves the element keeps drawing.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, PointerEvent};

fn listener(event: &PointerEvent) -> Option<HtmlElement> {
    event.current_target()?.dyn_into().ok()
}

/// `(x, y)` of `event` in `[0, 1]²` of the element listening (0, 0 = top left), clamped.
pub fn fraction(event: &PointerEvent) -> Option<(f64, f64)> {
    let element = listener(event)?;
    let (width, height) = (element.client_width(), element.client_height());
    if width <= 0 || height <= 0 {
        return None;
    }
    // The surface has no pointer targets inside (its drawing ignores pointer events), so the
    // offset is relative to the listening element itself.
    Some((
        (f64::from(event.offset_x()) / f64::from(width)).clamp(0.0, 1.0),
        (f64::from(event.offset_y()) / f64::from(height)).clamp(0.0, 1.0),
    ))
}

/// Keeps the pointer's events on the listening element until it is released.
pub fn capture(event: &PointerEvent) {
    if let Some(element) = listener(event) {
        let _ = element.set_pointer_capture(event.pointer_id());
    }
}
