//! The committed runs: `results/index.json` (schema `unroll-lab/committed@1`), the manifest of
//! the long studies run once (`study plan` → `run-cell` → `merge`) and committed under the
//! repository's `results/` folder, each with its plan, the commit it ran at, its budget and the
//! orderings the book states for it. The page lists them (served as static assets); the guard
//! test `crates/report/tests/it/committed_results.rs` checks every one with [`check_run`].

use serde::{Deserialize, Serialize};

pub use crate::claim::{check_claim, find_variant, Claim, ClaimMetric, BASELINE};
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::config::config_hash;
use unroll_core::system::description::Descriptions;

/// The schema tag of `results/index.json`.
pub const COMMITTED_SCHEMA: &str = "unroll-lab/committed@1";

/// `results/index.json`: every committed run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommittedIndex {
    /// [`COMMITTED_SCHEMA`].
    pub schema: String,
    /// The runs, in the order the page lists them.
    pub runs: Vec<CommittedRun>,
}

/// One committed run: a merged results file and the plan it was run from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommittedRun {
    /// Its folder under `results/` (letters, digits, `-`, `_`, `.`): `ks-paper`.
    pub id: String,
    /// What it is, for the page's list: `KS headline, paper budget`.
    pub title: String,
    /// The merged results file (`unroll-lab/results@1`), relative to `results/`:
    /// `<id>/results.json`.
    pub results: String,
    /// The plan file (`unroll-lab/plan@1`) the cells were run from, relative to `results/`:
    /// `<id>/plan.json`.
    pub plan: String,
    /// The commit the cells ran at (short or full hex hash).
    pub commit: String,
    /// The budget in one line, seeds not included (they are [`Self::seeds`]):
    /// `paper budget: 44,892 iterations, lr 1e-4 ×0.9 every 2,000`.
    pub budget: String,
    /// The number of seeds (checked against the results' config).
    pub seeds: usize,
    /// The orderings the book states for this run ([`Claim`]).
    pub claims: Vec<Claim>,
}

/// Why the index, or a committed run, is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommittedError {
    /// Not JSON, or not the index's shape.
    #[error("not a committed-runs index: {0}")]
    Malformed(String),
    /// Another schema.
    #[error("unsupported committed-runs schema '{0}' (expected {COMMITTED_SCHEMA})")]
    Schema(String),
    /// An entry of the index, or one of its files, is wrong.
    #[error("committed run '{id}': {problem}")]
    Run {
        /// The run's id.
        id: String,
        /// What is wrong.
        problem: String,
    },
}

impl CommittedIndex {
    /// Parses `results/index.json`, checking the schema tag and each entry's fields (unique
    /// folder-name ids, paths inside the run's folder, a hex commit, at least one seed, claims
    /// between two different variants).
    pub fn from_json(text: &str) -> Result<Self, CommittedError> {
        #[derive(Deserialize)]
        struct Tag {
            schema: String,
        }
        let tag: Tag =
            serde_json::from_str(text).map_err(|e| CommittedError::Malformed(e.to_string()))?;
        if tag.schema != COMMITTED_SCHEMA {
            return Err(CommittedError::Schema(tag.schema));
        }
        let index: Self =
            serde_json::from_str(text).map_err(|e| CommittedError::Malformed(e.to_string()))?;
        for (i, run) in index.runs.iter().enumerate() {
            run.check_fields()?;
            if index.runs[..i].iter().any(|other| other.id == run.id) {
                return Err(run.error("the id is listed twice"));
            }
        }
        Ok(index)
    }
}

impl CommittedRun {
    /// The page's label of the run: `KS headline, paper budget — paper budget: …; 3 seeds;
    /// commit 1a2b3c4`.
    pub fn label(&self) -> String {
        format!(
            "{} — {}; {} seed{}; commit {}",
            self.title,
            self.budget,
            self.seeds,
            if self.seeds == 1 { "" } else { "s" },
            self.commit
        )
    }

    fn error(&self, problem: impl Into<String>) -> CommittedError {
        CommittedError::Run {
            id: self.id.clone(),
            problem: problem.into(),
        }
    }

    fn check_fields(&self) -> Result<(), CommittedError> {
        let folder_name = |s: &str| {
            !s.is_empty()
                && !s.starts_with('.')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        if !folder_name(&self.id) {
            return Err(self.error("the id must be a folder name (letters, digits, - _ .)"));
        }
        for (what, path) in [("results", &self.results), ("plan", &self.plan)] {
            let inside = path
                .strip_prefix(&format!("{}/", self.id))
                .is_some_and(folder_name);
            // The site's copy of the results is gzipped (`unroll-lab site-results`).
            let json = path.ends_with(".json") || (what == "results" && path.ends_with(".json.gz"));
            if !inside || !json {
                return Err(self.error(format!(
                    "the {what} path '{path}' must be a .json file (results: or .json.gz) in the run's folder ('{}/…')",
                    self.id
                )));
            }
        }
        let hex = (7..=40).contains(&self.commit.len())
            && self.commit.chars().all(|c| c.is_ascii_hexdigit());
        if !hex {
            return Err(self.error(format!(
                "the commit '{}' is not a hex hash of 7 to 40 digits",
                self.commit
            )));
        }
        if self.title.trim().is_empty() || self.budget.trim().is_empty() {
            return Err(self.error("the title and the budget must not be empty"));
        }
        if self.seeds == 0 {
            return Err(self.error("the run must have at least one seed"));
        }
        if let Some(claim) = self.claims.iter().find(|c| c.better == c.worse) {
            return Err(self.error(format!("the claim compares '{}' with itself", claim.better)));
        }
        Ok(())
    }
}

/// Checks one committed run against its files' texts: the results import as the page imports
/// them ([`StudyResults::from_json`]), the plan parses ([`StudyPlan::from_json`], its systems
/// found by `systems`), the plan's hash is [`config_hash`] of its config, the results' config
/// is the plan's, the seeds are the index's, and every claim holds. Returns the results.
pub fn check_run(
    run: &CommittedRun,
    results_text: &str,
    plan_text: &str,
    systems: Descriptions,
) -> Result<StudyResults, CommittedError> {
    let results = StudyResults::from_json(results_text)
        .map_err(|e| run.error(format!("results file {}: {e}", run.results)))?;
    let plan = StudyPlan::from_json(plan_text, systems)
        .map_err(|e| run.error(format!("plan file {}: {e}", run.plan)))?;
    let recomputed = config_hash(&plan.config);
    if recomputed != plan.hash {
        return Err(run.error(format!(
            "plan file {}: its hash {} is not its config's ({recomputed})",
            run.plan, plan.hash
        )));
    }
    if results.config != plan.config {
        return Err(run.error(format!(
            "the results' config (hash {}) is not the plan's (hash {})",
            config_hash(&results.config),
            plan.hash
        )));
    }
    if results.config.seeds.len() != run.seeds {
        return Err(run.error(format!(
            "the index says {} seed(s), the results have {}",
            run.seeds,
            results.config.seeds.len()
        )));
    }
    for claim in &run.claims {
        check_claim(&results, claim).map_err(|problem| run.error(problem))?;
    }
    Ok(results)
}

#[cfg(test)]
#[path = "committed_tests.rs"]
mod tests;
