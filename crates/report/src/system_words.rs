//! The words of a results file's system, found through the registry.

use unroll_core::study::data::results::StudyResults;
use unroll_core::system::SystemFacts;

/// The words of a results file's system (metric, baseline, maps, parameter), found through the
/// registry: `numerics` cannot look a system up, so the lookup lives here.
pub trait SystemWords {
    /// The system's facts.
    fn facts(&self) -> SystemFacts;
}

impl SystemWords for StudyResults {
    fn facts(&self) -> SystemFacts {
        self.system().description().facts()
    }
}
