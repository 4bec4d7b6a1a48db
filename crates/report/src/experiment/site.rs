//! The site a page is served from: its origin and base path (the folder of its address), the
//! scope under which the browser keeps a deployment's runs, so two deployments on one host
//! (`/unroll-lab/` and `/unroll-lab-preview/` of one GitHub Pages domain) never read or
//! overwrite each other's.

/// `origin` + the folder of `pathname`: `https://lab.github.io` and `/unroll-lab/index.html`
/// give `https://lab.github.io/unroll-lab/`; a path without a file (`/unroll-lab/`) is its own
/// folder, and one without a slash is the root.
pub fn site_scope(origin: &str, pathname: &str) -> String {
    let folder = pathname.rfind('/').map_or("/", |last| &pathname[..=last]);
    let folder = if folder.starts_with('/') {
        folder.to_string()
    } else {
        format!("/{folder}")
    };
    format!("{origin}{folder}")
}

/// The storage key of `name` (`runs`, `run-in-progress`) for the site `scope`.
pub fn scoped_key(name: &str, scope: &str) -> String {
    format!("unroll-lab/{name}@{scope}")
}

/// The key every deployment shared before keys were scoped to the site: its runs are carried
/// over to the first site that opens, once.
pub fn unscoped_key(name: &str) -> String {
    format!("unroll-lab/{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_is_the_origin_and_the_folder_of_the_address() {
        let origin = "https://lab.github.io";
        assert_eq!(
            site_scope(origin, "/unroll-lab/index.html"),
            "https://lab.github.io/unroll-lab/"
        );
        assert_eq!(
            site_scope(origin, "/unroll-lab/"),
            "https://lab.github.io/unroll-lab/"
        );
        assert_eq!(site_scope(origin, "/"), "https://lab.github.io/");
        assert_eq!(site_scope(origin, "/index.html"), "https://lab.github.io/");
        assert_eq!(site_scope(origin, ""), "https://lab.github.io/");
        assert_ne!(
            site_scope(origin, "/unroll-lab/"),
            site_scope(origin, "/unroll-lab-preview/")
        );
    }

    #[test]
    fn keys_differ_per_site_and_from_the_unscoped_one() {
        let a = scoped_key("runs", "http://127.0.0.1:8080/a/");
        let b = scoped_key("runs", "http://127.0.0.1:8080/b/");
        assert_ne!(a, b);
        assert_ne!(a, unscoped_key("runs"));
        assert_eq!(unscoped_key("runs"), "unroll-lab/runs");
    }
}
