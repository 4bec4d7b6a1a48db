//! Inside the worker that makes a study's data: fetches the files its system ships for it
//! (`SystemDescription::data_assets`, e.g. Kolmogorov's spun-up states and coarse frames under
//! `static/`) and installs them, so the data start from them or are read from them. A file that cannot be fetched or installed only
//! costs time (the data are then made from the seeded fields): it is reported, never fatal.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::WorkerGlobalScope;

use unroll_core::system::config::StudyConfig;
use unroll_core::system::physics::PhysicalSystem;

/// Fetches and installs every file `system` ships for `config`; returns a line per file that
/// failed (empty when all installed).
pub async fn install_data_assets(system: &dyn PhysicalSystem, config: &StudyConfig) -> Vec<String> {
    let mut failures = Vec::new();
    for path in system.data_assets(config) {
        let installed = match fetch_bytes(&path).await {
            Ok(bytes) => system
                .install_data_asset(&bytes)
                .map_err(|err| format!("{path}: {err}")),
            Err(err) => Err(err),
        };
        if let Err(err) = installed {
            failures.push(err);
        }
    }
    failures
}

/// The bytes at `url` (relative to the worker's script, which the page serves from its root).
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let fail = |why: String| format!("cannot fetch {url}: {why}");
    let response = JsFuture::from(scope.fetch_with_str(url))
        .await
        .map_err(|e| fail(format!("{e:?}")))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| fail("not a response".into()))?;
    if !response.ok() {
        return Err(fail(format!(
            "the server answered {} {}",
            response.status(),
            response.status_text()
        )));
    }
    let buffer = response
        .array_buffer()
        .map_err(|e| fail(format!("{e:?}")))?;
    let buffer = JsFuture::from(buffer)
        .await
        .map_err(|e| fail(format!("{e:?}")))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
