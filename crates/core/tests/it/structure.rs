//! The two rules of the house no crate boundary can hold (the others are the crates' manifests:
//! only `unroll-browser` depends on the web crates, the core on no UI, report or chart crate):
//! - a system is named only in its own folder of the core and in the registry (`registry.rs`): the
//!   rest reaches the physics through `PhysicalSystem`, found by the registry. Every crate's
//!   non-test code is read, comments and string literals aside (Rust's privacy cannot say "this
//!   module, but only from these folders");
//! - the files and folders inside any one folder import each other without a cycle (rustc allows
//!   cycles inside a crate).

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().expect("the repository")
}

/// Every Rust file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The product code of every crate: `(file, code)` without test modules, test files, comments
/// and string literals.
fn product_code() -> Vec<(PathBuf, String)> {
    let mut dirs = vec![root().join("src")];
    for entry in std::fs::read_dir(root().join("crates"))
        .expect("crates")
        .flatten()
    {
        dirs.push(entry.path().join("src"));
    }
    let files = dirs.iter().flat_map(|dir| rust_files(dir));
    let tests = |p: &Path| {
        p.file_stem().is_some_and(|s| {
            s == "tests" || s.to_string_lossy().ends_with("_tests") || s == "fixture"
        })
    };
    files
        .filter(|p| !tests(p))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: Vec<&str> = code
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            let code = code.join("\n");
            let mut parts = code.split('"');
            let mut kept = String::new();
            while let Some(outside) = parts.next() {
                kept.push_str(outside);
                // A literal's text, escaped quotes included, is dropped.
                while parts
                    .next()
                    .is_some_and(|inside| inside.ends_with('\\') && !inside.ends_with("\\\\"))
                {
                }
            }
            (p, kept)
        })
        .collect()
}

