//! The cells of a cluster run back into one results file: each cell's state is read from its
//! files ([`CellState::read`]), and [`merge`] aggregates the done cells exactly as the
//! one-process study does (same per-variant seed order, same [`study_results`]), refusing
//! missing, failed or foreign cells unless a partial merge is asked for.

use super::cell::{CellFailure, CellResult, CELL_SCHEMA};
use super::plan::StudyPlan;
use crate::study::data::aggregate::{baseline_metrics, study_results, variant_result, SeedOutcome};
use crate::study::data::results::{MissingCell, SampleTest, StudyResults};
use crate::system::description::SystemDescription;
use crate::types::TestMetrics;

/// What the output directory holds for one cell.
#[derive(Debug, Clone, PartialEq)]
pub enum CellState {
    /// A result of this plan.
    Done(Box<CellResult>),
    /// The cell ran and failed, with its error.
    Failed(String),
    /// Nothing yet.
    Missing,
    /// A result or failure of another plan (its hash).
    Foreign(String),
    /// A file that is not a cell result (why).
    Malformed(String),
}

impl CellState {
    /// The state of cell `index` of `plan` from the text of its result file and of its
    /// failure file, where they exist. A result wins over a failure (a rerun succeeded).
    pub fn read(
        plan: &StudyPlan,
        index: usize,
        result: Option<&str>,
        failure: Option<&str>,
    ) -> Self {
        if let Some(text) = result {
            return match serde_json::from_str::<CellResult>(text) {
                Ok(r) => Self::of_result(plan, index, r),
                Err(err) => Self::Malformed(err.to_string()),
            };
        }
        match failure.map(serde_json::from_str::<CellFailure>) {
            None => Self::Missing,
            Some(Ok(f)) if f.plan_hash != plan.hash => Self::Foreign(f.plan_hash),
            Some(Ok(f)) => Self::Failed(f.error),
            Some(Err(err)) => Self::Failed(format!("unreadable failure record: {err}")),
        }
    }

    /// The state of cell `index` of `plan` given a result: done when it is this plan's and
    /// this cell's.
    pub fn of_result(plan: &StudyPlan, index: usize, r: CellResult) -> Self {
        if r.schema != CELL_SCHEMA {
            Self::Malformed(format!("unsupported schema '{}'", r.schema))
        } else if r.plan_hash != plan.hash {
            Self::Foreign(r.plan_hash)
        } else if r.cell != index {
            Self::Malformed(format!("holds cell {}, not {index}", r.cell))
        } else {
            Self::Done(Box::new(r))
        }
    }

    /// `missing`, `failed: …`, `foreign: …`, `malformed: …`; `None` when done.
    pub fn problem(&self) -> Option<String> {
        match self {
            Self::Done(_) => None,
            Self::Failed(error) => Some(format!("failed: {error}")),
            Self::Missing => Some("missing".to_string()),
            Self::Foreign(hash) => Some(format!("foreign: written for plan {hash}")),
            Self::Malformed(why) => Some(format!("malformed: {why}")),
        }
    }
}

/// Why cells cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Some cells are not done (and no partial merge was asked for).
    #[error("{} of {total} cells are not done: {} (rerun them, see `study status`, or pass --allow-partial)",
        .problems.len(), list(.problems))]
    Incomplete {
        /// The cells that are not done.
        problems: Vec<MissingCell>,
        /// Cells in the plan.
        total: usize,
    },
    /// No cell is done.
    #[error("no cell of the plan is done")]
    NothingDone,
    /// Cells saw different ground truth (built by different versions?).
    #[error("cell {a} and cell {b} disagree on the baseline: were they run by different builds?")]
    Disagree {
        /// The first done cell.
        a: usize,
        /// The cell that differs.
        b: usize,
    },
    /// The done cells carry no baseline and none was given.
    #[error("no done cell carries the baseline")]
    NoBaseline,
    /// The state list does not match the plan.
    #[error("{got} cell states for a plan of {cells} cells")]
    Count {
        /// States given.
        got: usize,
        /// Cells in the plan.
        cells: usize,
    },
}

