//! Where a [`super::runner::Study`] is: one [`Stage`] per kind of work. The transitions live in
//! [`super::runner`], one small function each.

use burn::module::Module;
use burn::tensor::Tensor;

use crate::nets::Net;
use crate::study::data::results::SpaceTime;
use crate::train::run::LossLog;
use crate::train::step::Stepper;
use crate::train::{EnsembleTrainer, MemberLogs, TrainConfig, TrainError, Trainer};
use crate::types::TestMetrics;

/// The stages of a study, in order. Data first (training trajectories, test ground truth, the
/// baseline on every test), then per job (variant × seed): training, evaluation, finishing.
pub enum Stage {
    /// Generating training trajectory `next` (parameter-major).
    TrainingData {
        /// Index of the next trajectory.
        next: usize,
    },
    /// Generating test `next` (size-major) of the test set.
    TestData {
        /// Index of the next test.
        next: usize,
    },
    /// Rolling out and scoring the coarse-solver baseline on test `next`.
    Baseline {
        /// Index of the next test.
        next: usize,
    },
    /// Between jobs: job `next` starts on the next call.
    NextJob {
        /// Index of the next job.
        next: usize,
    },
    /// Training a job.
    Training(Box<Job>),
    /// Training consecutive jobs of one variant (its seeds) together as one ensemble.
    TrainingTogether(Box<Together>),
    /// Evaluating a trained job on the test set (recorded on the call after its last test).
    Evaluating(Box<Job>, Box<Evaluation>),
    /// Every job is recorded: the results are complete.
    Done,
    /// An earlier call failed; nothing more happens.
    Failed,
}

/// One running job (variant × seed).
pub struct Job {
    /// Index into the study's job list.
    pub index: usize,
    /// Its trainer, or the network an ensemble trained for it.
    pub trainer: JobTrainer,
    /// Seconds spent in training steps.
    pub training_secs: f64,
    /// The losses read back so far.
    pub log: LossLog,
    /// Metrics of every scored test.
    pub tests: Vec<TestMetrics>,
    /// Rollouts of the sample tests (first seed only).
    pub samples: Vec<SpaceTime>,
}

/// Where a job's network comes from.
pub enum JobTrainer {
    /// Its own trainer (resumable from a checkpoint).
    Alone(Box<Trainer>),
    /// An ensemble it was a member of, trained to the end: the member's network.
    Member(Box<TrainedMember>),
}

/// Jobs `first..first + K` training as one ensemble (the stage
/// [`super::ensemble_stage`] runs).
pub struct Together {
    /// The first member's job index.
    pub first: usize,
    /// The ensemble.
    pub trainer: EnsembleTrainer,
    /// Each member's losses.
    pub logs: MemberLogs,
    /// Seconds spent in training steps (all members together).
    pub training_secs: f64,
}

/// A job trained as a member of an ensemble.
pub struct TrainedMember {
    /// The job's configuration.
    pub config: TrainConfig,
    /// The member's trained network (autodiff device).
    pub net: Net,
    /// Iterations it trained.
    pub iteration: usize,
}

impl JobTrainer {
    /// The configuration trained.
    pub fn config(&self) -> &TrainConfig {
        match self {
            JobTrainer::Alone(trainer) => trainer.config(),
            JobTrainer::Member(member) => &member.config,
        }
    }

    /// Iterations done.
    pub fn iteration(&self) -> usize {
        match self {
            JobTrainer::Alone(trainer) => trainer.iteration(),
            JobTrainer::Member(member) => member.iteration,
        }
    }

    /// True once trained (a member always is).
    pub fn finished(&self) -> bool {
        match self {
            JobTrainer::Alone(trainer) => trainer.finished(),
            JobTrainer::Member(_) => true,
        }
    }

    /// The network without autodiff, for evaluation.
    pub fn net_for_inference(&self) -> Net {
        match self {
            JobTrainer::Alone(trainer) => trainer.net_for_inference(),
            JobTrainer::Member(member) => member.net.valid(),
        }
    }

    /// Updates the gradient guard skipped (an ensemble trains without the guard).
    pub fn skipped_updates(&self) -> usize {
        match self {
            JobTrainer::Alone(trainer) => trainer.skipped_updates(),
            JobTrainer::Member(_) => 0,
        }
    }

    /// One more iteration of a job training alone ([`Trainer::advance`]).
    pub async fn advance(&mut self) -> Result<Option<Tensor<1>>, TrainError> {
        match self {
            JobTrainer::Alone(trainer) => trainer.advance().await,
            JobTrainer::Member(_) => Err(TrainError::invalid(
                "ensemble",
                "a member trains with its ensemble, not on its own",
            )),
        }
    }
}

/// The evaluation of a trained job.
pub struct Evaluation {
    /// The trained network, without autodiff.
    pub net: Net,
    /// The hybrid stepper of the job's mode.
    pub stepper: Stepper,
    /// The rollout of every test being run or scored (`None` before it starts and after).
    pub current: Option<TestRollout>,
    /// Test sizes started (all of them at once, with the rollout).
    pub next_size: usize,
}

impl Evaluation {
    /// True when every test size is rolled out and scored.
    pub fn done(&self, sizes: usize) -> bool {
        self.current.is_none() && self.next_size >= sizes
    }
}

/// The rollout of every test of every size as one batch, size-major (row `size·tests + test`).
pub struct TestRollout {
    /// The current states `[sizes·tests, values]` on the device.
    pub state: Tensor<2>,
    /// The parameter channel `[sizes·tests, 1]`.
    pub channel: Tensor<2>,
    /// `[sizes·tests][frames so far][values]`, frame 0 = the start.
    pub frames: Vec<Vec<Vec<f64>>>,
    /// Tests scored so far (size-major).
    pub scored: usize,
}

impl TestRollout {
    /// Rollout steps done so far.
    pub fn steps_done(&self) -> usize {
        self.frames.first().map_or(0, Vec::len).saturating_sub(1)
    }
}