/// The identifiers of `code`.
fn identifiers(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

#[test]
fn only_a_systems_folder_and_the_registry_name_a_system() {
    let core = root().join("crates/core/src");
    let registry = std::fs::read_to_string(core.join("registry.rs")).expect("registry");
    // The systems: the registry's `System::X =>` arms; their folders: the core modules it imports.
    let variants: Vec<&str> = registry
        .split("System::")
        .skip(1)
        .filter_map(|rest| {
            let name = identifiers(rest)
                .next()
                .filter(|n| n.starts_with(char::is_uppercase))?;
            let after = rest[name.len()..].trim_start();
            (after.starts_with("=>") || after.starts_with('(')).then_some(name)
        })
        .collect();
    let folders: Vec<&str> = registry
        .split("crate::")
        .skip(1)
        .filter_map(|r| identifiers(r).next())
        .filter(|m| core.join(m).is_dir() && !["study", "types", "system"].contains(m))
        .collect();
    assert!(
        variants.len() >= 4 && folders.len() >= 4,
        "{variants:?} {folders:?}"
    );
    let code = product_code();
    let home = |p: &Path| {
        *p == core.join("registry.rs") || folders.iter().any(|f| p.starts_with(core.join(f)))
    };
    // A system's own names: the types its folder alone defines that hold a variant (`KsError`).
    let defined = |home_side: bool| -> Vec<&str> {
        let texts = code.iter().filter(|(p, _)| home(p) == home_side);
        let lines = texts.flat_map(|(_, text)| text.lines());
        let words = lines.map(|line| identifiers(line).collect::<Vec<_>>());
        let kind = |w: &[&str], i: usize| {
            w.get(i)
                .is_some_and(|k| ["struct", "enum", "trait", "type"].contains(k))
        };
        words
            .filter_map(|w| {
                (w.first() == Some(&"pub") && kind(&w, 1))
                    .then(|| w.get(2).copied())
                    .flatten()
            })
            .collect()
    };
    let elsewhere = defined(false);
    let mut names: Vec<&str> = defined(true)
        .into_iter()
        .filter(|n| variants.iter().any(|v| n.contains(v)) && !elsewhere.contains(n))
        .collect();
    names.extend(&variants);
    assert!(
        names.contains(&"KsError") && names.contains(&"CustomSystem"),
        "{names:?}"
    );
    // The enum's own definition names every system, the crate root declares their modules.
    let exempt = [core.join("types/system.rs"), core.join("lib.rs")];
    for (path, text) in code.iter().filter(|(p, _)| !home(p) && !exempt.contains(p)) {
        for folder in &folders {
            let named =
                text.contains(&format!("::{folder}::")) || text.contains(&format!("mod {folder};"));
            assert!(
                !named,
                "{} names the module {folder}: reach it through PhysicalSystem",
                path.display()
            );
        }
        if let Some(name) = identifiers(text).find(|w| names.contains(w)) {
            panic!(
                "{} names the system identifier {name} (reach the system through the registry)",
                path.display()
            );
        }
    }
}

/// The first segment of each path a `use` tail names: `a::X` → `a`; `{a::X, b}` → `a`, `b`.
fn first_segments(tail: &str) -> Vec<&str> {
    let Some(group) = tail.strip_prefix('{') else {
        return identifiers(tail).take(1).collect();
    };
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                return out
                    .into_iter()
                    .chain(identifiers(&group[start..i]).take(1))
                    .collect()
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.extend(identifiers(&group[start..i]).take(1));
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// The import tangles among the entries (files and subfolders) of each folder: an entry imports
/// a sibling it names as `super::x` (a file) or through the folder's path from the crate root.
fn tangles() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut crate_roots = vec![root().join("src")];
    crate_roots.extend(
        std::fs::read_dir(root().join("crates"))
            .expect("crates")
            .flatten()
            .map(|e| e.path().join("src")),
    );
    let code = product_code();
    for crate_root in crate_roots {
        let mut folders = vec![crate_root.clone()];
        let mut i = 0;
        while i < folders.len() {
            let children = std::fs::read_dir(&folders[i])
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path());
            let subfolders: Vec<PathBuf> = children.filter(|p| p.is_dir()).collect();
            folders.extend(subfolders);
            i += 1;
        }
        for folder in folders {
            let module = folder
                .strip_prefix(&crate_root)
                .expect("inside")
                .to_string_lossy()
                .replace('/', "::");
            let prefix = if module.is_empty() {
                "crate::".to_string()
            } else {
                format!("crate::{module}::")
            };
            let entries: Vec<String> = std::fs::read_dir(&folder)
                .expect("folder")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
                .map(|p| p.file_stem().expect("named").to_string_lossy().into_owned())
                .filter(|n| !["mod", "lib", "main", "bin"].contains(&n.as_str()))
                .collect();
            let imports = |entry: &str| -> Vec<usize> {
                let mine = code.iter().filter(|(p, _)| {
                    p.starts_with(folder.join(entry)) || *p == folder.join(format!("{entry}.rs"))
                });
                let text: String = mine
                    .map(|(p, t)| {
                        if p.starts_with(folder.join(entry)) {
                            t.replace(&prefix, "@")
                        } else {
                            t.replace("super::", "@").replace(&prefix, "@")
                        }
                    })
                    .collect();
                let named: Vec<&str> = text.split('@').skip(1).flat_map(first_segments).collect();
                (0..entries.len())
                    .filter(|&j| entries[j] != entry && named.contains(&entries[j].as_str()))
                    .collect()
            };
            let graph: Vec<Vec<usize>> = entries.iter().map(|e| imports(e)).collect();
            // Tangles: the strongly connected sets of entries (each reaches every other).
            let mut reach = graph.clone();
            for _ in 0..entries.len() {
                for row in &mut reach {
                    let further: Vec<usize> = row.iter().flat_map(|&j| graph[j].clone()).collect();
                    row.extend(further);
                    row.sort_unstable();
                    row.dedup();
                }
            }
            let folder_name = folder
                .strip_prefix(root())
                .unwrap_or(&folder)
                .display()
                .to_string();
            for i in 0..entries.len() {
                let tangle: Vec<usize> = (0..entries.len())
                    .filter(|&j| reach[i].contains(&j) && reach[j].contains(&i))
                    .collect();
                let mut names: Vec<String> = tangle
                    .iter()
                    .map(|&j| format!("{folder_name}/{}", entries[j]))
                    .collect();
                names.sort();
                if tangle.len() > 1 && !found.contains(&names) {
                    found.push(names);
                }
            }
        }
    }
    found
}

#[test]
fn the_entries_of_every_folder_import_each_other_without_cycles() {
    let found = tangles();
    assert!(
        found.is_empty(),
        "entries that import each other (move the shared part below them): {found:#?}"
    );
}
