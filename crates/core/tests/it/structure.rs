//! The two rules of the house no crate boundary can hold (the manifests hold the others: only
//! `unroll-browser` depends on the web crates, the core on no UI, report or chart crate):
//! - a system is named only in its own folder of the core and in the registry (`registry.rs`):
//!   the rest reaches the physics through `PhysicalSystem`. Rust's privacy cannot say "this
//!   module, but only from these folders";
//! - no two entries (files, subfolders) of any folder import each other, directly or around a
//!   cycle: rustc allows such tangles inside a crate.
//!
//! Both read the paths of every crate's product code as `syn` parses them (test modules aside;
//! paths inside macro calls are not seen).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use syn::{visit::Visit, UseTree};

/// The repository's root.
fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().expect("the repository")
}

/// Every product file of every crate (test files aside), with its crate's `src/`.
fn product_files() -> Vec<(PathBuf, PathBuf)> {
    let walk = |d: &str| walkdir::WalkDir::new(root().join(d)).into_iter().flatten();
    let files = walk("src").chain(walk("crates")).map(|f| f.into_path());
    let test = |f: &str| f == "tests.rs" || f == "fixture.rs" || f.ends_with("_tests.rs");
    let rust = files.filter(|f| f.extension().is_some_and(|e| e == "rs"));
    let product = rust.filter(|f| !test(&f.file_name().expect("named").to_string_lossy()));
    let src = |f: &PathBuf| Some(f.ancestors().find(|a| a.ends_with("src"))?.to_path_buf());
    product.filter_map(|f| Some((src(&f)?, f))).collect()
}

/// The paths a file names, as segments: `use a::{b, c::D}` gives `a::b` and `a::c::D`.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl Paths {
    fn flatten(&mut self, tree: &UseTree, mut prefix: Vec<String>) {
        match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.flatten(&p.tree, prefix);
            }
            UseTree::Name(n) => self.0.push([prefix, vec![n.ident.to_string()]].concat()),
            UseTree::Rename(r) => self.0.push([prefix, vec![r.ident.to_string()]].concat()),
            UseTree::Glob(_) => self.0.push(prefix),
            UseTree::Group(g) => g.items.iter().for_each(|t| self.flatten(t, prefix.clone())),
        }
    }
}

impl<'a> Visit<'a> for Paths {
    fn visit_item(&mut self, item: &'a syn::Item) {
        use syn::Item::{Const, Fn, Impl, Mod, Use};
        let attrs = match item {
            Fn(i) => &i.attrs,
            Mod(i) => &i.attrs,
            Impl(i) => &i.attrs,
            Use(i) => &i.attrs,
            Const(i) => &i.attrs,
            _ => &Vec::new(),
        };
        let test = |a: &syn::Attribute| {
            a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
        };
        if !attrs.iter().any(test) {
            syn::visit::visit_item(self, item);
        }
    }
    fn visit_path(&mut self, path: &'a syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string());
        self.0.push(segments.collect());
        syn::visit::visit_path(self, path);
    }
    fn visit_item_use(&mut self, item: &'a syn::ItemUse) {
        self.flatten(&item.tree, Vec::new());
    }
}

/// Every product file with its crate's `src/` and the paths it names.
fn product_paths() -> Vec<(PathBuf, PathBuf, Vec<Vec<String>>)> {
    let read = |(src, file): (PathBuf, PathBuf)| {
        let text = std::fs::read_to_string(&file).expect("readable");
        let mut paths = Paths::default();
        paths.visit_file(&syn::parse_file(&text).unwrap_or_else(|e| panic!("{file:?}: {e}")));
        (src, file, paths.0)
    };
    product_files().into_iter().map(read).collect()
}