fn list(problems: &[MissingCell]) -> String {
    problems
        .iter()
        .map(|p| format!("cell {} ({}) {}", p.cell, p.label, p.reason))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The cells that are not done, with why.
pub fn problems(plan: &StudyPlan, states: &[CellState]) -> Vec<MissingCell> {
    plan.cells
        .iter()
        .zip(states)
        .filter_map(|(spec, state)| {
            state.problem().map(|reason| MissingCell {
                cell: spec.index,
                label: spec.label.clone(),
                reason,
            })
        })
        .collect()
}

/// The results of `plan` from its cells' `states` (one per cell, in order): identical to the
/// one-process study's, except `wall_secs` (here the sum of the cells') and each seed's
/// iterations/s (measured where the cell ran). With `allow_partial`, cells that are not done are
/// listed in [`StudyResults::missing_cells`] and each variant is over the seeds that are there.
/// `system` is the plan's system's implementation (its diverged-model bound).
pub fn merge(
    plan: &StudyPlan,
    system: &dyn SystemDescription,
    states: &[CellState],
    allow_partial: bool,
) -> Result<StudyResults, MergeError> {
    merge_shared(plan, system, states, allow_partial, None)
}

/// [`merge`] where the baseline's per-test metrics and the sample tests were made once for every
/// cell (`shared`, a worker pool's [`crate::study::data::prepared::Prepared`]) and the
/// cells do not carry copies of them.
pub fn merge_shared(
    plan: &StudyPlan,
    system: &dyn SystemDescription,
    states: &[CellState],
    allow_partial: bool,
    shared: Option<(&[TestMetrics], &[SampleTest])>,
) -> Result<StudyResults, MergeError> {
    let (done, problems) = done_cells(plan, states, allow_partial)?;
    let (baseline_tests, samples) = baseline_and_samples(&done, shared)?;
    let variants = plan
        .config
        .variants()
        .iter()
        .enumerate()
        .filter_map(|(variant, config)| {
            let (seeds, outcomes): (Vec<u64>, Vec<SeedOutcome>) = done
                .iter()
                .filter(|c| plan.cells[c.cell].variant == variant)
                .map(|c| (plan.cells[c.cell].seed, c.outcome.clone()))
                .unzip();
            (!seeds.is_empty())
                .then(|| variant_result(config, &seeds, &outcomes, system.diverged_error()))
        })
        .collect();
    let mut results = study_results(
        &plan.config,
        variants,
        baseline_metrics(baseline_tests),
        samples.to_vec(),
        done.iter().map(|c| c.wall_secs).sum(),
    );
    results.missing_cells = problems;
    Ok(results)
}

/// The done cells of `states` (at least one) and the problems of the others, which refuse the
/// merge unless `allow_partial`.
fn done_cells<'a>(
    plan: &StudyPlan,
    states: &'a [CellState],
    allow_partial: bool,
) -> Result<(Vec<&'a CellResult>, Vec<MissingCell>), MergeError> {
    if states.len() != plan.cells.len() {
        return Err(MergeError::Count {
            got: states.len(),
            cells: plan.cells.len(),
        });
    }
    let problems = problems(plan, states);
    if !problems.is_empty() && !allow_partial {
        return Err(MergeError::Incomplete {
            problems,
            total: plan.cells.len(),
        });
    }
    let done: Vec<&CellResult> = states
        .iter()
        .filter_map(|s| match s {
            CellState::Done(r) => Some(&**r),
            _ => None,
        })
        .collect();
    if done.is_empty() {
        return Err(MergeError::NothingDone);
    }
    Ok((done, problems))
}

/// Whether `a` and `b` are the same baseline: their JSON equal once every non-finite squared
/// error reads +∞ (a blown-up rollout's frames: NaN, which `==` calls different from itself,
/// in cells written before they were stored as +∞).
fn same_text(a: &[TestMetrics], b: &[TestMetrics]) -> bool {
    let canonical = |tests: &[TestMetrics]| {
        let mut tests = tests.to_vec();
        for value in tests.iter_mut().flat_map(|t| t.frame_mse.iter_mut()) {
            if !value.is_finite() {
                *value = f32::INFINITY;
            }
        }
        serde_json::to_string(&tests).ok()
    };
    canonical(a) == canonical(b)
}

