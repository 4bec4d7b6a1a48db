//! The guard of the committed runs (`results/`): every entry of `results/index.json` imports
//! through the page's importer, its plan parses with the hash of its config, the results are
//! the plan's study, and every ordering the book claims for it holds in the file
//! (`unroll_lab::report::committed::check_run`; its unit tests show a doctored file failing).
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use unroll_lab::numerics::study::cells::plan::StudyPlan;
use unroll_lab::numerics::study::contract::config::config_hash;
use unroll_lab::numerics::system::System;
use unroll_lab::report::committed::{check_run, CommittedIndex};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn every_committed_run_holds_what_the_readme_claims() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let index = CommittedIndex::from_json(&read(&folder.join("index.json")))
        .unwrap_or_else(|e| panic!("results/index.json: {e}"));
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
                    "{}: {} claim(s) hold ({} variants, plan {})",
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
