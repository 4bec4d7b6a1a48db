//! Files in the browser: downloads (Blob + object URL + a clicked anchor), reading a picked
//! file, the URL query.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Offers `text` as a download named `file_name`.
pub fn download(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    download_blob(file_name, mime, &parts)
}

/// Offers `bytes` as a binary download named `file_name`.
pub fn download_bytes(file_name: &str, bytes: &[u8]) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    download_blob(file_name, "application/octet-stream", &parts)
}

fn download_blob(file_name: &str, mime: &str, parts: &js_sys::Array) -> Result<(), String> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(parts, &options)
        .map_err(|e| format!("cannot create the file: {e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|e| format!("cannot create a download link: {e:?}"))?;
    let outcome = download_data_url(file_name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
    outcome
}

/// Offers the data URL `url` (a canvas's `toDataURL("image/png")`) as a download named
/// `file_name`.
pub fn download_data_url(file_name: &str, url: &str) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    anchor.set_href(url);
    anchor.set_download(file_name);
    anchor.click();
    Ok(())
}

/// Asks the reader `question` (the browser's OK / Cancel dialog); false where it cannot ask.
pub fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

/// The text of the file picked in the `<input type="file">` that fired `event`.
pub async fn read_file_of_event(event: web_sys::Event) -> Result<String, String> {
    let input = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .ok_or("the event does not come from a file input")?;
    read_picked_file(&input).await
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

/// Replaces the page URL's query without reloading (the shareable experiment), keeping the
/// current URL's keys that are not part of the experiment (`device=`, `workers=`, …, see
/// [`OTHER_KEYS`]).
pub fn set_query(query: &str) {
    let current = self::query();
    let others = current.trim_start_matches('?').split('&').filter(|pair| {
        let key = pair.split('=').next().unwrap_or_default();
        OTHER_KEYS.contains(&key)
    });
    let full: Vec<&str> = std::iter::once(query)
        .chain(others)
        .filter(|part| !part.is_empty())
        .collect();
    let url = if full.is_empty() {
        // An empty query must still replace the old one.
        "?".to_string()
    } else {
        format!("?{}", full.join("&"))
    };
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

pub use super::timer::now_secs;

use unroll_report::experiment::query::OTHER_KEYS;

/// The value of `key` in the page's query string, if present.
pub fn query_value(key: &str) -> Option<String> {
    query().trim_start_matches('?').split('&').find_map(|pair| {
        pair.strip_prefix(key)?
            .strip_prefix('=')
            .map(str::to_string)
    })
}

/// Sets (`Some`) or removes (`None`) each of `pairs`' keys in the page URL's query without
/// reloading, keeping every other key (the playground's state beside the experiment).
pub fn set_query_keys(pairs: &[(&str, Option<String>)]) {
    let current = self::query();
    let mut parts: Vec<String> = current
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| {
            let key = pair.split('=').next().unwrap_or_default();
            !pair.is_empty() && !pairs.iter().any(|(k, _)| *k == key)
        })
        .map(str::to_string)
        .collect();
    parts.extend(
        pairs
            .iter()
            .filter_map(|(key, value)| Some(format!("{key}={}", value.as_ref()?))),
    );
    let url = format!("?{}", parts.join("&"));
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// [`query_value`], percent-decoded.
pub fn query_text(key: &str) -> Option<String> {
    query_value(key).map(|raw| {
        percent_encoding::percent_decode_str(&raw)
            .decode_utf8_lossy()
            .into_owned()
    })
}

/// Every file picked in the `<input type="file" multiple>` that fired `event`, as
/// `(file name, bytes)`.
pub async fn read_files_of_event(event: web_sys::Event) -> Result<Vec<(String, Vec<u8>)>, String> {
    let input = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .ok_or("the event does not come from a file input")?;
    let files = input.files().ok_or("no file selected")?;
    let mut out = Vec::new();
    for index in 0..files.length() {
        let Some(file) = files.get(index) else {
            continue;
        };
        let buffer = JsFuture::from(file.array_buffer())
            .await
            .map_err(|e| format!("cannot read {}: {e:?}", file.name()))?;
        out.push((file.name(), js_sys::Uint8Array::new(&buffer).to_vec()));
    }
    Ok(out)
}
