//! How much of the browser's storage this origin uses and may use
//! (`navigator.storage.estimate()`), and whether its data are kept when the browser is short of
//! space (`navigator.storage.persist()`).

use wasm_bindgen_futures::JsFuture;

/// This origin's storage: bytes used, bytes it may use, and whether the browser keeps them
/// under pressure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StorageUse {
    /// Bytes used.
    pub used: f64,
    /// Bytes this origin may use (its quota).
    pub quota: f64,
    /// Persistent: the browser does not evict them when short of space.
    pub persisted: bool,
}

impl StorageUse {
    /// Bytes left before the quota.
    pub fn left(&self) -> f64 {
        (self.quota - self.used).max(0.0)
    }

    /// `2.1 MB of 1.2 GB used (persistent)`.
    pub fn words(&self) -> String {
        let kept = if self.persisted {
            "persistent: the browser keeps it when short of space"
        } else {
            "not persistent: the browser may clear it when short of space"
        };
        format!(
            "{} of {} used ({kept})",
            bytes(self.used),
            bytes(self.quota)
        )
    }
}

/// `812 kB`, `2.1 MB`, `1.2 GB`.
pub fn bytes(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.1} GB", n / 1e9),
        n if n >= 1e6 => format!("{:.1} MB", n / 1e6),
        n => format!("{:.0} kB", n / 1e3),
    }
}

fn manager() -> Option<web_sys::StorageManager> {
    Some(web_sys::window()?.navigator().storage())
}

/// This origin's storage use, if the browser says.
pub async fn estimate() -> Option<StorageUse> {
    let manager = manager()?;
    let estimate = JsFuture::from(manager.estimate().ok()?).await.ok()?;
    let estimate: web_sys::StorageEstimate = estimate.into();
    let persisted = JsFuture::from(manager.persisted().ok()?).await.ok()?;
    Some(StorageUse {
        used: estimate.get_usage()?,
        quota: estimate.get_quota()?,
        persisted: persisted.as_bool().unwrap_or(false),
    })
}

/// Asks the browser to keep this origin's data when short of space; whether it will.
pub async fn ask_persistence() -> bool {
    let Some(promise) = manager().and_then(|m| m.persist().ok()) else {
        return false;
    };
    JsFuture::from(promise)
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