#[test]
fn only_a_systems_folder_and_the_registry_name_a_system() {
    let (code, core) = (product_paths(), root().join("crates/core/src"));
    let registry = code.iter().find(|(_, f, _)| *f == core.join("registry.rs"));
    let (_, _, registry) = registry.expect("the registry");
    // The systems: the registry's `System::Ks` arms; their folders: its `crate::ks::system::Ks`.
    let of = |at: usize, len: usize, first: &str| -> BTreeSet<&str> {
        let arms = registry.iter().filter(|p| p.len() == len && p[0] == first);
        arms.map(|p| p[at].as_str()).collect()
    };
    let (variants, folders) = (of(1, 2, "System"), of(1, 4, "crate"));
    assert!(
        variants.len() >= 4 && folders.len() == variants.len(),
        "{folders:?}"
    );
    let home = |p: &Path| folders.iter().any(|f| p.starts_with(core.join(f)));
    // The enum's own definition names every system, the crate root declares their modules.
    let exempt = ["types/system.rs", "lib.rs", "registry.rs"].map(|f| core.join(f));
    let others = code
        .iter()
        .filter(|(_, p, _)| !home(p) && !exempt.contains(p));
    for (_, file, paths) in others {
        // A system's item is reached only through its module (`ks::X`, `crate::ks`,
        // `unroll_core::ks`) or its variant (`System::Ks`); a one-segment path is a variable.
        let roots = ["crate", "super", "self", "unroll_core"];
        let module = |p: &[String], i: usize| i == 0 || roots.contains(&p[i - 1].as_str());
        let mut named = paths.iter().filter(|p| p.len() > 1).flat_map(|p| {
            let system = |&i: &usize| {
                (folders.contains(p[i].as_str()) && module(p, i))
                    || variants.contains(p[i].as_str())
            };
            (0..p.len()).filter(system).map(|i| &p[i])
        });
        let named = named.next();
        assert!(
            named.is_none(),
            "{file:?} names the system {named:?}: use the registry"
        );
    }
}

/// A file's module: its crate's `src/`, then its folders and name (`a/mod.rs` is `a`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let inside = file.strip_prefix(src).expect("inside").with_extension("");
    let mut module = vec![src.display().to_string()];
    module.extend(inside.iter().map(|s| s.to_string_lossy().into_owned()));
    if ["mod", "lib", "main"].contains(&&*module[module.len() - 1]) {
        module.pop();
    }
    module
}

/// The imports between the entries of each folder: `(importer, imported)`, the importing file's
/// module and the module or item its `crate::`, `super::` or `self::` path names, both cut just
/// below their closest common folder (`a/b/c.rs` naming `crate::a::d::X` is `a::b` → `a::d`).
fn imports() -> BTreeSet<(Vec<String>, Vec<String>)> {
    let mut found = BTreeSet::new();
    for (src, file, paths) in product_paths() {
        let me = module_of(&src, &file);
        for path in paths {
            let mut to = match path[0].as_str() {
                "crate" => vec![me[0].clone()],
                "super" | "self" => me.clone(),
                _ => continue,
            };
            for segment in path.into_iter().filter(|s| s != "crate" && s != "self") {
                if segment == "super" {
                    to.pop();
                } else {
                    to.push(segment);
                }
            }
            let common = me.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common < me.len().min(to.len()) {
                found.insert((me[..=common].to_vec(), to[..=common].to_vec()));
            }
        }
    }
    found
}

#[test]
fn no_two_entries_of_a_folder_import_each_other() {
    let edges = imports();
    let reaches = |from: &Vec<String>, to: &Vec<String>| {
        let (mut seen, mut todo) = (BTreeSet::from([from]), vec![from]);
        while let Some(node) = todo.pop() {
            let after = edges.range((node.clone(), vec![])..);
            let next = after.take_while(|(u, _)| u == node);
            todo.extend(next.map(|(_, v)| v).filter(|v| seen.insert(*v)));
        }
        seen.contains(to)
    };
    let tangled = edges.iter().filter(|(u, v)| reaches(v, u));
    let tangled: Vec<_> = tangled
        .map(|(u, v)| format!("{} → {}", u.join("/"), v.join("/")))
        .collect();
    assert!(
        tangled.is_empty(),
        "move what both use below them: {tangled:#?}"
    );
}
