//! The dependency rule of ARCHITECTURE.md: `numerics` never imports UI or browser crates.

use std::path::Path;

const FORBIDDEN: [&str; 8] = [
    "crate::report",
    "crate::platform",
    "leptos",
    "web_sys",
    "js_sys",
    "wasm_bindgen",
    "plotters",
    "crate::ui",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn numerics_has_no_ui_or_browser_imports() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/numerics"),
        &mut files,
    );
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable file");
        for name in FORBIDDEN {
            assert!(
                !text.contains(&format!("{name}::")) && !text.contains(&format!("use {name}")),
                "{} mentions {name}",
                file.display()
            );
        }
    }
}
