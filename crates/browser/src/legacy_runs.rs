//! The runs earlier versions of the page kept in `localStorage`: a JSON list of results texts
//! under `unroll-lab/runs@<site>` (or the older unscoped `unroll-lab/runs`), and the running
//! study's partial results under `…/run-in-progress`. The run store moves them in once
//! ([`super::run_store::open`]) and removes each key only after everything it held is stored.

use unroll_report::experiment::site::{scoped_key, unscoped_key};

use super::site_address::site;

/// What one `localStorage` key holds.
pub enum Legacy {
    /// Completed runs (results JSON texts, oldest first).
    Runs(Vec<String>),
    /// A running study's partial results.
    InProgress(String),
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Every key of this site (and the unscoped ones) that holds something, with what it holds.
pub fn held() -> Vec<(String, Legacy)> {
    let Some(storage) = local_storage() else {
        return Vec::new();
    };
    let site = site();
    let mut held = Vec::new();
    for key in [scoped_key("runs", &site), unscoped_key("runs")] {
        if let Ok(Some(text)) = storage.get_item(&key) {
            held.push((
                key,
                Legacy::Runs(serde_json::from_str(&text).unwrap_or_default()),
            ));
        }
    }
    for key in [
        scoped_key("run-in-progress", &site),
        unscoped_key("run-in-progress"),
    ] {
        if let Ok(Some(json)) = storage.get_item(&key) {
            held.push((key, Legacy::InProgress(json)));
        }
    }
    held
}

/// Removes `key` (once what it held is stored).
pub fn remove(key: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(key);
    }
}
