//! The address this page is served from, as the scope of what it keeps in the browser.

use unroll_report::experiment::site::site_scope;

/// This site's scope: the page's origin and folder (`https://lab.github.io/unroll-lab/`).
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
