//! The curriculum on a tiny KS problem: ONE's one-step curriculum (as many stages and
//! iterations as NOG and WIG, each at horizon 1, no ramp), the per-stage learning rates, and
//! the restart of Adam and the guard at each stage.

use super::config::{Modality, Mode, TrainConfig};
use super::curriculum::Curriculum;
use super::tests::{losses, tiny_config, tiny_data};
use crate::types::Trajectory;

/// A curriculum 1 → 2 of 3 iterations per stage at rates 2e-3, 1e-3.
fn staged(modality: Modality, restart: bool) -> (TrainConfig, Vec<Trajectory>) {
    let (data, set) = tiny_data(30);
    let mut config = tiny_config(Mode::Correct, modality, data);
    config.curriculum = Some(Curriculum {
        horizons: vec![1, 2],
        stage_iterations: 3,
        learning_rates: vec![2e-3, 1e-3],
        ramp: true,
        restart,
    });
    config.iterations = 6;
    (config, set)
}

#[test]
fn one_trains_every_stage_at_horizon_1_with_the_stage_rates() {
    let (one, _) = staged(Modality::One, true);
    let (wig, _) = staged(Modality::Wig, true);
    one.validate().expect("ONE valid");
    wig.validate().expect("WIG valid");
    assert_eq!(one.stage_horizons(), vec![1, 1]);
    assert_eq!(wig.stage_horizons(), vec![1, 2]);
    assert_eq!(one.total_iterations(), wig.total_iterations());
    assert!((0..6).all(|i| one.unroll_at(i).horizon == 1));
    assert_eq!(wig.unroll_at(3).horizon, 2);
    // Stage rates; the ramp only where the horizon exceeds 1 (the paper's `step_count > 1`).
    assert_eq!(one.learning_rate_at(0), 2e-3);
    assert_eq!(one.learning_rate_at(3), 1e-3);
    assert_eq!(wig.learning_rate_at(0), 2e-3);
    assert_eq!(wig.learning_rate_at(3), 0.0);
    assert_eq!(one.effective_batch(), one.batch);
    let restarts: Vec<usize> = (0..6).filter(|&i| one.restarts_at(i)).collect();
    assert_eq!(restarts, vec![3]);
    let (carried, _) = staged(Modality::One, false);
    assert!((0..6).all(|i| !carried.restarts_at(i)));
}

#[test]
fn a_restart_changes_only_the_stages_after_the_first() {
    for modality in [Modality::One, Modality::Wig] {
        let (mut restarted, set) = staged(modality, true);
        let (mut carried, _) = staged(modality, false);
        for config in [&mut restarted, &mut carried] {
            config.curriculum.as_mut().expect("curriculum").ramp = false;
        }
        let a = losses(restarted, &set);
        let b = losses(carried, &set);
        assert_eq!(a.len(), 6);
        // Identical through the first update of stage 2 (its loss is taken before the update).
        assert_eq!(a[..4], b[..4], "{modality:?}");
        assert_ne!(a[4..], b[4..], "{modality:?}: Adam's moments restart");
    }
}
