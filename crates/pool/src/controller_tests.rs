//! The pool controller under scripted event sequences: the events are recorded from real
//! batches of a tiny study (two workers), then fed to the controller in chosen orders.

use std::rc::Rc;

use super::*;
use crate::unfinished::Unfinished;
use unroll_core::backend;
use unroll_core::ks::preset::tiny_config;
use unroll_core::study::cells::batch::CellBatch;
use unroll_core::train::Modality;

/// Two modalities × two seeds: four trainings over two workers.
fn plan() -> StudyPlan {
    let mut config = tiny_config();
    config.modalities = vec![Modality::One, Modality::Nog];
    config.seeds = vec![0, 1];
    StudyPlan::new(config, unroll_core::system::System::description, None).expect("plan")
}

/// What each of two workers reports running its share, as the page hears it: worker 1 makes
/// the data (the event carries the baseline and samples alone), worker 2 receives them.
fn recorded(plan: &StudyPlan) -> Vec<Vec<RunEvent>> {
    let shares = partition(plan, 2, false);
    let mut prepared = None;
    let mut events = Vec::new();
    for share in &shares {
        let data = match &prepared {
            None => DataSource::Make { share: true },
            Some(p) => DataSource::Given(Box::new(Clone::clone(p))),
        };
        let clock: Rc<dyn Fn() -> f64> = Rc::new(|| 0.0);
        let mut batch = CellBatch::new(
            plan,
            share,
            unroll_core::system::System::physics,
            &backend::cpu(),
            clock,
            data,
        )
        .expect("batch");
        let mut worker = Vec::new();
        while !batch.stopped() {
            for event in pollster::block_on(batch.tick()) {
                let event = match event {
                    RunEvent::DataReady(p) => {
                        let light = p.without_bulk();
                        prepared = Some(*p);
                        RunEvent::DataReady(Box::new(light))
                    }
                    event => event,
                };
                worker.push(event);
            }
        }
        events.push(worker);
    }
    events
}

fn heard(worker: usize, event: RunEvent) -> Input {
    Input::Heard(worker, FromWorker::Event(event))
}

pub(super) fn statuses(actions: &[Action]) -> Vec<&str> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Status(s) => Some(s.as_str()),
            _ => None,
        })
        .collect()
}

fn posts(actions: &[Action]) -> Vec<(usize, &ToWorker)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Post(w, m) => Some((*w, m)),
            _ => None,
        })
        .collect()
}

fn results(actions: &[Action]) -> Option<&StudyResults> {
    actions.iter().find_map(|a| match a {
        Action::Results(r) => Some(&**r),
        _ => None,
    })
}

fn is_training_finished(event: &RunEvent) -> bool {
    matches!(event, RunEvent::TrainingFinished(_))
}

/// A controller of `plan` on two workers, both ready: worker 1 was told to make the data.
fn started(plan: &StudyPlan) -> PoolController {
    let (mut controller, actions) = PoolController::new(
        plan.clone(),
        unroll_core::system::System::description,
        2,
        false,
        None,
        0.0,
    );
    assert_eq!(controller.workers(), 2);
    assert_eq!(
        statuses(&actions),
        ["Starting 2 worker(s) for 4 training(s)…"]
    );
    let first = controller.step(Input::Heard(0, FromWorker::Ready), 0.0);
    let [(0, ToWorker::Run { data, cells, .. })] = posts(&first)[..] else {
        panic!("worker 1 runs: {first:?}");
    };
    assert_eq!(data, &DataSource::Make { share: true });
    assert_eq!(cells, &partition(plan, 2, false)[0]);
    let second = controller.step(Input::Heard(1, FromWorker::Ready), 0.0);
    assert!(posts(&second).is_empty(), "worker 2 waits for the data");
    assert!(second.contains(&Action::WorkerLines(vec![
        "Worker 1: starting".into(),
        "Worker 2: waiting for the data".into()
    ])));
    controller
}

/// Feeds `events` of `worker`; every action.
fn feed(
    controller: &mut PoolController,
    worker: usize,
    events: impl IntoIterator<Item = RunEvent>,
) -> Vec<Action> {
    let mut actions = Vec::new();
    for event in events {
        actions.extend(controller.step(heard(worker, event), 1.0));
    }
    actions
}

