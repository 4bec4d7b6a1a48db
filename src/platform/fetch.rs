//! Reading a static asset the page is served with (the committed runs under `results/`).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The text at `url` (relative to the page), or why not: the network failed, or the server
/// answered with an error status.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {}", describe(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("cannot fetch {url}: not a response"))?;
    if !response.ok() {
        return Err(format!(
            "cannot fetch {url}: the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let text = response
        .text()
        .map_err(|e| format!("cannot read {url}: {}", describe(&e)))?;
    JsFuture::from(text)
        .await
        .map_err(|e| format!("cannot read {url}: {}", describe(&e)))?
        .as_string()
        .ok_or_else(|| format!("{url} is not text"))
}

/// A thrown JavaScript value as text (an `Error`'s message).
fn describe(value: &wasm_bindgen::JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
