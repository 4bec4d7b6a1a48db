//! The dependency rules of ARCHITECTURE.md, one per layer, checked on the source text:
//! - `web_sys`, `js_sys` and `wasm_bindgen` only under `platform/`;
//! - `numerics` imports no UI, report, experiment, chart or browser crate;
//! - `experiment`, `report` and `charts` import no UI or browser code;
//! - `ui` never creates a device (it receives the one `platform` acquired).

use std::path::{Path, PathBuf};

const BROWSER: [&str; 3] = ["web_sys", "js_sys", "wasm_bindgen"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every Rust file under `src/<dir>` (or all of `src` for `""`) with its text.
fn files_under(dir: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&src().join(dir), &mut files);
    assert!(!files.is_empty(), "no files under src/{dir}");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable file");
            (path, text)
        })
        .collect()
}

fn mentions(text: &str, name: &str) -> bool {
    text.contains(&format!("{name}::")) || text.contains(&format!("use {name}"))
}

fn assert_none(dir: &str, forbidden: &[&str]) {
    for (path, text) in files_under(dir) {
        for name in forbidden {
            assert!(!mentions(&text, name), "{} mentions {name}", path.display());
        }
    }
}

#[test]
fn browser_crates_only_under_platform() {
    let platform = src().join("platform");
    for (path, text) in files_under("") {
        if path.starts_with(&platform) {
            continue;
        }
        for name in BROWSER {
            assert!(
                !mentions(&text, name),
                "{} mentions {name} (only platform/ may)",
                path.display()
            );
        }
    }
}

#[test]
fn numerics_has_no_ui_report_or_browser_imports() {
    assert_none(
        "numerics",
        &[
            "crate::report",
            "crate::platform",
            "crate::ui",
            "crate::experiment",
            "crate::charts",
            "leptos",
            "plotters",
            "web_sys",
            "js_sys",
            "wasm_bindgen",
        ],
    );
}

#[test]
fn shared_layers_have_no_ui_or_browser_imports() {
    for dir in ["experiment", "report", "charts"] {
        assert_none(
            dir,
            &[
                "crate::platform",
                "crate::ui",
                "leptos",
                "web_sys",
                "js_sys",
                "wasm_bindgen",
            ],
        );
    }
}

#[test]
fn ui_never_creates_a_device() {
    for (path, text) in files_under("ui") {
        for constructor in [
            "backend::cpu",
            "cpu_autodiff",
            "Device::flex",
            "Device::default",
            "WgpuDevice",
            "numerics::backend",
        ] {
            assert!(
                !text.contains(constructor),
                "{} creates a device ({constructor}): devices come from platform",
                path.display()
            );
        }
    }
}
