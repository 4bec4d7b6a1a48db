//! A study the page left unfinished (closed, reloaded, its tab discarded): what it takes to
//! continue it, saved after every finished training and read when the page opens again. Its
//! experiment (the URL query), its plan, each finished training's cell result and the trained
//! weights received, and what is done as partial results (kept as a stored run where the
//! reader does not continue). Continued, the study trains only the cells not done and ends
//! with the results an uninterrupted run gives (the same cells, merged the same way).

use serde::{Deserialize, Serialize};

use unroll_core::study::cells::cell::CellResult;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::results::StudyResults;

/// The schema of a saved unfinished study.
pub const UNFINISHED_SCHEMA: &str = "unroll-lab/unfinished@1";

/// An unfinished study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unfinished {
    /// [`UNFINISHED_SCHEMA`].
    pub schema: String,
    /// The experiment's URL query (`preset=quick&seeds=3…`); the page fills it in.
    pub query: String,
    /// The study.
    pub plan: StudyPlan,
    /// The finished trainings, in the order they finished.
    pub cells: Vec<CellResult>,
    /// The trained weights received (`(file label, burnpack bytes)`, first seed of each variant).
    pub weights: Vec<(String, Vec<u8>)>,
    /// What is done, as partial results.
    pub partial: StudyResults,
}

impl Unfinished {
    /// An unfinished study from its saved JSON: `Ok(None)` when the text is something else (an
    /// earlier page's partial results alone), `Err` when it is this schema but unreadable.
    pub fn from_json(text: &str) -> Result<Option<Self>, String> {
        #[derive(Deserialize)]
        struct Schema {
            schema: Option<String>,
        }
        match serde_json::from_str::<Schema>(text) {
            Ok(Schema { schema: Some(s) }) if s == UNFINISHED_SCHEMA => serde_json::from_str(text)
                .map(Some)
                .map_err(|err| format!("the unfinished study cannot be read: {err}")),
            _ => Ok(None),
        }
    }

    /// `3 of 9 trainings done`.
    pub fn progress(&self) -> String {
        format!(
            "{} of {} trainings done",
            self.cells.len(),
            self.plan.cells.len()
        )
    }
}
