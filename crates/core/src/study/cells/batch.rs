//! Some cells of a [`StudyPlan`] run together in one place (a browser worker's share, or one
//! cluster cell): the study's data and baseline are made once — or received ready-made
//! ([`DataSource::Given`]) — then the cells' trainings run in plan order through the same
//! [`Driver`] and tick size as the CLI's one-process study. The batch passes the driver's
//! events on, less the whole study's (a finished variant, the results): its finished
//! trainings are the driver's [`RunEvent::TrainingFinished`]. A cell run on its own
//! ([`run_cell`]) is a batch of one: the study's data and baseline are regenerated from their
//! seeds (deterministic, so every cell sees the same), then the cell's one training runs and is
//! evaluated.

use std::rc::Rc;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::cell::{CellCheckpoint, CellError, CellResult, CHECKPOINT_SCHEMA};
use super::plan::StudyPlan;
use crate::study::data::prepared::Prepared;
use crate::study::run::driver::{Driver, RunEvent, TickPolicy, NATIVE_ITERATIONS_PER_TICK};
use crate::study::run::runner::Study;
use crate::system::physics::Systems;

/// Where a batch's data and baseline come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DataSource {
    /// Made here from their seeds; with `share`, reported as [`RunEvent::DataReady`] for the
    /// other batches.
    Make {
        /// Report them once made.
        share: bool,
    },
    /// Made elsewhere for the same plan.
    Given(Box<Prepared>),
    /// Made elsewhere; they follow in a `ToWorker::Data` of the worker pool (`unroll-pool`)
    /// message, which the page forwards from the batch that made them without reading it. A batch
    /// is built from the `Given` data that message carries, never from this.
    Shipped,
}

/// A running batch of cells.
pub struct CellBatch {
    driver: Driver,
    /// The resumed cell and the wall seconds it ran before (added to its finished training's).
    carried: Option<(usize, f64)>,
}

/// Runs cell `index` of `plan` on `device` (`systems`: the registry's `System::physics`);
/// `clock` reads seconds.
pub async fn run_cell(
    plan: &StudyPlan,
    index: usize,
    systems: Systems,
    device: &Device,
    clock: Rc<dyn Fn() -> f64>,
) -> Result<CellResult, CellError> {
    let mut batch = CellBatch::new(
        plan,
        &[index],
        systems,
        device,
        clock,
        DataSource::Make { share: false },
    )?;
    let mut result = None;
    while !batch.stopped() {
        for event in batch.tick().await {
            match event {
                RunEvent::Error(message) => return Err(CellError::Run(message)),
                RunEvent::TrainingFinished(finished) => {
                    let study = batch.study();
                    let mut r = CellResult::new(plan, &finished);
                    r.baseline_tests = study.baseline_tests().to_vec();
                    r.samples = study.samples().to_vec();
                    result = Some(r);
                }
                _ => {}
            }
        }
    }
    result.ok_or(CellError::NoOutcome)
}

impl CellBatch {
    /// Prepares cells `cells` of `plan` on `device`, with its data from `data` (nothing is
    /// computed yet; `systems`: the registry's `System::physics`).
    pub fn new(
        plan: &StudyPlan,
        cells: &[usize],
        systems: Systems,
        device: &Device,
        clock: Rc<dyn Fn() -> f64>,
        data: DataSource,
    ) -> Result<Self, CellError> {
        for &i in cells {
            plan.cell(i)?;
        }
        let study_clock = clock.clone();
        let study = Study::new(
            plan.config.clone(),
            systems,
            device,
            Box::new(move || study_clock()),
        )?
        .only_jobs(cells)?;
        let (study, share) = match data {
            DataSource::Make { share } => (study, share),
            DataSource::Given(prepared) if prepared.config_hash == plan.hash => (
                study.with_prepared(*prepared).map_err(CellError::BadData)?,
                false,
            ),
            DataSource::Shipped => {
                return Err(CellError::BadData(
                    "the shipped data have not arrived (a batch starts from their message)".into(),
                ))
            }
            DataSource::Given(prepared) => {
                return Err(CellError::ForeignData(prepared.config_hash));
            }
        };
        let driver =
            Driver::from_study(study, clock, TickPolicy::Fixed(NATIVE_ITERATIONS_PER_TICK));
        Ok(Self {
            driver: if share { driver.sharing_data() } else { driver },
            carried: None,
        })
    }

    /// Trains the batch's consecutive cells that share a model as one ensemble where they can
    /// ([`Study::set_ensembles`]); before the first tick.
    pub fn set_ensembles(&mut self, on: bool) {
        self.driver.study_mut().set_ensembles(on);
    }

    /// True after the last cell or an error was reported.
    pub fn stopped(&self) -> bool {
        self.driver.stopped()
    }

    /// True once the data are there and the trainings run.
    pub fn training(&self) -> bool {
        self.driver.study().data_ready()
    }

    /// The study being run (its data and baseline once [`Self::training`]).
    pub fn study(&self) -> &Study {
        self.driver.study()
    }

    /// Resumes `checkpoint` (of one of the batch's cells) when its training starts; before the
    /// first tick.
    pub fn resume_from(&mut self, checkpoint: CellCheckpoint) -> Result<(), CellError> {
        self.carried = Some((checkpoint.cell, checkpoint.wall_secs));
        self.driver
            .study_mut()
            .resume_from(checkpoint.training)
            .map_err(CellError::from)
    }

    /// The running training's state between two ticks (`None` outside a training; see
    /// [`Study::checkpoint`]), as a checkpoint of its cell of `plan` (an ensemble's: its first
    /// member's).
    pub fn checkpoint(&self, plan: &StudyPlan) -> Option<Result<CellCheckpoint, CellError>> {
        let training = match self.driver.study().checkpoint()? {
            Ok(training) => training,
            Err(err) => return Some(Err(err.into())),
        };
        let cell = plan.cell_of(training.variant, training.seed)?;
        Some(Ok(CellCheckpoint {
            schema: CHECKPOINT_SCHEMA.to_string(),
            plan_hash: plan.hash.clone(),
            cell,
            training,
            wall_secs: self.carried_secs(cell) + self.driver.running_secs(),
        }))
    }

    /// One tick of the study; the events it produced (a resumed cell's finished training counts
    /// the wall time of its earlier runs too).
    pub async fn tick(&mut self) -> Vec<RunEvent> {
        let mut events = self.driver.tick().await;
        events.retain(|e| !matches!(e, RunEvent::VariantFinished(_) | RunEvent::Finished { .. }));
        for event in &mut events {
            if let RunEvent::TrainingFinished(finished) = event {
                finished.wall_secs += self.carried_secs(finished.cell);
            }
        }
        events
    }

    /// The wall seconds cell `cell` ran before this batch resumed it (0 if it did not).
    fn carried_secs(&self, cell: usize) -> f64 {
        match self.carried {
            Some((resumed, secs)) if resumed == cell => secs,
            _ => 0.0,
        }
    }
}
