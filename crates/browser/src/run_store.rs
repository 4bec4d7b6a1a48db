//! The runs a reader keeps in this browser (`localStorage`), scoped to the site the page is
//! served from ([`unroll_report::experiment::site`]): completed runs (JSON texts, newest last) and the
//! running study's partial results. Runs kept under the earlier, unscoped keys are carried over
//! to the first site that opens, once.

use unroll_report::experiment::site::{scoped_key, site_scope, unscoped_key};

const RUNS: &str = "runs";
const IN_PROGRESS: &str = "run-in-progress";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// This site's scope: the page's origin and folder.
pub fn site() -> String {
    let location = web_sys::window().map(|w| w.location());
    let origin = location
        .as_ref()
        .and_then(|l| l.origin().ok())
        .unwrap_or_default();
    let path = location
        .as_ref()
        .and_then(|l| l.pathname().ok())
        .unwrap_or_default();
    site_scope(&origin, &path)
}

/// `name`'s key for this site, after carrying over what the unscoped key held (once: the
/// unscoped key is removed).
fn key(storage: &web_sys::Storage, name: &str) -> String {
    let key = scoped_key(name, &site());
    let old = unscoped_key(name);
    if let Ok(Some(held)) = storage.get_item(&old) {
        let carried = match (name, storage.get_item(&key).ok().flatten()) {
            (RUNS, Some(ours)) => merge_lists(&held, &ours),
            (_, Some(ours)) => Some(ours),
            (_, None) => Some(held),
        };
        if let Some(text) = carried {
            if storage.set_item(&key, &text).is_ok() {
                let _ = storage.remove_item(&old);
            }
        }
    }
    key
}

/// Two stored lists of runs as one, the older first; `None` when either is not a list.
fn merge_lists(older: &str, newer: &str) -> Option<String> {
    let mut runs: Vec<String> = serde_json::from_str(older).ok()?;
    runs.extend(serde_json::from_str::<Vec<String>>(newer).ok()?);
    serde_json::to_string(&runs).ok()
}

/// Keeps the partial results of the running study (replaced after every finished training), so
/// closing or reloading the page loses nothing that finished.
pub fn save_in_progress(json: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&key(&storage, IN_PROGRESS), json);
    }
}

/// Forgets the running study's partial results (it ended and was stored, or had none).
pub fn clear_in_progress() {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(&key(&storage, IN_PROGRESS));
    }
}

/// The partial results of a run the page was closed or reloaded during, removed from storage.
pub fn take_in_progress() -> Option<String> {
    let storage = local_storage()?;
    let key = key(&storage, IN_PROGRESS);
    let json = storage.get_item(&key).ok().flatten()?;
    let _ = storage.remove_item(&key);
    Some(json)
}

/// This site's completed runs (JSON texts, newest last).
pub fn stored_runs() -> Vec<String> {
    local_storage()
        .and_then(|s| s.get_item(&key(&s, RUNS)).ok().flatten())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Appends the results JSON `json` to this site's stored runs, keeping the newest `keep`. When
/// the browser's storage is full, the oldest runs are dropped until the new one fits (the
/// message says how many); the new run alone not fitting is an error asking to export it.
pub fn store_run(json: String, keep: usize) -> Result<Option<String>, String> {
    let storage = local_storage().ok_or("browser storage is unavailable")?;
    let key = key(&storage, RUNS);
    let mut runs = stored_runs();
    runs.push(json);
    let excess = runs.len().saturating_sub(keep);
    runs.drain(..excess);
    let mut dropped = 0;
    loop {
        let text = serde_json::to_string(&runs).map_err(|e| e.to_string())?;
        if storage.set_item(&key, &text).is_ok() {
            return Ok((dropped > 0).then(|| {
                format!("browser storage was full: the {dropped} oldest stored run(s) were dropped")
            }));
        }
        if runs.len() <= 1 {
            return Err(
                "browser storage is full: export the results (JSON) to keep this run".to_string(),
            );
        }
        runs.remove(0);
        dropped += 1;
    }
}