#[test]
fn all_done_ships_the_data_once_and_ends_with_the_merged_results() {
    let plan = plan();
    let events = recorded(&plan);
    let mut controller = started(&plan);
    let data_ready = events[0]
        .iter()
        .position(|e| matches!(e, RunEvent::DataReady(_)))
        .expect("worker 1 shares the data");
    let actions = feed(&mut controller, 0, events[0][..=data_ready].iter().cloned());
    let [(1, ToWorker::Run { data, .. })] = posts(&actions)[..] else {
        panic!("worker 2 runs: {actions:?}");
    };
    assert_eq!(data, &DataSource::Shipped);
    assert_eq!(
        actions
            .iter()
            .filter(|a| matches!(a, Action::ShipData(1)))
            .count(),
        1,
        "worker 2 gets the maker's data message, once: {actions:?}"
    );
    let rest = feed(
        &mut controller,
        0,
        events[0][data_ready + 1..].iter().cloned(),
    );
    assert!(statuses(&rest)
        .iter()
        .any(|s| s.starts_with("1 of 4 trainings done on 2 worker(s), ETA")));
    assert!(rest.iter().any(|a| matches!(a, Action::SaveInProgress(_))));
    assert!(!controller.stopped());
    let end = feed(&mut controller, 1, events[1].iter().cloned());
    assert!(controller.stopped());
    let done = results(&end).expect("results");
    assert!(done.missing_cells.is_empty());
    assert_eq!(done.variants.len(), 2);
    assert_eq!(statuses(&end).last(), Some(&"Done in 1 s on 2 worker(s)."));
    assert!(end.contains(&Action::Terminate(0)) && end.contains(&Action::Terminate(1)));
    assert!(end.contains(&Action::Running(false)));
    assert!(end.iter().any(|a| matches!(a, Action::Store(_))));
    assert_eq!(
        end.iter()
            .filter(|a| matches!(a, Action::VariantLine(_)))
            .count()
            + rest
                .iter()
                .filter(|a| matches!(a, Action::VariantLine(_)))
                .count(),
        2
    );
    // The same numbers as the one-process assembly of the same events.
    let mut expected = undisturbed(&plan, &events);
    expected.wall_secs = done.wall_secs;
    assert_eq!(done, &expected);
    assert!(controller.step(Input::Cancel, 2.0).is_empty(), "ended");
}

/// The undisturbed results of `events` (the one-process assembly of them).
fn undisturbed(plan: &StudyPlan, events: &[Vec<RunEvent>]) -> StudyResults {
    let mut assembly = Assembly::new(
        plan.clone(),
        unroll_core::system::System::description,
        partition(plan, 2, false),
    );
    for event in events.iter().flatten() {
        match event {
            RunEvent::DataReady(p) => assembly.data_ready(p),
            RunEvent::TrainingFinished(t) => {
                assembly.training_finished(Clone::clone(&**t));
            }
            _ => {}
        }
    }
    assembly.results(false).expect("merge")
}

#[test]
fn a_dying_worker_is_restarted_and_the_study_ends_with_the_undisturbed_results() {
    let plan = plan();
    let events = recorded(&plan);
    let mut controller = started(&plan);
    let first_done = events[0]
        .iter()
        .position(is_training_finished)
        .expect("a training");
    feed(&mut controller, 0, events[0][..=first_done].iter().cloned());
    let actions = controller.step(Input::Died(1, "out of memory".into()), 2.0);
    let share = partition(&plan, 2, false)[1].clone();
    let second = &plan.cells[share[0]].label;
    assert_eq!(
        statuses(&actions),
        [format!(
            "Worker 2 stopped while running {second} (out of memory): restarted, try 2 of 3."
        )]
    );
    assert!(actions.contains(&Action::Restart {
        worker: 1,
        webgpu: false
    }));
    assert!(
        !actions.iter().any(|a| matches!(a, Action::Terminate(0))),
        "worker 1 goes on"
    );
    assert!(!controller.stopped());
    // The new worker 2 takes its whole share (none of it was done) with the shipped data.
    let ready = controller.step(Input::Heard(1, FromWorker::Ready), 2.0);
    let [(1, ToWorker::Run { data, cells, .. })] = posts(&ready)[..] else {
        panic!("worker 2 runs again: {ready:?}");
    };
    assert_eq!((data, cells), (&DataSource::Shipped, &share));
    assert!(ready.contains(&Action::ShipData(1)));
    feed(
        &mut controller,
        0,
        events[0][first_done + 1..].iter().cloned(),
    );
    let end = feed(&mut controller, 1, events[1].iter().cloned());
    let done = results(&end).expect("the study finishes");
    let mut expected = undisturbed(&plan, &events);
    expected.wall_secs = done.wall_secs;
    assert_eq!(done, &expected);
}

