//! `unroll-lab docs-tables`: the committed runs' tables written into the README and the book
//! (`--write`), or checked to be what they say (the default: exit code 2 when one differs;
//! `crates/report/tests/it/committed_results.rs` checks the same), and every committed claim's verdict printed beside the one it expects.

use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use unroll_core::study::data::results::StudyResults;
use unroll_report::claim::judge_claim;
use unroll_report::committed::CommittedIndex;
use unroll_report::doc_tables::{documents, fill_blocks, LoadedRun};

#[derive(Debug, Args)]
pub struct DocsTablesArgs {
    /// The repository's root (its README.md, docs/src/ and results/).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Rewrite the blocks that differ (else only report them).
    #[arg(long)]
    write: bool,
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|err| CliError::File {
        path: path.display().to_string(),
        message: err.to_string(),
    })
}

/// Every committed run's results, in the index's order.
fn load(results_dir: &Path, index: &CommittedIndex) -> Result<Vec<StudyResults>, CliError> {
    index
        .runs
        .iter()
        .map(|run| {
            let path = results_dir.join(&run.results);
            StudyResults::from_json(&read(&path)?)
                .map_err(|err| CliError::Usage(format!("{}: {err}", path.display())))
        })
        .collect()
}

/// Prints every committed claim's verdict beside the one it expects.
fn print_verdicts(runs: &[LoadedRun<'_>]) -> Result<(), CliError> {
    for loaded in runs {
        for claim in &loaded.run.claims {
            let judged = judge_claim(loaded.results, claim).map_err(CliError::Usage)?;
            let mark = if judged.verdict == claim.expect {
                "ok"
            } else {
                "DIFFERS"
            };
            println!(
                "{mark} {}: {} — expects {}, gives {} ({})",
                loaded.run.id,
                claim.words(),
                claim.expect.words(),
                judged.verdict.words(),
                judged.evidence().unwrap_or_default()
            );
        }
    }
    Ok(())
}

/// Fills the blocks of every document; writes the ones that differ where `write`. The number of
/// documents that differed.
fn fill_documents(root: &Path, runs: &[LoadedRun<'_>], write: bool) -> Result<usize, CliError> {
    let paths = documents(root).map_err(|err| CliError::File {
        path: root.join("docs/src").display().to_string(),
        message: err.to_string(),
    })?;
    let mut stale = 0;
    for path in paths {
        let text = read(&path)?;
        let (filled, names) = fill_blocks(&text, runs)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
        if filled == text {
            continue;
        }
        stale += 1;
        if write {
            std::fs::write(&path, filled)
                .map_err(|e| CliError::Output(format!("{}: {e}", path.display())))?;
            println!("wrote {} ({})", path.display(), names.join(", "));
        } else {
            println!("stale: {} ({})", path.display(), names.join(", "));
        }
    }
    Ok(stale)
}

pub fn docs_tables(args: &DocsTablesArgs) -> Result<(), CliError> {
    let results_dir = args.root.join("results");
    let index = CommittedIndex::from_json(&read(&results_dir.join("index.json"))?)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    let files = load(&results_dir, &index)?;
    let runs: Vec<LoadedRun<'_>> = index
        .runs
        .iter()
        .zip(&files)
        .map(|(run, results)| LoadedRun { run, results })
        .collect();
    print_verdicts(&runs)?;
    let stale = fill_documents(&args.root, &runs, args.write)?;
    if stale > 0 && !args.write {
        return Err(CliError::Usage(format!(
            "{stale} document(s) hold tables that differ from results/: run `unroll-lab docs-tables --write`"
        )));
    }
    Ok(())
}
