//! The dependency rules of ARCHITECTURE.md, one per layer, checked on the source text:
//! - `web_sys`, `js_sys` and `wasm_bindgen` only under `platform/`;
//! - `numerics` imports no UI, report, experiment, chart or browser crate;
//! - `experiment`, `report` and `charts` import no UI or browser code;
//! - `ui` names no burn type and no `PhysicalSystem`: the page holds `SystemDescription`s, and
//!   trained networks run in workers (the built module is checked by the e2e test);
//! - no layer outside a system's own folder and the registry (`numerics/system/`) names a
//!   system's folder: `train/`, `study/`, `experiment/`, `report/`, `charts/` and `ui/` reach the
//!   physics through `PhysicalSystem` (non-test code); and no file outside them writes a
//!   system's identifiers (`System::Ks`, the types its folder names after it) in code
//!   (comments and string literals aside);
//! - the plain-data floor (`numerics/types/`) imports only the numerics' utilities;
//! - the `numerics` folders (and top-level files) import each other without cycles;
//! - `numerics/study/` is rooms (folders) of at most eight files, each with a module doc, that
//!   import each other without cycles, and the files of each room import each other without
//!   cycles (non-test code).

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
fn ui_names_no_burn_and_no_physical_system() {
    for (path, text) in files_under("ui") {
        let code = non_test_code(&path, &text);
        for name in [
            "burn::",
            "tensor::Device",
            "Device::flex",
            "Device::default",
            "WgpuDevice",
            "cpu_autodiff",
            "PhysicalSystem",
            ".physics()",
            "System::physics",
            "numerics::backend",
            "cpu_device",
        ] {
            assert!(
                !code.contains(name),
                "{} names {name}: the page holds descriptions; devices and trained networks \
                 live in workers",
                path.display()
            );
        }
    }
}

/// The code of `text` without its test module and its comments (a doc link is no import).
fn non_test_code(path: &Path, text: &str) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return String::new();
    }
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `numerics` modules (`crate::numerics::X`) that the non-test code of `text` names.
fn numerics_imports(path: &Path, text: &str) -> Vec<String> {
    let code = non_test_code(path, text);
    let mut out = Vec::new();
    for (index, _) in code.match_indices("crate::numerics::") {
        let rest = &code[index + "crate::numerics::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The systems' folders: the `numerics` modules the registry (`numerics/system/mod.rs`) names.
fn system_folders() -> Vec<String> {
    let registry = src().join("numerics/system/mod.rs");
    let text = std::fs::read_to_string(&registry).expect("the registry");
    numerics_imports(&registry, &text)
        .into_iter()
        .filter(|name| !["study", "types"].contains(&name.as_str()))
        .collect()
}

#[test]
fn only_a_systems_folder_and_the_registry_name_a_system() {
    let folders = system_folders();
    assert!(folders.len() >= 3, "the registry names {folders:?}");
    for dir in [
        "numerics/train",
        "numerics/study",
        "experiment",
        "report",
        "charts",
        "ui",
    ] {
        for (path, text) in files_under(dir) {
            let code = non_test_code(&path, &text);
            for folder in &folders {
                assert!(
                    !code.contains(&format!("numerics::{folder}::"))
                        && !code.contains(&format!("numerics::{folder};")),
                    "{} names numerics::{folder} (reach it through PhysicalSystem)",
                    path.display()
                );
            }
        }
    }
}

/// The files compiled only for tests although not named so: a module declared right after
/// `#[cfg(test)]` in its parent (`charts/fixture.rs`).
fn test_only_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (path, text) in files_under("") {
        let folder = match path.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs" | "main.rs") => path.parent().map(Path::to_path_buf),
            _ => Some(path.with_extension("")),
        };
        let Some(folder) = folder else { continue };
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            if pair[0] != "#[cfg(test)]" {
                continue;
            }
            let declared = pair[1]
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ")
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(name) = declared {
                out.push(folder.join(format!("{name}.rs")));
            }
        }
    }
    out
}

/// `code` without its string literals (user-facing prose may name a system).
fn without_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        if c == '"' && previous != '\'' {
            let mut escaped = false;
            for inner in chars.by_ref() {
                if inner == '"' && !escaped {
                    break;
                }
                escaped = inner == '\\' && !escaped;
            }
            out.push_str("\"\"");
        } else {
            out.push(c);
        }
        previous = c;
    }
    out
}

/// The identifiers of `code`, in order.
fn identifiers(code: &str) -> Vec<&str> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .collect()
}

