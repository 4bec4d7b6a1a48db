//! The runner's tests: every stage, the progress, the results file, the refusals.

use super::*;
use crate::backend;
use crate::ks::config::DEFAULT_RESOLUTION;
use crate::ks::preset::tiny_config;
use crate::system::config::{NetSize, Preset};
use crate::train::Modality;

/// A tiny end-to-end study: 2 sizes, 1 seed, few iterations; every field is produced and the
/// file round-trips through the schema.
#[test]
fn tiny_study_produces_every_field() {
    let mut config = crate::ks::preset::study_config(Preset::Quick, 1);
    config.sizes = vec![NetSize::new(4, 1), NetSize::new(6, 2)];
    config.base.iterations = 6;
    config.base.data.scales = vec![1.0];
    config.base.data.frames = 40;
    config.base.data.warmup_steps = 20;
    config.eval.scales = vec![0.93, 1.15];
    config.eval.tests_per_size = 2;
    config.eval.rollout_steps = 60;
    let ticks = std::rc::Rc::new(std::cell::Cell::new(0.0));
    let ticks = ticks.clone();
    let mut study = Study::new(
        config,
        crate::system::System::physics,
        &backend::cpu(),
        Box::new(move || {
            ticks.set(ticks.get() + 0.25);
            ticks.get()
        }),
    )
    .expect("study");
    let mut finished = Vec::new();
    let mut losses = 0;
    let mut guard = 0;
    let mut evaluating = 0;
    while !study.finished() {
        let progress = pollster::block_on(study.advance(4)).expect("advance");
        evaluating += usize::from(progress.phase == Phase::Evaluating);
        losses += progress.new_losses.len();
        finished.extend(progress.finished_variant);
        guard += 1;
        assert!(guard < 1000, "study does not finish");
    }
    assert_eq!(finished.len(), 12);
    assert_eq!(losses, 12 * 6);
    // Evaluation comes in bounded pieces: per job one start of every size's tests, four
    // rollout chunks of at most 4 · 8 / 2 sizes = 16 steps, four scored tests; then the job's
    // completion (the last one reports Done instead).
    assert_eq!(evaluating, 12 * (1 + 4 + 4 + 1) - 1);
    let results = study.results(1.5);
    assert_eq!(results.variants.len(), 12);
    for v in &results.variants {
        assert_eq!(v.seeds, vec![0]);
        assert!(v.metrics.relative_error.mean.is_finite());
        let s = v.metrics.stability;
        assert_eq!(s.r#static + s.unstable + s.recurring + s.regular, 4);
        assert_eq!(v.relative_to_one.is_some(), v.id.modality != Modality::One);
        assert_eq!(v.training[0].loss_curve.len(), 6);
        // 6 iterations in two timed chunks of 0.25 s each (the test clock): 12 it/s.
        assert!((v.training[0].iterations_per_sec - 12.0).abs() < 1e-9);
    }
    let b = results.baseline.stability;
    assert_eq!(b.r#static + b.unstable + b.recurring + b.regular, 4);
    // Space–time samples: test 0 of each size, every frame of the 60-step rollout kept.
    assert_eq!(results.samples.len(), 2);
    for sample in &results.samples {
        assert_eq!((sample.truth.every, sample.truth.frames.len()), (1, 61));
        assert_eq!(sample.baseline.frames.len(), 61);
        assert_eq!(sample.truth.frames[0].len(), DEFAULT_RESOLUTION);
    }
    for v in &results.variants {
        assert_eq!(v.samples.len(), 2);
        assert_eq!(v.samples[0].frames.len(), 61);
        // Frame 0 is the truth's start for the model too.
        assert_eq!(v.samples[0].frames[0], results.samples[0].truth.frames[0]);
        // Error over time: one point per frame, zero at the start, within [0, cap] after.
        assert_eq!(v.metrics.error_curve.len(), 61);
        assert!(v.metrics.error_curve[0].1 < 1e-12);
        assert!(v
            .metrics
            .error_curve
            .iter()
            .all(|(_, e)| (0.0..=crate::study::data::results::ERROR_CURVE_CAP).contains(e)));
        assert!(v.metrics.error_curve[1..].iter().any(|(_, e)| *e > 0.0));
    }
    assert_eq!(results.baseline.error_curve.len(), 61);
    assert_eq!(study.weights().len(), 12);
    assert!(results.c_nog_over_p_wig().is_some());
    let json = serde_json::to_string(&results).expect("json");
    let parsed = StudyResults::from_json(&json).expect("parse");
    assert_eq!(parsed, results);
    // The embedded config is read back as the study config.
    let config: StudyConfig = parsed.config.clone();
    assert_eq!(config.sizes.len(), 2);
    assert_rescores_exactly(&parsed);
}

/// Every test is kept: re-scored at the study's own horizon the file gives its own errors (to
/// the f32 rounding of the curves), every seed's weights are kept and reload, and horizons
/// outside the rollout are refused.
fn assert_rescores_exactly(results: &StudyResults) {
    use crate::study::data::horizon::HorizonError;
    let horizon = results.config.eval.error_horizon;
    assert_eq!(results.longest_horizon(), Some(60));
    let same = results.at_horizon(horizon).expect("rescore");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-12);
    for (now, was) in same.variants.iter().zip(&results.variants) {
        let (a, b) = (&now.metrics.relative_error, &was.metrics.relative_error);
        assert!(a
            .per_seed
            .iter()
            .zip(&b.per_seed)
            .all(|(x, y)| close(*x, *y)));
        assert!(close(now.metrics.l2.mean, was.metrics.l2.mean));
        assert_eq!(was.weights.len(), 1);
        let flat = was.weights[0]
            .as_ref()
            .expect("weights")
            .to_f32s()
            .expect("f32");
        assert_eq!(flat.len(), was.params);
    }
    assert!(close(
        same.baseline.relative_error.mean,
        results.baseline.relative_error.mean
    ));
    let stored = results.without_weights();
    assert!(stored.variants.iter().all(|v| v.weights.is_empty()));
    assert_eq!(
        stored.at_horizon(horizon).expect("rescore"),
        same.without_weights()
    );
    let longer = results.at_horizon(40).expect("rescore");
    assert_eq!(longer.config.eval.error_horizon, 40);
    assert!(longer.baseline.relative_error.mean > results.baseline.relative_error.mean);
    assert_eq!(
        results.at_horizon(61),
        Err(HorizonError::OutOfRange {
            horizon: 61,
            longest: 60
        })
    );
    assert!(matches!(
        results.at_horizon(0),
        Err(HorizonError::OutOfRange { .. })
    ));
}

#[test]
fn malformed_results_are_rejected_with_a_reason() {
    assert!(StudyResults::from_json("{").is_err());
    let err = StudyResults::from_json("{\"schema\":\"other@9\"}").expect_err("schema");
    assert!(err.to_string().contains("unsupported schema 'other@9'"));
    let err = StudyResults::from_json("{\"schema\":\"unroll-lab/results@1\"}").expect_err("shape");
    assert!(err.to_string().starts_with("not a results file"));
}

#[test]
fn logic_errors_say_what_went_wrong() {
    let mut study = finished_study(tiny_config());
    let err = pollster::block_on(study.advance(8)).expect_err("finished");
    assert!(matches!(err, StudyError::Finished), "{err}");
    assert_eq!(
        err.to_string(),
        "the study is finished: there is no work left"
    );
}

/// A tiny study of 3 seeds, trained as ensembles (ONE's seeds; NOG's and WIG's seeds as one
/// ensemble of 6) and one at a time: every variant's errors, losses and outcomes agree (to 1e-5
/// relative; ONE and NOG train bit for bit alike, WIG to rounding), and the ensembles really
/// ran.
#[test]
fn ensembles_give_the_results_of_trainings_one_at_a_time() {
    let mut config = crate::ks::preset::study_config(Preset::Quick, 3);
    config.sizes = vec![NetSize::new(4, 1)];
    config.base.iterations = 8;
    config.base.data.scales = vec![1.0, 1.2];
    config.base.data.frames = 40;
    config.base.data.warmup_steps = 20;
    config.eval.scales = vec![0.93, 1.15];
    config.eval.tests_per_size = 2;
    config.eval.rollout_steps = 30;
    let run = |ensembles: bool| {
        let mut study = Study::new(
            config.clone(),
            crate::system::System::physics,
            &backend::cpu(),
            Box::new(|| 0.0),
        )
        .expect("study");
        study.set_ensembles(ensembles);
        let (mut sizes, mut live) = (std::collections::BTreeSet::new(), 0);
        while !study.finished() {
            let progress = pollster::block_on(study.advance(4)).expect("advance");
            live += progress.new_losses.len();
            live += progress
                .member_losses
                .iter()
                .map(|m| m.new_losses.len())
                .sum::<usize>();
            if let Stage::TrainingTogether(together) = &study.stage {
                sizes.insert(together.trainer.members());
            }
        }
        (study.results(1.0), sizes, live)
    };
    let (alone, none, live_alone) = run(false);
    let (ensembles, sizes, live) = run(true);
    assert!(none.is_empty());
    assert_eq!(sizes.into_iter().collect::<Vec<_>>(), [3, 6]);
    // Every member's every loss reaches the live curves, as every training's does alone.
    assert_eq!(live, live_alone);
    assert_eq!(live_alone, 6 * 3 * 8);
    assert_eq!(alone.variants.len(), ensembles.variants.len());
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * (1.0 + b.abs());
    for (a, e) in alone.variants.iter().zip(&ensembles.variants) {
        assert_eq!(a.id, e.id);
        let (ma, me) = (&a.metrics.relative_error, &e.metrics.relative_error);
        assert!(
            close(me.mean, ma.mean),
            "{:?}: {} vs {}",
            a.id,
            me.mean,
            ma.mean
        );
        for (ta, te) in a.training.iter().zip(&e.training) {
            assert_eq!(ta.seed, te.seed);
            assert_eq!(ta.iterations_done, te.iterations_done);
            assert_eq!(ta.diverged_at, te.diverged_at);
            assert_eq!(ta.loss_curve.len(), te.loss_curve.len());
            for ((ia, la), (ie, le)) in ta.loss_curve.iter().zip(&te.loss_curve) {
                assert_eq!(ia, ie);
                assert!(close(*le as f64, *la as f64), "{:?}: {le} vs {la}", a.id);
            }
        }
    }
}
