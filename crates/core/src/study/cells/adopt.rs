//! A finished cell of one plan taken into another that holds the same cell: the same system,
//! the same training config (seed, data and solver set-up included), evaluated on the same
//! tests by the same version, and its plan's first seed (which keeps the sample rollouts) in
//! both or in neither. Such a cell's training and evaluation are the same computation
//! in both plans, so its result is re-labelled, not re-run (`unroll-lab study adopt`): a plan of
//! six seeds takes the three seeds another plan already trained.

use super::cell::CellResult;
use super::plan::StudyPlan;

/// The index of the cell of `other` that is cell `index` of `plan`, if there is one.
pub fn twin(plan: &StudyPlan, index: usize, other: &StudyPlan) -> Option<usize> {
    let ours = plan.cells.get(index)?;
    let comparable = plan.version == other.version
        && plan.config.system == other.config.system
        && plan.config.eval == other.config.eval;
    if !comparable {
        return None;
    }
    // The first seed of a plan keeps its sample rollouts: a twin is first in both or neither.
    let first = |plan: &StudyPlan, seed: u64| plan.config.seeds.first() == Some(&seed);
    other
        .cells
        .iter()
        .find(|theirs| {
            theirs.system == ours.system
                && theirs.config == ours.config
                && first(other, theirs.config.seed) == first(plan, ours.config.seed)
        })
        .map(|theirs| theirs.index)
}

/// `result`, a finished cell of `other`, as cell `index` of `plan`; `None` unless it is that
/// cell's [`twin`].
pub fn adopt(
    plan: &StudyPlan,
    index: usize,
    other: &StudyPlan,
    result: &CellResult,
) -> Option<CellResult> {
    let theirs = twin(plan, index, other)?;
    (result.plan_hash == other.hash && result.cell == theirs).then(|| CellResult {
        plan_hash: plan.hash.clone(),
        cell: index,
        label: plan.cells[index].label.clone(),
        ..result.clone()
    })
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::backend;
    use crate::ks::preset::tiny_config;
    use crate::study::cells::batch::run_cell;
    use crate::system::System;
    use crate::train::Modality;

    /// The tiny study with `seeds` of ONE and NOG.
    fn plan(seeds: &[u64]) -> StudyPlan {
        let mut config = tiny_config();
        config.modalities = vec![Modality::One, Modality::Nog];
        config.seeds = seeds.to_vec();
        StudyPlan::new(config, System::description, None).expect("plan")
    }

    fn ran(plan: &StudyPlan, index: usize) -> CellResult {
        let ticks = std::cell::Cell::new(0.0);
        let clock = Rc::new(move || {
            ticks.set(ticks.get() + 0.5);
            ticks.get()
        });
        let device = backend::cpu();
        pollster::block_on(run_cell(plan, index, System::physics, &device, clock)).expect("cell")
    }

    /// Seeds 0, 2 and 1 take seeds 0 and 1 from a plan of seeds 0 and 1: the adopted cell is
    /// the cell the plan would have run, number for number; no other cell has a twin, and a
    /// seed first in one plan only (its sample rollouts kept there alone) is none.
    #[test]
    fn an_adopted_cell_is_the_cell_run_again() {
        let (old, new) = (plan(&[0, 1]), plan(&[0, 2, 1]));
        let twins: Vec<Option<usize>> = (0..6).map(|i| twin(&new, i, &old)).collect();
        // Variant-major: ONE seeds 0, 2, 1, then NOG seeds 0, 2, 1.
        assert_eq!(twins, [Some(0), None, Some(1), Some(2), None, Some(3)]);
        assert_eq!(
            twin(&plan(&[1, 2]), 0, &old),
            None,
            "seed 1 is first in one plan only"
        );
        let adopted = adopt(&new, 5, &old, &ran(&old, 3)).expect("NOG seed 1");
        let mut again = ran(&new, 5);
        assert_eq!(adopted.cell, 5);
        assert!(adopted.label.contains("NOG") && adopted.label.ends_with("seed 1"));
        again.wall_secs = adopted.wall_secs;
        again.data_secs = adopted.data_secs;
        again.outcome.training.iterations_per_sec = adopted.outcome.training.iterations_per_sec;
        assert_eq!(adopted, again);
        assert!(
            adopt(&new, 5, &old, &ran(&old, 1)).is_none(),
            "not its twin"
        );
        let mut other_tests = old.clone();
        other_tests.config.eval.tests_per_size += 1;
        assert!(twin(&new, 5, &other_tests).is_none(), "other tests");
    }
}
