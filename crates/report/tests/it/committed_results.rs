//! The guard of the committed runs (`results/`): every entry of `results/index.json` imports
//! through the page's importer, its plan parses with the hash of its config, the results are
//! the plan's study, and every claim the book states for it gets the verdict it expects
//! (holds, fails or not resolved, from its 95 % interval:
//! `unroll_report::committed::check_run`; its unit tests show a doctored file failing);
//! the tables the README and the book hold between `<!-- generated: … -->` markers are the
//! ones the files give today (`unroll-lab docs-tables --write` rewrites them).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::config::config_hash;
use unroll_core::system::System;
use unroll_report::committed::{check_run, CommittedIndex};
use unroll_report::doc_tables::{documents, fill_blocks, LoadedRun};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn index() -> CommittedIndex {
    CommittedIndex::from_json(&read(&root().join("results/index.json")))
        .unwrap_or_else(|e| panic!("results/index.json: {e}"))
}

#[test]
fn every_committed_run_gives_the_verdicts_the_book_states() {
    let folder = root().join("results");
    let index = index();
    let mut failures = Vec::new();
    for run in &index.runs {
        let results_text = read(&folder.join(&run.results));
        let plan_text = read(&folder.join(&run.plan));
        match check_run(run, &results_text, &plan_text, System::description) {
            Ok(results) => {
                // The plan's identity, recomputed here from its config and the results'.
                let plan = StudyPlan::from_json(&plan_text, System::description).expect("checked");
                assert_eq!(plan.hash, config_hash(&plan.config), "{}", run.id);
                assert_eq!(plan.hash, config_hash(&results.config), "{}", run.id);
                eprintln!(
                    "{}: {} claim(s) give their stated verdicts ({} variants, plan {})",
                    run.id,
                    run.claims.len(),
                    results.variants.len(),
                    plan.hash
                );
            }
            Err(err) => failures.push(err.to_string()),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readme_and_the_book_hold_the_tables_the_files_give() {
    let index = index();
    let files: Vec<StudyResults> = index
        .runs
        .iter()
        .map(|run| {
            StudyResults::from_json(&read(&root().join("results").join(&run.results)))
                .unwrap_or_else(|e| panic!("{}: {e}", run.id))
        })
        .collect();
    let runs: Vec<LoadedRun<'_>> = index
        .runs
        .iter()
        .zip(&files)
        .map(|(run, results)| LoadedRun { run, results })
        .collect();
    let mut stale = Vec::new();
    let mut blocks = 0;
    for path in documents(&root()).expect("README.md and docs/src") {
        let text = read(&path);
        let (filled, names) =
            fill_blocks(&text, &runs).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        blocks += names.len();
        if filled != text {
            stale.push(format!("{} ({})", path.display(), names.join(", ")));
        }
    }
    assert!(
        stale.is_empty(),
        "tables differ from results/ (run `unroll-lab docs-tables --write`): {}",
        stale.join("; ")
    );
    assert!(blocks > 0, "the README and the book hold generated tables");
}