#[test]
fn a_training_that_fails_every_try_ends_the_study_keeping_the_rest() {
    let plan = plan();
    let events = recorded(&plan);
    let mut controller = started(&plan);
    let first_done = events[0]
        .iter()
        .position(is_training_finished)
        .expect("a training");
    feed(&mut controller, 0, events[0][..=first_done].iter().cloned());
    for _ in 0..MAX_RESTARTS {
        let actions = controller.step(Input::Died(1, "out of memory".into()), 2.0);
        assert!(actions.contains(&Action::Restart {
            worker: 1,
            webgpu: false
        }));
        controller.step(Input::Heard(1, FromWorker::Ready), 2.0);
    }
    let actions = controller.step(Input::Died(1, "out of memory".into()), 2.0);
    let second = &plan.cells[partition(&plan, 2, false)[1][0]].label;
    assert_eq!(
        statuses(&actions),
        [format!(
            "Worker 2 failed while running {second}: out of memory (3 tries). The other workers were stopped. \
             The 1 finished training(s) are kept: partial results below (exportable, and under Stored runs)."
        )]
    );
    assert!(actions.contains(&Action::Terminate(0)) && actions.contains(&Action::Terminate(1)));
    let partial = results(&actions).expect("partial");
    assert_eq!(partial.missing_cells.len(), 3);
    assert!(controller.stopped());
    assert!(feed(&mut controller, 0, events[0].iter().cloned()).is_empty());
}

#[test]
fn a_maker_that_dies_before_the_data_hands_the_making_on_and_a_lost_device_goes_to_the_cpu() {
    let plan = plan();
    let (mut controller, _) = PoolController::new(
        plan.clone(),
        unroll_core::system::System::description,
        2,
        true,
        None,
        0.0,
    );
    controller.step(Input::Heard(0, FromWorker::Ready), 0.0);
    controller.step(Input::Heard(1, FromWorker::Ready), 0.0);
    let lost = "the WebGPU device was lost (the driver reset)";
    let actions = controller.step(Input::Died(0, lost.into()), 1.0);
    assert!(
        actions.contains(&Action::Restart {
            worker: 0,
            webgpu: false
        }),
        "{actions:?}"
    );
    assert!(
        statuses(&actions)[0].contains("restarted on the CPU backend (its WebGPU device was lost)")
    );
    let ready = controller.step(Input::Heard(0, FromWorker::Ready), 1.0);
    let [(0, ToWorker::Run { data, webgpu, .. })] = posts(&ready)[..] else {
        panic!("the new worker 1 makes the data: {ready:?}");
    };
    assert_eq!((data, *webgpu), (&DataSource::Make { share: true }, false));
    // A worker that dies of anything else keeps its backend.
    let actions = controller.step(Input::Died(1, "out of memory".into()), 1.0);
    assert!(actions.contains(&Action::Restart {
        worker: 1,
        webgpu: true
    }));
}

#[test]
fn a_worker_failing_every_try_before_any_training_keeps_nothing() {
    let plan = plan();
    let (mut controller, _) = PoolController::new(
        plan.clone(),
        unroll_core::system::System::description,
        2,
        false,
        Some(Fault::Panic),
        0.0,
    );
    let actions = controller.step(Input::Heard(0, FromWorker::Ready), 0.0);
    assert!(matches!(
        posts(&actions)[..],
        [(
            0,
            ToWorker::Run {
                fault: Some(Fault::Panic),
                ..
            }
        )]
    ));
    let panicked = || heard(0, RunEvent::Error("the worker panicked".into()));
    for _ in 0..MAX_RESTARTS {
        let actions = controller.step(panicked(), 1.0);
        assert!(actions.contains(&Action::Restart {
            worker: 0,
            webgpu: false
        }));
        let again = controller.step(Input::Heard(0, FromWorker::Ready), 1.0);
        assert!(matches!(
            posts(&again)[..],
            [(
                0,
                ToWorker::Run {
                    fault: Some(Fault::Panic),
                    ..
                }
            )]
        ));
    }
    let actions = controller.step(panicked(), 1.0);
    let first = &plan.cells[partition(&plan, 2, false)[0][0]].label;
    assert_eq!(
        statuses(&actions),
        [format!(
            "Worker 1 failed while running {first}: the worker panicked (3 tries). The other \
             workers were stopped. No training had finished."
        )]
    );
    assert!(actions.contains(&Action::ClearInProgress));
    assert!(results(&actions).is_none());
}

