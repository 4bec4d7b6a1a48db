//! The runs earlier versions of the page kept in `localStorage` (a JSON list of results texts
//! under `unroll-lab/runs@<site>`, or the older unscoped `unroll-lab/runs`, and the running
//! study's partial results under `…/run-in-progress`), moved into this site's
//! [`RunStore`](super::run_store::RunStore) once: each key is removed only after everything it
//! held is stored.

use unroll_report::experiment::site::{scoped_key, site_scope, unscoped_key};

use super::run_store::RunStore;

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

/// Moves what `localStorage` holds for this site into `store` (a failure is logged and leaves
/// the key for the next page load).
pub async fn move_into(store: &RunStore) {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return;
    };
    let site = site();
    for key in [scoped_key("runs", &site), unscoped_key("runs")] {
        let Ok(Some(text)) = storage.get_item(&key) else {
            continue;
        };
        let runs: Vec<String> = serde_json::from_str(&text).unwrap_or_default();
        let mut moved = true;
        for json in &runs {
            if let Err(err) = store.add(json, super::timer::epoch_ms()).await {
                log::warn!("a run kept in localStorage could not be moved: {err}");
                moved = false;
                break;
            }
        }
        if moved {
            let _ = storage.remove_item(&key);
        }
    }
    for key in [
        scoped_key("run-in-progress", &site),
        unscoped_key("run-in-progress"),
    ] {
        let Ok(Some(json)) = storage.get_item(&key) else {
            continue;
        };
        let saved = match store.save_in_progress(&json) {
            Ok(write) => write.await,
            Err(err) => Err(err),
        };
        match saved {
            Ok(()) => {
                let _ = storage.remove_item(&key);
            }
            Err(err) => log::warn!("an unfinished run in localStorage could not be moved: {err}"),
        }
    }
}