/// The baseline's per-test metrics and the sample tests: `shared`, else those the done cells
/// carry (which must all agree).
fn baseline_and_samples<'a>(
    done: &[&'a CellResult],
    shared: Option<(&'a [TestMetrics], &'a [SampleTest])>,
) -> Result<(&'a [TestMetrics], &'a [SampleTest]), MergeError> {
    let carrying: Vec<&CellResult> = done
        .iter()
        .copied()
        .filter(|c| !c.baseline_tests.is_empty())
        .collect();
    if let Some((first, other)) = carrying.first().and_then(|first| {
        carrying
            .iter()
            .find(|c| {
                !same_text(&c.baseline_tests, &first.baseline_tests) || c.samples != first.samples
            })
            .map(|other| (first, other))
    }) {
        return Err(MergeError::Disagree {
            a: first.cell,
            b: other.cell,
        });
    }
    match (shared, carrying.first()) {
        (Some(shared), _) => Ok(shared),
        (None, Some(first)) => Ok((first.baseline_tests.as_slice(), first.samples.as_slice())),
        (None, None) => Err(MergeError::NoBaseline),
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::backend;
    use crate::ks::preset::tiny_config;
    use crate::ks::system::Ks;
    use crate::study::cells::batch::run_cell;
    use crate::study::run::driver::{Driver, RunEvent, TickPolicy, NATIVE_ITERATIONS_PER_TICK};
    use crate::system::config::StudyConfig;
    use crate::train::Modality;

    /// Two modalities × two seeds of the tiny study.
    fn config() -> StudyConfig {
        let mut config = tiny_config();
        config.modalities = vec![Modality::One, Modality::Nog];
        config.seeds = vec![3, 1];
        config
    }

    fn clock() -> Rc<dyn Fn() -> f64> {
        let ticks = std::cell::Cell::new(0.0);
        Rc::new(move || {
            ticks.set(ticks.get() + 0.5);
            ticks.get()
        })
    }

    fn one_process(config: StudyConfig) -> StudyResults {
        let mut driver = Driver::new(
            config,
            crate::system::System::physics,
            &backend::cpu(),
            clock(),
            TickPolicy::Fixed(NATIVE_ITERATIONS_PER_TICK),
        )
        .expect("driver");
        let mut results = None;
        while !driver.stopped() {
            for event in pollster::block_on(driver.tick()) {
                if let RunEvent::Finished { results: r, .. } = event {
                    results = Some(*r);
                }
            }
        }
        results.expect("results")
    }

    /// Through the JSON a cell file holds.
    fn cell(plan: &StudyPlan, index: usize) -> CellState {
        let result = pollster::block_on(run_cell(
            plan,
            index,
            crate::system::System::physics,
            &backend::cpu(),
            clock(),
        ))
        .expect("cell");
        let json = serde_json::to_string(&result).expect("json");
        CellState::read(plan, index, Some(&json), None)
    }

    /// Timing is the only thing that differs between runs.
    fn without_timing(mut results: StudyResults) -> StudyResults {
        results.wall_secs = 0.0;
        for v in &mut results.variants {
            for t in &mut v.training {
                t.iterations_per_sec = 0.0;
            }
        }
        results
    }

    #[test]
    fn cells_merge_into_the_one_process_results_number_for_number() {
        let plan =
            StudyPlan::new(config(), crate::system::System::description, None).expect("plan");
        assert_eq!(plan.cells.len(), 4);
        let states: Vec<CellState> = (0..4).map(|i| cell(&plan, i)).collect();
        let merged = merge(&plan, &Ks, &states, false).expect("merge");
        assert!(merged.missing_cells.is_empty());
        let single = one_process(config());
        assert_eq!(without_timing(merged), without_timing(single));
    }

    #[test]
    fn missing_failed_and_foreign_cells_are_named_and_partial_merges_marked() {
        let plan =
            StudyPlan::new(config(), crate::system::System::description, None).expect("plan");
        let done = cell(&plan, 0);
        let CellState::Done(result) = &done else {
            panic!("cell 0 is done");
        };
        let mut foreign = (**result).clone();
        foreign.plan_hash = "0123456789abcdef".into();
        foreign.cell = 3;
        let failure = CellFailure::new(&plan, 2, &"out of memory");
        let states = vec![
            done.clone(),
            CellState::read(&plan, 1, None, None),
            CellState::read(
                &plan,
                2,
                None,
                Some(&serde_json::to_string(&failure).unwrap()),
            ),
            CellState::read(
                &plan,
                3,
                Some(&serde_json::to_string(&foreign).unwrap()),
                None,
            ),
        ];
        let err = merge(&plan, &Ks, &states, false).expect_err("incomplete");
        let message = err.to_string();
        assert!(
            message.starts_with("3 of 4 cells are not done"),
            "{message}"
        );
        assert!(
            message.contains("cell 1 (P-ONE 2×0 m=3 seed 1) missing"),
            "{message}"
        );
        assert!(
            message.contains("cell 2 (P-NOG 2×0 m=3 seed 3) failed: out of memory"),
            "{message}"
        );
        assert!(
            message.contains(
                "cell 3 (P-NOG 2×0 m=3 seed 1) foreign: written for plan 0123456789abcdef"
            ),
            "{message}"
        );
        let partial = merge(&plan, &Ks, &states, true).expect("partial");
        assert_eq!(partial.missing_cells.len(), 3);
        assert_eq!(partial.variants.len(), 1);
        assert_eq!(partial.variants[0].seeds, vec![3]);
        let json = serde_json::to_string(&partial).expect("json");
        assert_eq!(
            StudyResults::from_json(&json)
                .expect("parse")
                .missing_cells
                .len(),
            3
        );
        let none = vec![CellState::Missing; 4];
        assert!(matches!(
            merge(&plan, &Ks, &none, true),
            Err(MergeError::NothingDone)
        ));
        assert!(matches!(
            CellState::read(
                &plan,
                1,
                Some(&serde_json::to_string(&**result).unwrap()),
                None
            ),
            CellState::Malformed(_)
        ));
        assert!(matches!(
            CellState::read(&plan, 1, Some("{"), None),
            CellState::Malformed(_)
        ));
    }
}
