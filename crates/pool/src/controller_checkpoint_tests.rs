//! The controller's part-trained trainings: a CPU worker's checkpoint is saved with the
//! unfinished study, handed to the worker that trains its cell next (a restart, a continued
//! study), never to a WebGPU worker, and dropped once the training finishes. The checkpoints
//! are real: taken from a batch of the tiny study mid-training.

use std::rc::Rc;

use super::tests::statuses;
use super::*;
use crate::unfinished::Unfinished;
use unroll_core::backend;
use unroll_core::ks::preset::tiny_config;
use unroll_core::study::cells::batch::CellBatch;
use unroll_core::study::cells::cell::CellCheckpoint;
use unroll_core::study::run::driver::TrainingFinished;

/// One training of the tiny study, long enough for two ticks, on one worker.
fn plan() -> StudyPlan {
    let mut config = tiny_config();
    config.base.iterations = 2 * unroll_core::study::run::driver::NATIVE_ITERATIONS_PER_TICK;
    config.seeds = vec![0];
    config.modalities.truncate(1);
    config.modes.truncate(1);
    StudyPlan::new(config, unroll_core::system::System::description, None).expect("plan")
}

/// Cell 0 of `plan` checkpointed after its first tick of training, and its finished training.
fn part_trained_and_finished(plan: &StudyPlan) -> (CellCheckpoint, TrainingFinished) {
    let clock: Rc<dyn Fn() -> f64> = Rc::new(|| 0.0);
    let mut batch = CellBatch::new(
        plan,
        &[0],
        unroll_core::system::System::physics,
        &backend::cpu(),
        clock,
        DataSource::Make { share: false },
    )
    .expect("batch");
    let mut checkpoint = None;
    let mut finished = None;
    while !batch.stopped() {
        for event in pollster::block_on(batch.tick()) {
            if let RunEvent::TrainingFinished(f) = event {
                finished = Some(*f);
            }
        }
        if checkpoint.is_none() {
            checkpoint = batch.checkpoint(plan).map(|c| c.expect("a checkpoint"));
        }
    }
    (
        checkpoint.expect("checkpointed mid-training"),
        finished.expect("finished"),
    )
}

fn saved(actions: &[Action]) -> Option<&Unfinished> {
    actions.iter().find_map(|a| match a {
        Action::SaveInProgress(u) => Some(&**u),
        _ => None,
    })
}

fn resume_of(actions: &[Action]) -> Option<&CellCheckpoint> {
    actions.iter().find_map(|a| match a {
        Action::Post(_, ToWorker::Run { resume, .. }) => resume.as_deref(),
        _ => None,
    })
}

fn started(plan: &StudyPlan, webgpu: bool) -> PoolController {
    let (mut controller, _) = PoolController::new(
        plan.clone(),
        unroll_core::system::System::description,
        1,
        webgpu,
        None,
        0.0,
    );
    let run = controller.step(Input::Heard(0, FromWorker::Ready), 0.0);
    assert!(
        resume_of(&run).is_none(),
        "a first start has nothing to resume"
    );
    controller
}

fn heard_checkpoint(checkpoint: &CellCheckpoint) -> Input {
    Input::Heard(0, FromWorker::Checkpoint(Box::new(checkpoint.clone())))
}

#[test]
fn a_checkpoint_is_saved_before_any_training_finished_and_a_restart_goes_on_from_it() {
    let plan = plan();
    let (checkpoint, _) = part_trained_and_finished(&plan);
    assert!(checkpoint.training.trainer.iteration > 0);
    let mut controller = started(&plan, false);
    let actions = controller.step(heard_checkpoint(&checkpoint), 1.0);
    let unfinished = saved(&actions).expect("saved with its checkpoint");
    assert_eq!(unfinished.checkpoints, std::slice::from_ref(&checkpoint));
    assert!(unfinished.partial.is_none(), "no training finished");
    assert_eq!(
        unfinished.progress(),
        format!(
            "0 of 1 trainings done; 1 part-trained (up to iteration {} of {})",
            checkpoint.training.trainer.iteration, plan.cells[0].config.iterations
        )
    );
    controller.step(Input::Died(0, "the worker was killed".into()), 2.0);
    let run = controller.step(Input::Heard(0, FromWorker::Ready), 2.0);
    assert_eq!(
        resume_of(&run),
        Some(&checkpoint),
        "the restart goes on from it"
    );
    let iteration = checkpoint.training.trainer.iteration;
    let said = controller.step(
        Input::Heard(0, FromWorker::Resumed { cell: 0, iteration }),
        2.0,
    );
    assert_eq!(
        statuses(&said),
        [format!(
            "Worker 1 goes on with {} from iteration {iteration} (its checkpoint).",
            plan.cells[0].label
        )]
    );
}

#[test]
fn a_finished_training_drops_its_checkpoint_and_a_late_one_is_ignored() {
    let plan = plan();
    let (checkpoint, finished) = part_trained_and_finished(&plan);
    let mut controller = started(&plan, false);
    controller.step(heard_checkpoint(&checkpoint), 1.0);
    let actions = controller.step(
        Input::Heard(
            0,
            FromWorker::Event(RunEvent::TrainingFinished(Box::new(finished))),
        ),
        2.0,
    );
    assert!(controller.stopped(), "the one training was the study");
    assert!(actions.contains(&Action::ClearInProgress));
    // A checkpoint of a finished cell, or of another plan, is not kept.
    let mut other = checkpoint.clone();
    other.plan_hash = "another plan".into();
    let mut controller = started(&plan, false);
    assert!(controller.step(heard_checkpoint(&other), 1.0).is_empty());
}

#[test]
fn a_continued_study_resumes_its_checkpoint_on_the_cpu_only() {
    let plan = plan();
    let (checkpoint, _) = part_trained_and_finished(&plan);
    let mut controller = started(&plan, false);
    let actions = controller.step(heard_checkpoint(&checkpoint), 1.0);
    let unfinished = saved(&actions).expect("saved").clone();
    let text = serde_json::to_string(&unfinished).expect("json");
    let read = Unfinished::from_json(&text)
        .expect("readable")
        .expect("this schema");
    assert_eq!(read, unfinished, "the checkpoint survives the store's JSON");
    for (webgpu, resumes) in [(false, true), (true, false)] {
        let (mut controller, actions) = PoolController::resume(
            read.clone(),
            unroll_core::system::System::description,
            1,
            webgpu,
            5.0,
        );
        let how = if resumes {
            "1 of them from its checkpoint…"
        } else {
            "1 of them part-trained but started again from its seed (WebGPU resumes no checkpoint)…"
        };
        let said = format!(
            "Continuing the study (0 training(s) were done): starting 1 worker(s) for the 1 left, {how}"
        );
        assert_eq!(statuses(&actions).last(), Some(&said.as_str()));
        let run = controller.step(Input::Heard(0, FromWorker::Ready), 5.0);
        assert_eq!(resume_of(&run).is_some(), resumes, "webgpu: {webgpu}");
    }
}