/// The names that say which system: the variants of `System` (the registry's arms) and the
/// types the systems' folders define whose name holds one (`KsError`, `BurgersConfig`), unless
/// another file defines the same name.
fn system_identifiers() -> Vec<String> {
    let registry = std::fs::read_to_string(src().join("numerics/system/mod.rs")).expect("registry");
    let mut names: Vec<String> = Vec::new();
    for (index, _) in registry.match_indices("System::") {
        let name: String = registry[index + "System::".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let rest = &registry[index + "System::".len() + name.len()..];
        // A unit arm (`System::Ks =>`) or a tuple arm (`System::Custom(id) =>`).
        let line = rest.lines().next().unwrap_or("");
        let tuple =
            name.starts_with(char::is_uppercase) && line.starts_with('(') && line.contains(") =>");
        let arm = rest.starts_with(" =>") || tuple;
        if arm && !names.contains(&name) {
            names.push(name);
        }
    }
    let variants = names.clone();
    let defined = |text: &str| -> Vec<String> {
        let mut out = Vec::new();
        for line in text.lines() {
            for keyword in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                if let Some(rest) = line.trim_start().strip_prefix(keyword) {
                    out.push(identifiers(rest).first().map_or("", |n| n).to_string());
                }
            }
        }
        out
    };
    let folders = system_folders();
    let mut elsewhere = Vec::new();
    for (path, text) in files_under("") {
        let inside = folders
            .iter()
            .any(|folder| path.starts_with(src().join("numerics").join(folder)));
        if inside {
            names.extend(defined(&text));
        } else {
            elsewhere.extend(defined(&text));
        }
    }
    names.sort();
    names.dedup();
    names.retain(|name| {
        variants
            .iter()
            .any(|variant| name.contains(variant.as_str()))
            && !elsewhere.contains(name)
    });
    names
}

/// The one file outside the systems' folders and the registry that names a system: the enum's
/// own definition.
const NAMING_A_SYSTEM: [&str; 1] = ["numerics/types/system.rs"];

#[test]
fn only_a_systems_folder_and_the_registry_name_a_system_in_identifiers() {
    let names = system_identifiers();
    assert!(
        [
            "Ks",
            "Kolmogorov",
            "Burgers",
            "Custom",
            "KsError",
            "CustomSystem"
        ]
        .iter()
        .all(|name| names.iter().any(|n| n == name)),
        "the systems' names: {names:?}"
    );
    let mut exempt: Vec<PathBuf> = NAMING_A_SYSTEM
        .iter()
        .map(|file| src().join(file))
        .collect();
    exempt.extend(test_only_files());
    let mut homes: Vec<PathBuf> = system_folders()
        .iter()
        .map(|folder| src().join("numerics").join(folder))
        .collect();
    homes.push(src().join("numerics/system"));
    for (path, text) in files_under("") {
        if exempt.contains(&path) || homes.iter().any(|home| path.starts_with(home)) {
            continue;
        }
        let code = without_strings(&non_test_code(&path, &text));
        if let Some(name) = identifiers(&code)
            .into_iter()
            .find(|word| names.iter().any(|name| name == word))
        {
            panic!(
                "{} names the system identifier {name} (reach the system through its \
                 description or physics, found by the registry)",
                path.display()
            );
        }
    }
}

/// Each direct child of `numerics/` (a folder or a file) with the others it imports.
fn numerics_graph() -> Vec<(String, Vec<String>)> {
    let root = src().join("numerics");
    let mut nodes = Vec::new();
    for entry in std::fs::read_dir(&root).expect("numerics dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if name == "mod" {
            continue;
        }
        let mut files = Vec::new();
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            files.push(path.clone());
        }
        let mut imports: Vec<String> = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for import in numerics_imports(&file, &text) {
                if import != name && !imports.contains(&import) {
                    imports.push(import);
                }
            }
        }
        nodes.push((name, imports));
    }
    nodes
}

/// Panics with the first import cycle of `graph` (`what`: whose imports), found depth-first.
fn assert_acyclic(graph: &[(String, Vec<String>)], what: &str) {
    let index = |name: &str| graph.iter().position(|(n, _)| n == name);
    // Depth-first search; 1 = on the stack, 2 = done.
    fn visit(
        node: usize,
        graph: &[(String, Vec<String>)],
        index: &dyn Fn(&str) -> Option<usize>,
        state: &mut Vec<u8>,
        stack: &mut Vec<usize>,
        what: &str,
    ) {
        state[node] = 1;
        stack.push(node);
        for import in &graph[node].1 {
            let Some(next) = index(import) else { continue };
            if state[next] == 1 {
                let start = stack.iter().position(|&n| n == next).unwrap_or(0);
                let cycle: Vec<&str> = stack[start..]
                    .iter()
                    .chain([&next])
                    .map(|&n| graph[n].0.as_str())
                    .collect();
                panic!("{what} import cycle: {}", cycle.join(" → "));
            }
            if state[next] == 0 {
                visit(next, graph, index, state, stack, what);
            }
        }
        stack.pop();
        state[node] = 2;
    }
    let mut state = vec![0u8; graph.len()];
    for node in 0..graph.len() {
        if state[node] == 0 {
            visit(node, graph, &index, &mut state, &mut Vec::new(), what);
        }
    }
}

