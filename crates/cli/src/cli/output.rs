//! Outputs checked before any work, and kept when a write still fails: `study`, `run-cell`,
//! `merge` and `train` refuse an output they cannot write (exit 2, one line) before they compute
//! anything ([`writable_file`], [`writable_dir`]), and a write that fails afterwards keeps the
//! text in the first of a few fallback folders that takes it and says where ([`write_kept`]),
//! so nothing computed is lost to a path.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use unroll_report::judged_export::results_json;

use super::CliError;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::config::Preset;
use unroll_report::results_text::ResultsText;

/// Checks that file `path` (given as `--flag`) can be written: it is no folder, its folder
/// exists and takes a new file (a probe, created and removed), and an existing `path` opens for
/// appending (nothing is truncated).
pub fn writable_file(path: &Path, flag: &str) -> Result<(), CliError> {
    let refuse = |why: String| {
        CliError::Usage(format!(
            "cannot write --{flag} {}: {why} (nothing was run)",
            path.display()
        ))
    };
    if path.is_dir() {
        return Err(refuse("it is a folder".into()));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(refuse(format!(
            "its folder {} does not exist",
            folder.display()
        )));
    }
    probe(&folder).map_err(|err| refuse(err.to_string()))?;
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|err| refuse(err.to_string()))?;
    }
    Ok(())
}

/// Checks that folder `dir` (given as `--flag`) can be written: created where missing, and it
/// takes a new file (a probe, created and removed).
pub fn writable_dir(dir: &Path, flag: &str) -> Result<(), CliError> {
    let refuse = |err: std::io::Error| {
        CliError::Usage(format!(
            "cannot write into --{flag} {}: {err} (nothing was run)",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(refuse)?;
    probe(dir).map_err(refuse)
}

/// The folder a file `path` is written into (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates and removes a new file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".unroll-lab-probe-{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    let written = file.write_all(b"probe");
    drop(file);
    let removed = std::fs::remove_file(&probe);
    written.and(removed)
}

/// Writes `text` to `path`; when that fails, keeps it as [`save_kept`] does.
pub fn write_kept(path: &Path, text: &str, keep: &[&Path]) -> Result<(), CliError> {
    save_kept(path, keep, |to| {
        std::fs::write(to, text).map_err(|err| err.to_string())
    })
}

/// Saves an output with `save` to `path`. When that fails, it is saved as
/// `unroll-lab-kept-<pid>-<name>` in the first folder of `keep`, then the working folder, then
/// the temporary folder, that takes it, and the error names both the failure and where it is.
pub fn save_kept(
    path: &Path,
    keep: &[&Path],
    save: impl Fn(&Path) -> Result<(), String>,
) -> Result<(), CliError> {
    let Err(err) = save(path) else {
        return Ok(());
    };
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let kept_name = format!("unroll-lab-kept-{}-{name}", std::process::id());
    let folders = keep
        .iter()
        .map(|p| p.to_path_buf())
        .chain([PathBuf::from("."), std::env::temp_dir()]);
    for folder in folders {
        let kept = folder.join(&kept_name);
        if save(&kept).is_ok() {
            return Err(CliError::Output(format!(
                "{}: {err}; kept in {}",
                path.display(),
                kept.display()
            )));
        }
    }
    Err(CliError::Output(format!(
        "{}: {err}; no fallback folder took it either",
        path.display()
    )))
}

/// Prints `figures` on standard output: pretty JSON with `json`, else as `table` writes them.
pub fn print_figures<T: Serialize + ?Sized>(
    figures: &T,
    json: bool,
    table: impl FnOnce(&T),
) -> Result<(), CliError> {
    if json {
        let text = serde_json::to_string_pretty(figures)
            .map_err(|err| CliError::Output(err.to_string()))?;
        println!("{text}");
    } else {
        table(figures);
    }
    Ok(())
}

/// Writes the results JSON (and its CSV view) and prints the table (and, for a sizes grid, the
/// slopes). A file that cannot be written is kept in the first folder of `keep` (then the
/// working or the temporary folder) that takes it, and the error says where
/// ([`write_kept`]).
pub fn write_results(
    results: &StudyResults,
    out: &Path,
    csv: Option<&Path>,
    keep: &[&Path],
) -> Result<(), CliError> {
    let json = results_json(results).map_err(|e| CliError::Output(e.to_string()))?;
    let written = write_kept(out, &json, keep);
    let csv_written = csv.map_or(Ok(()), |csv| write_kept(csv, &results.to_csv(), keep));
    println!("{}", results.table());
    if results.preset == Preset::Sizes {
        super::slopes::print_slopes(results);
    }
    written.and(csv_written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("unroll-lab-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn unwritable_outputs_are_refused_and_writable_ones_left_as_they_were() {
        let dir = scratch("check");
        let missing = dir.join("no/such/folder/results.json");
        let err = writable_file(&missing, "out").expect_err("no folder");
        assert!(err.to_string().contains("does not exist"), "{err}");
        let err = writable_file(&dir, "out").expect_err("a folder");
        assert!(err.to_string().contains("is a folder"), "{err}");
        let existing = dir.join("results.json");
        std::fs::write(&existing, "kept").expect("write");
        writable_file(&existing, "out").expect("writable");
        writable_file(&dir.join("new.json"), "out").expect("writable");
        assert_eq!(std::fs::read_to_string(&existing).expect("read"), "kept");
        assert!(!dir.join("new.json").exists(), "the check writes nothing");
        writable_dir(&dir.join("cells"), "out").expect("created");
        assert!(dir.join("cells").is_dir());
        let entries = std::fs::read_dir(&dir).expect("dir").count();
        assert_eq!(entries, 2, "no probe left behind");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_is_kept_in_a_fallback_folder_and_says_where() {
        let dir = scratch("keep");
        write_kept(&dir.join("a.json"), "one", &[&dir]).expect("written");
        assert_eq!(
            std::fs::read_to_string(dir.join("a.json")).expect("read"),
            "one"
        );
        let lost = dir.join("gone/a.json");
        let err = write_kept(&lost, "two", &[&dir]).expect_err("no folder");
        let kept = dir.join(format!("unroll-lab-kept-{}-a.json", std::process::id()));
        assert!(
            err.to_string()
                .contains(&format!("kept in {}", kept.display())),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&kept).expect("kept"), "two");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
