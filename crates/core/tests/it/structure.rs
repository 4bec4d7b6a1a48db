//! The two rules of the house no crate boundary can hold (the manifests hold the others: only
//! `unroll-browser` depends on the web crates, the core on no UI, report or chart crate):
//! - a system is named only in its own folder of the core and in the registry (`registry.rs`):
//!   the rest reaches the physics through `PhysicalSystem`. Rust's privacy cannot say "this
//!   module, but only from these folders", so every crate's product code is read (comments and
//!   string literals aside);
//! - no two entries (files, subfolders) of any folder import each other, directly or around a
//!   cycle: rustc allows such tangles inside a crate.

use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().expect("the repository")
}

/// The entries of `dir`: its subfolders and Rust files.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let listed = std::fs::read_dir(dir).into_iter().flatten().flatten();
    let paths = listed.map(|e| e.path());
    paths
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// `(crate root, folder)` for every folder of `dir`'s tree, `dir` included.
fn folders_of(crate_root: &Path, dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let below = entries(dir).into_iter().filter(|p| p.is_dir());
    let nested = below.flat_map(|sub| folders_of(crate_root, &sub));
    std::iter::once((crate_root.to_path_buf(), dir.to_path_buf()))
        .chain(nested)
        .collect()
}

/// Every folder of every crate's `src/`, with its crate's `src/`.
fn folders() -> Vec<(PathBuf, PathBuf)> {
    let crates = entries(&root().join("crates"))
        .into_iter()
        .map(|c| c.join("src"));
    let roots: Vec<PathBuf> = std::iter::once(root().join("src")).chain(crates).collect();
    roots.iter().flat_map(|r| folders_of(r, r)).collect()
}

/// The product code of every crate, `(file, code)`: no test module or test file, no comment, no
/// string literal.
fn product_code() -> Vec<(PathBuf, String)> {
    let files = folders()
        .into_iter()
        .flat_map(|(_, folder)| entries(&folder));
    let files = files.filter(|p| p.is_file()).filter(|p| {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        stem != "tests" && stem != "fixture" && !stem.ends_with("_tests")
    });
    let read = |p: PathBuf| {
        let text = std::fs::read_to_string(&p).expect("readable");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let lines = code.lines().filter(|l| !l.trim_start().starts_with("//"));
        let code = lines.collect::<Vec<_>>().join("\n");
        // Every other piece between quotes is a literal's text (an escaped quote continues it).
        let (mut kept, mut parts) = (String::new(), code.split('"'));
        while let Some(outside) = parts.next() {
            kept.push_str(outside);
            while parts
                .next()
                .is_some_and(|s| s.ends_with('\\') && !s.ends_with("\\\\"))
            {}
        }
        (p, kept)
    };
    files.map(read).collect()
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
    // The systems: the registry's `System::X =>` arms; their folders: the modules it names.
    fn arm(rest: &str) -> Option<&str> {
        let name = identifiers(rest).next()?;
        let after = rest[name.len()..].trim_start();
        let arm = after.starts_with("=>") || after.starts_with('(');
        (arm && name.starts_with(char::is_uppercase)).then_some(name)
    }
    let variants: Vec<&str> = registry.split("System::").skip(1).filter_map(arm).collect();
    let named = registry
        .split("crate::")
        .skip(1)
        .filter_map(|r| identifiers(r).next());
    let folders: Vec<&str> = named
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
    let defined = |at_home: bool| -> Vec<&str> {
        let lines = code
            .iter()
            .filter(|(p, _)| home(p) == at_home)
            .flat_map(|(_, t)| t.lines());
        let words = lines.map(|l| identifiers(l).take(3).collect::<Vec<_>>());
        let kinds = ["struct", "enum", "trait", "type"];
        words
            .filter(|w| w.len() == 3 && w[0] == "pub" && kinds.contains(&w[1]))
            .map(|w| w[2])
            .collect()
    };
    let elsewhere = defined(false);
    let mut names = defined(true);
    names.retain(|n| variants.iter().any(|v| n.contains(v)) && !elsewhere.contains(n));
    names.extend(&variants);
    assert!(
        names.contains(&"KsError") && names.contains(&"CustomSystem"),
        "{names:?}"
    );
    // The enum's own definition names every system, the crate root declares their modules.
    let exempt = [core.join("types/system.rs"), core.join("lib.rs")];
    for (path, text) in code.iter().filter(|(p, _)| !home(p) && !exempt.contains(p)) {
        let module = folders
            .iter()
            .find(|f| text.contains(&format!("::{f}::")) || text.contains(&format!("mod {f};")));
        assert!(
            module.is_none(),
            "{} names the module {module:?}: reach it through PhysicalSystem",
            path.display()
        );
        let name = identifiers(text).find(|w| names.contains(w));
        assert!(
            name.is_none(),
            "{} names the system identifier {name:?} (reach it through the registry)",
            path.display()
        );
    }
}

