//! Reading a static asset the page is served with (the committed runs under `results/`, which
//! the site ships gzipped: `….json.gz` is decompressed here, by the browser's
//! `DecompressionStream`, so no host has to compress them).

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
    let response = if url.ends_with(".gz") {
        gunzipped(response)
            .await
            .map_err(|e| format!("cannot decompress {url}: {}", describe(&e)))?
    } else {
        response
    };
    let text = response
        .text()
        .map_err(|e| format!("cannot read {url}: {}", describe(&e)))?;
    JsFuture::from(text)
        .await
        .map_err(|e| format!("cannot read {url}: {}", describe(&e)))?
        .as_string()
        .ok_or_else(|| format!("{url} is not text"))
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `DecompressionStream` (web-sys has it behind its unstable-API flag only).
    #[wasm_bindgen(js_name = DecompressionStream)]
    type Decompression;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Decompression, wasm_bindgen::JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &Decompression) -> web_sys::ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &Decompression) -> web_sys::WritableStream;
}

/// `response`'s body gunzipped, as a response of its own; as it is where it is not gzip (a host
/// that sent it with `Content-Encoding: gzip`, which the browser has already undone).
async fn gunzipped(
    response: web_sys::Response,
) -> Result<web_sys::Response, wasm_bindgen::JsValue> {
    let buffer = JsFuture::from(response.array_buffer()?).await?;
    let mut bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let whole = web_sys::Response::new_with_opt_u8_array(Some(&mut bytes))?;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(whole);
    }
    let body = whole
        .body()
        .ok_or_else(|| wasm_bindgen::JsValue::from_str("the answer has no body"))?;
    let gunzip = Decompression::new("gzip")?;
    let pair = web_sys::ReadableWritablePair::new(&gunzip.readable(), &gunzip.writable());
    web_sys::Response::new_with_opt_readable_stream(Some(&body.pipe_through(&pair)))
}

/// A thrown JavaScript value as text (an `Error`'s message).
fn describe(value: &wasm_bindgen::JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
