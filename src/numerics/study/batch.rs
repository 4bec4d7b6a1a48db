//! Some cells of a [`StudyPlan`] run together in one place (a browser worker's share, or one
//! cluster cell): the study's data and baseline are made once, then the cells' trainings run in
//! plan order through the same [`Driver`] and tick size as the CLI's one-process study, and
//! every finished training is reported as its [`CellResult`] (with its weights when it is the
//! variant's first seed).

use std::rc::Rc;

use burn::tensor::Device;

use super::cell::{CellError, CellResult, CELL_SCHEMA};
use super::driver::{Driver, Losses, Progress, RunEvent, TickPolicy, NATIVE_ITERATIONS_PER_TICK};
use super::physics::Systems;
use super::plan::StudyPlan;
use super::{Phase, Study};

/// What a batch reports, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchEvent {
    /// Where the batch is (its fraction covers this batch's work only).
    Progress(Progress),
    /// New losses of the running training.
    Losses(Losses),
    /// A training finished and was evaluated; `weights` are the variant's trained weights
    /// (burnpack bytes, file-name label) when this is its first seed.
    CellDone {
        /// The cell's result.
        result: Box<CellResult>,
        /// `(label, bytes)` of the first seed's weights.
        weights: Option<(String, Vec<u8>)>,
    },
    /// Every cell of the batch is done.
    Done,
    /// The batch stopped.
    Error(String),
}

/// A running batch of cells.
pub struct CellBatch {
    plan_hash: String,
    /// `(variant, seed) → cell index` of the plan.
    cells: Vec<(usize, u64, usize, String)>,
    driver: Driver,
    reported: Vec<(usize, u64)>,
    clock: Rc<dyn Fn() -> f64>,
    last_done: f64,
    data_secs: Option<f64>,
}

impl CellBatch {
    /// Prepares cells `cells` of `plan` on `device` (nothing is computed yet; `systems`: the
    /// registry's `System::physics`).
    pub fn new(
        plan: &StudyPlan,
        cells: &[usize],
        systems: Systems,
        device: &Device,
        clock: Rc<dyn Fn() -> f64>,
    ) -> Result<Self, CellError> {
        let specs = cells
            .iter()
            .map(|&i| {
                plan.cell(i)
                    .map(|c| (c.variant, c.seed, c.index, c.label.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let study_clock = clock.clone();
        let study = Study::new(
            plan.config.clone(),
            systems,
            device,
            Box::new(move || study_clock()),
        )?
        .only_jobs(cells)?;
        let driver = Driver::from_study(
            study,
            clock.clone(),
            TickPolicy::Fixed(NATIVE_ITERATIONS_PER_TICK),
        );
        Ok(Self {
            plan_hash: plan.hash.clone(),
            cells: specs,
            driver,
            reported: Vec::new(),
            last_done: clock(),
            clock,
            data_secs: None,
        })
    }

    /// True after the last cell or an error was reported.
    pub fn stopped(&self) -> bool {
        self.driver.stopped()
    }

    /// The cell being trained or evaluated: its index and label (`None` while making the data).
    pub fn current(&self) -> Option<(usize, &str)> {
        self.cells
            .iter()
            .find(|(v, s, _, _)| !self.reported.contains(&(*v, *s)))
            .filter(|_| self.data_secs.is_some())
            .map(|(_, _, index, label)| (*index, label.as_str()))
    }

    /// One tick of the study; the events it produced.
    pub async fn tick(&mut self) -> Vec<BatchEvent> {
        let mut out = Vec::new();
        for event in self.driver.tick().await {
            match event {
                RunEvent::Progress(progress) => {
                    if progress.phase != Phase::Data && self.data_secs.is_none() {
                        self.data_secs = Some((self.clock)() - self.last_done);
                    }
                    out.push(BatchEvent::Progress(progress));
                }
                RunEvent::Losses(losses) => out.push(BatchEvent::Losses(losses)),
                RunEvent::VariantFinished(_) => {}
                RunEvent::Finished { .. } => {}
                RunEvent::Error(message) => out.push(BatchEvent::Error(message)),
            }
            out.extend(self.newly_done());
        }
        if self.driver.stopped() && !matches!(out.last(), Some(BatchEvent::Error(_))) {
            out.push(BatchEvent::Done);
        }
        out
    }

    /// The cells whose training finished since the last call.
    fn newly_done(&mut self) -> Vec<BatchEvent> {
        let study = self.driver.study();
        let fresh: Vec<(usize, u64)> = study
            .seed_outcomes()
            .map(|(variant, o)| (variant, o.training.seed))
            .filter(|key| !self.reported.contains(key))
            .collect();
        let mut events = Vec::new();
        for (variant, seed) in fresh {
            let Some((_, _, index, label)) = self
                .cells
                .iter()
                .find(|(v, s, _, _)| (*v, *s) == (variant, seed))
                .cloned()
            else {
                continue;
            };
            let study = self.driver.study();
            let Some((_, outcome)) = study
                .seed_outcomes()
                .find(|(v, o)| *v == variant && o.training.seed == seed)
            else {
                continue;
            };
            let now = (self.clock)();
            let first = self.reported.is_empty();
            let weights = (seed == study.config().seeds[0])
                .then(|| study.variant_weights(variant))
                .flatten();
            events.push(BatchEvent::CellDone {
                result: Box::new(CellResult {
                    schema: CELL_SCHEMA.to_string(),
                    plan_hash: self.plan_hash.clone(),
                    cell: index,
                    label,
                    outcome: outcome.clone(),
                    baseline_tests: study.baseline_tests().to_vec(),
                    samples: study.samples().to_vec(),
                    wall_secs: now - self.last_done,
                    data_secs: if first {
                        self.data_secs.unwrap_or_default()
                    } else {
                        0.0
                    },
                }),
                weights,
            });
            self.last_done = now;
            self.reported.push((variant, seed));
        }
        events
    }
}
