//! Showing a results file in every view of the page (table, charts, playground): the one path
//! an imported file, a stored run and a committed run take.

use leptos::prelude::*;

use unroll_browser::timer::sleep;
use unroll_core::study::data::results::StudyResults;

/// The signals a shown results file replaces.
#[derive(Clone, Copy)]
pub struct ResultsSinks {
    /// The page's notice (cleared).
    pub notice: WriteSignal<String>,
    /// The page's trained weights (dropped: they belong to its own run, not to the file).
    pub weights: WriteSignal<Vec<(String, Vec<u8>)>>,
    /// The results every view shows.
    pub results: WriteSignal<Option<StudyResults>>,
}

impl ResultsSinks {
    /// Shows `results` in every view, rendered in the next task (parsed in one task, rendered
    /// in the next, each chart then in its own).
    pub async fn show(self, results: StudyResults) {
        sleep(0).await;
        self.notice.set(String::new());
        self.weights.set(Vec::new());
        self.results.set(Some(results));
    }
}