#[test]
fn numerics_folders_import_each_other_without_cycles() {
    assert_acyclic(&numerics_graph(), "numerics");
}

#[test]
#[should_panic(expected = "test import cycle: b → c → b")]
fn a_cycle_is_found() {
    let graph = |edges: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        edges
            .iter()
            .map(|(node, to)| (node.to_string(), to.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    assert_acyclic(&graph(&[("a", &["b"]), ("b", &["c"]), ("c", &[])]), "test");
    assert_acyclic(
        &graph(&[("a", &["b"]), ("b", &["c"]), ("c", &["b"])]),
        "test",
    );
}

/// Most Rust files in a room of `numerics/study/` (its `mod.rs` and test files included).
const MAX_ROOM_FILES: usize = 8;

/// The names `code` reaches through `prefix` (`super::`, `crate::numerics::study::`): the first
/// path segment after it, every entry of a `prefix{a::X, b}` group included. A `prefix` that
/// follows a path (`super::super::`) is not counted here.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out: Vec<String> = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c == ':' || c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let names = if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut end) = (1, group.len());
            for (i, c) in group.char_indices() {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
            let group = &group[..end];
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            parts.push(ident(&group[start..]));
            parts
        } else {
            vec![ident(rest)]
        };
        for name in names {
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn names_after_reads_paths_and_groups() {
    let code = "use super::a::X;\nuse super::{b::{Y, Z}, c};\nlet v = super::super::d::W;\n";
    assert_eq!(names_after(code, "super::"), ["a", "b", "c", "super"]);
}

/// The rooms of `numerics/study/` (its folders), each with its Rust files.
fn study_rooms() -> Vec<(String, Vec<PathBuf>)> {
    let root = src().join("numerics/study");
    let mut rooms = Vec::new();
    for entry in std::fs::read_dir(&root).expect("study dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            rooms.push((name.to_string(), files));
        } else {
            assert_eq!(
                name,
                "mod.rs",
                "{} lies loose in study/: every file of the study is in a room",
                path.display()
            );
        }
    }
    rooms.sort();
    rooms
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string()
}

/// `study/` is rooms (folders) of at most [`MAX_ROOM_FILES`] files, each with a module doc; the
/// rooms import each other without a cycle (named as `crate::numerics::study::<room>`, never
/// through `super::super`), and so do the files of each room (named as `super::<file>`).
#[test]
fn study_rooms_and_their_files_import_without_cycles() {
    let rooms = study_rooms();
    assert!(rooms.len() >= 4, "study/ has rooms {rooms:?}");
    let names: Vec<String> = rooms.iter().map(|(room, _)| room.clone()).collect();
    let mut room_graph = Vec::new();
    for (room, files) in &rooms {
        assert!(
            files.len() <= MAX_ROOM_FILES,
            "study/{room} holds {} files (at most {MAX_ROOM_FILES})",
            files.len()
        );
        let doc = files
            .iter()
            .find(|f| stem(f) == "mod")
            .map(|f| std::fs::read_to_string(f).expect("readable"))
            .unwrap_or_default();
        assert!(
            doc.starts_with("//!"),
            "study/{room}/mod.rs opens with no module doc"
        );
        let stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
        let own = format!("crate::numerics::study::{room}::");
        let mut imports: Vec<String> = Vec::new();
        let mut file_graph = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(file).expect("readable");
            let code = non_test_code(file, &text);
            assert!(
                !code.contains("super::super"),
                "{} reaches out through super::super (name another room as \
                 crate::numerics::study::<room>)",
                file.display()
            );
            for other in names_after(&code, "crate::numerics::study::") {
                if names.contains(&other) && &other != room && !imports.contains(&other) {
                    imports.push(other);
                }
            }
            let mut siblings = names_after(&code, "super::");
            siblings.extend(names_after(&code, &own));
            siblings.retain(|name| stems.contains(name) && *name != stem(file));
            file_graph.push((stem(file), siblings));
        }
        assert_acyclic(&file_graph, &format!("study/{room}"));
        room_graph.push((room.clone(), imports));
    }
    assert_acyclic(&room_graph, "study rooms");
}

#[test]
fn the_plain_data_floor_imports_only_utilities() {
    let graph = numerics_graph();
    let (_, imports) = graph
        .iter()
        .find(|(name, _)| name == "types")
        .expect("numerics/types");
    for import in imports {
        assert!(
            ["names", "metrics"].contains(&import.as_str()),
            "numerics/types imports numerics::{import} (the floor imports only names and metrics)"
        );
    }
}
