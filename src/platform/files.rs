//! Files in the browser: downloads (Blob + object URL + a clicked anchor), reading a picked
//! file, the URL query, and the list of completed runs in `localStorage`.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Offers `text` as a download named `file_name`.
pub fn download(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| format!("cannot create the file: {e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|e| format!("cannot create a download link: {e:?}"))?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The text of the first file picked in `input`.
pub async fn read_picked_file(input: &web_sys::HtmlInputElement) -> Result<String, String> {
    let file = input
        .files()
        .and_then(|files| files.get(0))
        .ok_or("no file selected")?;
    let text = JsFuture::from(file.text())
        .await
        .map_err(|e| format!("cannot read {}: {e:?}", file.name()))?;
    text.as_string()
        .ok_or_else(|| format!("{} is not text", file.name()))
}

/// The page's query string (with `?`), empty if none.
pub fn query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the page URL's query without reloading (the shareable experiment).
pub fn set_query(query: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("?{query}")),
        );
    }
}

/// The browser clock in seconds (`performance.now()`).
pub fn now_secs() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now() / 1000.0)
}

const RUNS_KEY: &str = "unroll-lab/runs";

/// Completed runs kept in `localStorage` (JSON texts, newest last).
pub fn stored_runs() -> Vec<String> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(RUNS_KEY).ok().flatten())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Appends a run (keeps the newest `keep`); the error says why storage refused.
pub fn store_run(json: String, keep: usize) -> Result<(), String> {
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or("browser storage is unavailable")?;
    let mut runs = stored_runs();
    runs.push(json);
    let excess = runs.len().saturating_sub(keep);
    runs.drain(..excess);
    let text = serde_json::to_string(&runs).map_err(|e| e.to_string())?;
    storage
        .set_item(RUNS_KEY, &text)
        .map_err(|_| "browser storage is full: export the results to keep them".to_string())
}