#[test]
fn pause_mid_cell_reaches_every_worker_including_one_that_starts_later() {
    let plan = plan();
    let events = recorded(&plan);
    let (mut controller, _) = PoolController::new(
        plan.clone(),
        unroll_core::system::System::description,
        2,
        false,
        None,
        0.0,
    );
    controller.step(Input::Heard(0, FromWorker::Ready), 0.0);
    // Mid-cell: worker 1 made the data and reported some training progress.
    let data_ready = events[0]
        .iter()
        .position(|e| matches!(e, RunEvent::DataReady(_)))
        .expect("data");
    feed(
        &mut controller,
        0,
        events[0][..=data_ready + 1].iter().cloned(),
    );
    let paused = controller.step(Input::Pause, 1.0);
    assert_eq!(posts(&paused), [(0, &ToWorker::Pause)]);
    // Worker 2 only now listens: it gets its share and the pause.
    let late = controller.step(Input::Heard(1, FromWorker::Ready), 1.0);
    let posted = posts(&late);
    assert!(matches!(
        posted[..],
        [
            (
                1,
                ToWorker::Run {
                    data: DataSource::Shipped,
                    ..
                }
            ),
            (1, ToWorker::Pause)
        ]
    ));
    let resumed = controller.step(Input::Resume, 2.0);
    assert_eq!(
        posts(&resumed),
        [(0, &ToWorker::Resume), (1, &ToWorker::Resume)]
    );
    assert!(!controller.stopped());
}

#[test]
fn cancel_and_partial_save_keep_what_is_done() {
    let plan = plan();
    let events = recorded(&plan);
    let mut controller = started(&plan);
    assert_eq!(
        statuses(&controller.step(Input::SavePartial, 0.5)),
        ["No training has finished yet."]
    );
    let first_done = events[0]
        .iter()
        .position(is_training_finished)
        .expect("a training");
    feed(&mut controller, 0, events[0][..=first_done].iter().cloned());
    let saved = controller.step(Input::SavePartial, 1.5);
    let Some(Action::Store(partial)) = saved.first() else {
        panic!("a partial save: {saved:?}");
    };
    assert_eq!(partial.missing_cells.len(), 3);
    assert!(!controller.stopped(), "the run goes on");
    let cancelled = controller.step(Input::Cancel, 2.0);
    assert!(statuses(&cancelled)[0]
        .starts_with("Cancelled. The 1 finished training(s) are kept: partial results below"));
    assert_eq!(results(&cancelled).map(|r| r.wall_secs), Some(2.0));
    assert!(controller.stopped());

    let (mut early, _) = PoolController::new(
        plan,
        unroll_core::system::System::description,
        2,
        false,
        None,
        0.0,
    );
    let cancelled = early.step(Input::Cancel, 1.0);
    assert_eq!(
        statuses(&cancelled),
        ["Cancelled. No training had finished."]
    );
    assert!(cancelled.contains(&Action::Running(false)));
}

#[test]
fn an_unfinished_study_continues_with_the_cells_left_to_the_undisturbed_results() {
    let plan = plan();
    let events = recorded(&plan);
    let mut controller = started(&plan);
    let first_done = events[0]
        .iter()
        .position(is_training_finished)
        .expect("a training");
    let actions = feed(&mut controller, 0, events[0][..=first_done].iter().cloned());
    let saved = actions
        .iter()
        .find_map(|a| match a {
            Action::SaveInProgress(u) => Some((**u).clone()),
            _ => None,
        })
        .expect("saved after the first training");
    assert_eq!(saved.progress(), "1 of 4 trainings done");
    let text = serde_json::to_string(&saved).expect("JSON");
    let saved = Unfinished::from_json(&text)
        .expect("reads")
        .expect("this schema");
    assert_eq!(
        Unfinished::from_json("{\"schema\":\"unroll-lab/results@1\"}"),
        Ok(None)
    );
    // The page reloads: a new controller takes the saved study.
    let (mut controller, actions) = PoolController::resume(
        saved,
        unroll_core::system::System::description,
        2,
        false,
        5.0,
    );
    assert!(statuses(&actions)
        .iter()
        .any(|s| s.starts_with("Continuing the study (1 training(s) were done)")));
    let ready = controller.step(Input::Heard(0, FromWorker::Ready), 5.0);
    let share = partition(&plan, 2, false)[0].clone();
    let [(0, ToWorker::Run { data, cells, .. })] = posts(&ready)[..] else {
        panic!("worker 1 makes the data again: {ready:?}");
    };
    assert_eq!(data, &DataSource::Make { share: true });
    assert_eq!(
        cells,
        &share[1..],
        "the finished training is not trained again"
    );
    controller.step(Input::Heard(1, FromWorker::Ready), 5.0);
    let again: Vec<RunEvent> = events[0]
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != first_done)
        .map(|(_, e)| e.clone())
        .collect();
    feed(&mut controller, 0, again);
    let end = feed(&mut controller, 1, events[1].iter().cloned());
    let done = results(&end).expect("the study finishes");
    let mut expected = undisturbed(&plan, &events);
    expected.wall_secs = done.wall_secs;
    assert_eq!(done, &expected);
}
