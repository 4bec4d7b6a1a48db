//! A study the page left unfinished (closed, reloaded, its tab discarded): what it takes to
//! continue it, saved after every finished training and every checkpoint, and read when the page
//! opens again. Its experiment (the URL query), its plan, each finished training's cell result
//! and the trained weights received, the part-trained trainings' latest checkpoints, and what is
//! done as partial results (kept as a stored run where the reader does not continue).
//! Continued, the study trains only the cells not done, a part-trained one from its checkpoint,
//! and ends with the results an uninterrupted run gives (the same cells, merged the same way).

use serde::{Deserialize, Serialize};

use unroll_core::study::cells::cell::{CellCheckpoint, CellResult};
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
    /// The part-trained trainings' latest checkpoints (CPU workers only), by cell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checkpoints: Vec<CellCheckpoint>,
    /// What is done, as partial results (`None` before the first training finished).
    pub partial: Option<StudyResults>,
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

    /// `3 of 9 trainings done`, and `; 2 part-trained (up to iteration 1200 of 2000)` where
    /// checkpoints were kept.
    pub fn progress(&self) -> String {
        let done = format!(
            "{} of {} trainings done",
            self.cells.len(),
            self.plan.cells.len()
        );
        let furthest = self
            .checkpoints
            .iter()
            .filter_map(|c| {
                let of = self.plan.cells.get(c.cell)?.config.iterations;
                Some((c.training.trainer.iteration, of))
            })
            .max();
        match furthest {
            Some((iteration, of)) => format!(
                "{done}; {} part-trained (up to iteration {iteration} of {of})",
                self.checkpoints.len()
            ),
            None => done,
        }
    }
}