/// The first segment of each path a `use` tail names: `a::X` → `a`; `{a::X, b}` → `a`, `b`.
fn first_segments(tail: &str) -> Vec<&str> {
    match tail
        .strip_prefix('{')
        .and_then(|group| group.split('}').next())
    {
        Some(group) => group
            .split(',')
            .filter_map(|p| identifiers(p).next())
            .collect(),
        None => identifiers(tail).take(1).collect(),
    }
}

/// The tangles among the entries of each folder: sets of entries that each reach every other
/// through their imports (`super::x` from a file, the folder's path from the crate root).
fn tangles() -> Vec<Vec<String>> {
    let (code, mut found) = (product_code(), Vec::new());
    for (crate_root, folder) in folders() {
        let module = folder
            .strip_prefix(&crate_root)
            .expect("inside")
            .to_string_lossy()
            .replace('/', "::");
        let prefix = if module.is_empty() {
            "crate::".into()
        } else {
            format!("crate::{module}::")
        };
        let names: Vec<String> = entries(&folder)
            .iter()
            .map(|p| p.file_stem().expect("named").to_string_lossy().into_owned())
            .collect();
        let names: Vec<String> = names
            .into_iter()
            .filter(|n| !["mod", "lib", "main", "bin"].contains(&n.as_str()))
            .collect();
        let imports = |entry: &str| -> Vec<usize> {
            let (dir, file) = (folder.join(entry), folder.join(format!("{entry}.rs")));
            let mine = code
                .iter()
                .filter(|(p, _)| p.starts_with(&dir) || *p == file);
            let text: String = mine
                .map(|(p, t)| {
                    if *p == file {
                        t.replace("super::", "@")
                    } else {
                        t.clone()
                    }
                })
                .collect();
            let text = text.replace(&prefix, "@");
            let named: Vec<&str> = text.split('@').skip(1).flat_map(first_segments).collect();
            (0..names.len())
                .filter(|&j| names[j] != entry && named.contains(&names[j].as_str()))
                .collect()
        };
        let graph: Vec<Vec<usize>> = names.iter().map(|n| imports(n)).collect();
        for i in 0..names.len() {
            let both = (0..names.len())
                .filter(|&j| j == i || (reaches(&graph, i, j) && reaches(&graph, j, i)));
            let mut tangle: Vec<String> = both
                .map(|j| format!("{}/{}", folder.display(), names[j]))
                .collect();
            tangle.sort();
            if tangle.len() > 1 && !found.contains(&tangle) {
                found.push(tangle);
            }
        }
    }
    found
}

/// Whether `to` is reachable from `from` along `graph`'s edges.
fn reaches(graph: &[Vec<usize>], from: usize, to: usize) -> bool {
    let (mut seen, mut todo) = (vec![false; graph.len()], vec![from]);
    while let Some(node) = todo.pop() {
        for &next in &graph[node] {
            if next == to {
                return true;
            }
            if !std::mem::replace(&mut seen[next], true) {
                todo.push(next);
            }
        }
    }
    false
}

#[test]
fn no_two_entries_of_a_folder_import_each_other() {
    let found = tangles();
    assert!(
        found.is_empty(),
        "entries that import each other (move the shared part below them): {found:#?}"
    );
}
