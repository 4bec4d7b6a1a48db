//! A study spread over a pool of workers (the browser's Web Workers): the messages between the page
//! and a worker, how the cells are shared out ([`partition`]), and the page's [`Assembly`] of what
//! the workers report — overall progress, the variants as they complete, and the results through
//! the cluster merge ([`unroll_core::study::cells::merge::merge_shared`], with the baseline
//! made once), so they do not depend on the pool's size. What happens when is the
//! [`super::controller`]'s; no browser types here: the page and the worker binary do the posting.

use serde::{Deserialize, Serialize};

use super::device_choice::{DeviceProbe, ProbeRequest};
use unroll_core::study::cells::batch::DataSource;
use unroll_core::study::cells::cell::{CellCheckpoint, CellResult};
use unroll_core::study::cells::merge::{merge_shared, CellState, MergeError};
use unroll_core::study::cells::plan::{CellSpec, StudyPlan};
use unroll_core::study::data::prepared::Prepared;
use unroll_core::study::data::results::{SampleTest, StudyResults, VariantResult};
use unroll_core::study::rollout::inference::{RolloutReply, RolloutRequest};
use unroll_core::study::run::driver::{RunEvent, TrainingFinished};
use unroll_core::system::description::{Descriptions, SystemDescription};
use unroll_core::types::TestMetrics;

/// Most workers a pool starts.
pub const MAX_WORKERS: usize = 8;

/// What the page sends a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Run `cells` of `plan`, on WebGPU when `webgpu` (and it passes the worker's self-check),
    /// else on the CPU backend, with the data from `data`. `fault` injects a failure (tests).
    Run {
        /// The study.
        plan: Box<StudyPlan>,
        /// This worker's cells.
        cells: Vec<usize>,
        /// Use WebGPU.
        webgpu: bool,
        /// A failure to inject.
        fault: Option<Fault>,
        /// Make the data (and share them) or take them.
        data: DataSource,
        /// Where its first cell's training goes on from (on the CPU backend; on WebGPU it
        /// starts from its seed).
        resume: Option<Box<CellCheckpoint>>,
        /// Post the running training's [`FromWorker::Checkpoint`] every this many seconds (on
        /// the CPU backend); `None`: never.
        checkpoint_secs: Option<f64>,
    },
    /// Time the start-up probe's training on the CPU backend (and WebGPU) and answer
    /// [`FromWorker::Probed`] (see `device_choice`).
    Probe(Box<ProbeRequest>),
    /// The data of a [`DataSource::Shipped`] run: the batch that made them posts this message's
    /// text ([`data_message`]) and the page forwards it unread.
    Data(Box<Prepared>),
    /// Roll a trained network out from one state (the playground) on the CPU backend and
    /// answer [`FromWorker::Rollout`].
    Rollout(Box<RolloutRequest>),
    /// Stop after the current tick until [`ToWorker::Resume`].
    Pause,
    /// Go on after a pause.
    Resume,
}

/// The text of the [`ToWorker::Data`] message of `prepared` (posted by the worker that made
/// them, forwarded as is by the page), and the prefix by which the page knows it unread.
pub fn data_message(prepared: &Prepared) -> Result<String, serde_json::Error> {
    #[derive(Serialize)]
    enum Message<'a> {
        Data(&'a Prepared),
    }
    serde_json::to_string(&Message::Data(prepared))
}

/// How every [`data_message`] text begins.
pub const DATA_MESSAGE_PREFIX: &str = "{\"Data\":";

/// The JSON text of `message` (an error event naming the failure if it cannot be written).
pub fn message_text(message: &FromWorker) -> String {
    serde_json::to_string(message).unwrap_or_else(|err| {
        format!("{{\"Event\":{{\"Error\":\"unserialisable message: {err}\"}}}}")
    })
}

/// The texts a worker posts for `event`, in order: a [`FromWorker::Event`]; for the data made
/// ([`RunEvent::DataReady`]) first their [`data_message`] (the bulk, which the page keeps
/// unread and forwards), then the event with the baseline and samples alone.
pub fn worker_posts(event: RunEvent) -> Vec<String> {
    match event {
        RunEvent::DataReady(prepared) => {
            let light = FromWorker::Event(RunEvent::DataReady(Box::new(prepared.without_bulk())));
            match data_message(&prepared) {
                Ok(data) => vec![data, message_text(&light)],
                Err(err) => vec![message_text(&FromWorker::Event(RunEvent::Error(format!(
                    "the study's data could not be serialised: {err}"
                ))))],
            }
        }
        event => vec![message_text(&FromWorker::Event(event))],
    }
}

/// A failure a test can inject into a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Panic when the first training starts.
    Panic,
}

/// What a worker sends the page: its study's [`RunEvent`]s, in a thin envelope for the two
/// things only a worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// Loaded and listening (messages sent before this are lost).
    Ready,
    /// The device it computes on, in words.
    Device(String),
    /// An event of its batch (a panic is an [`RunEvent::Error`]).
    Event(RunEvent),
    /// The start-up probe's self-checks and timings.
    Probed(DeviceProbe),
    /// The frames of a [`ToWorker::Rollout`].
    Rollout(RolloutReply),
    /// Its running training's state, to go on from if the worker stops before it ends.
    Checkpoint(Box<CellCheckpoint>),
    /// It goes on with cell `cell`'s training from the checkpoint it was given, at `iteration`.
    Resumed {
        /// The cell.
        cell: usize,
        /// Iterations the checkpoint had done.
        iteration: usize,
    },
}

/// How often a CPU worker posts its running training's checkpoint, in seconds: what a worker
/// that dies or a reload loses at most.
pub const CHECKPOINT_SECS: f64 = 30.0;

/// Workers for `cells` cells on a machine with `cores` logical cores: one core left for the
/// page, at most [`MAX_WORKERS`] and no more than there are cells, at least one. `requested`
/// (a URL override) wins within 1..=[`MAX_WORKERS`].
pub fn pool_size(cores: usize, cells: usize, requested: Option<usize>) -> usize {
    let wanted = requested.unwrap_or(cores.saturating_sub(1));
    wanted.clamp(1, MAX_WORKERS).min(cells.max(1))
}

/// The cells of `plan` shared out over `workers`: largest first onto the least loaded worker
/// (by counted FLOPs), each share then in plan order. With `together` consecutive cells that
/// can share a model ([`CellSpec::trains_with`]: a variant's seeds, the NOG and WIG variants of
/// one configuration) go to one worker as one unit, so that they train as one ensemble there.
pub fn partition(plan: &StudyPlan, workers: usize, together: bool) -> Vec<Vec<usize>> {
    let workers = workers.max(1);
    let mut units: Vec<Vec<&CellSpec>> = Vec::new();
    for cell in &plan.cells {
        match units.last_mut() {
            Some(unit) if together && unit[0].trains_with(cell) => unit.push(cell),
            _ => units.push(vec![cell]),
        }
    }
    let flops = |unit: &[&CellSpec]| unit.iter().map(|c| c.flops.max(1.0)).sum::<f64>();
    units.sort_by(|a, b| {
        flops(b)
            .total_cmp(&flops(a))
            .then(a[0].index.cmp(&b[0].index))
    });
    let mut shares = vec![Vec::new(); workers];
    let mut load = vec![0.0f64; workers];
    for unit in units {
        let (least, _) = load
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(b.1))
            .unwrap_or((0, &0.0));
        shares[least].extend(unit.iter().map(|cell| cell.index));
        load[least] += flops(&unit);
    }
    shares.retain(|s| !s.is_empty());
    for share in &mut shares {
        share.sort_unstable();
    }
    shares
}

/// The page's view of a pooled study: what each worker was given and reported.
pub struct Assembly {
    plan: StudyPlan,
    system: &'static dyn SystemDescription,
    shares: Vec<Vec<usize>>,
    states: Vec<CellState>,
    weights: Vec<(String, Vec<u8>)>,
    fractions: Vec<f64>,
    /// Each worker's fraction done when it last (re)started: a restarted worker's batch counts
    /// from 0 over what its share has left.
    starts: Vec<f64>,
    work: Vec<f64>,
    baseline: Option<(Vec<TestMetrics>, Vec<SampleTest>)>,
}

impl Assembly {
    /// `plan` shared out as `shares` (from [`partition`]); `systems` finds its system (the
    /// registry's `System::description`).
    pub fn new(plan: StudyPlan, systems: Descriptions, shares: Vec<Vec<usize>>) -> Self {
        let work = shares
            .iter()
            .map(|s| s.iter().map(|&i| plan.cells[i].flops.max(1.0)).sum())
            .collect();
        Self {
            states: vec![CellState::Missing; plan.cells.len()],
            fractions: vec![0.0; shares.len()],
            starts: vec![0.0; shares.len()],
            weights: Vec::new(),
            work,
            shares,
            system: systems(plan.config.system),
            plan,
            baseline: None,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &StudyPlan {
        &self.plan
    }

    /// Workers (shares).
    pub fn workers(&self) -> usize {
        self.shares.len()
    }

    /// Worker `worker`'s cells.
    pub fn share(&self, worker: usize) -> &[usize] {
        self.shares.get(worker).map_or(&[], Vec::as_slice)
    }

    /// Records the study's data: its baseline and samples are kept once, for the merge.
    pub fn data_ready(&mut self, prepared: &Prepared) {
        self.baseline = Some((prepared.baseline_tests.clone(), prepared.samples.clone()));
    }

    /// Records worker `worker`'s own fraction done; the whole study's fraction (each worker
    /// weighted by its share of the counted FLOPs).
    pub fn progress(&mut self, worker: usize, fraction: f64) -> f64 {
        let start = self.starts.get(worker).copied().unwrap_or(0.0);
        if let Some(f) = self.fractions.get_mut(worker) {
            *f = start + (1.0 - start) * fraction.clamp(0.0, 1.0);
        }
        let total: f64 = self.work.iter().sum();
        let done: f64 = self
            .fractions
            .iter()
            .zip(&self.work)
            .map(|(f, w)| f * w)
            .sum();
        if total > 0.0 {
            done / total
        } else {
            0.0
        }
    }

    /// Records a finished training; the variant's result when this was its last seed.
    pub fn training_finished(&mut self, finished: TrainingFinished) -> Option<VariantResult> {
        let index = finished.cell;
        let variant = self.plan.cells.get(index)?.variant;
        let result = CellResult::new(&self.plan, &finished);
        self.states[index] = CellState::of_result(&self.plan, index, result);
        self.weights.extend(finished.weights);
        let seeds_done = self
            .plan
            .cells
            .iter()
            .zip(&self.states)
            .filter(|(c, s)| c.variant == variant && matches!(s, CellState::Done(_)))
            .count();
        if seeds_done < self.plan.config.seeds.len() {
            return None;
        }
        let results = self.results(true).ok()?;
        let id = self.plan.config.variants()[variant].variant_id();
        results.variants.into_iter().find(|v| v.id == id)
    }

    /// True when cell `index` is done.
    pub fn is_done(&self, index: usize) -> bool {
        matches!(self.states.get(index), Some(CellState::Done(_)))
    }

    /// The first cell of worker `worker`'s share that is not done (the one it is on).
    pub fn current_cell(&self, worker: usize) -> Option<&CellSpec> {
        self.share(worker)
            .iter()
            .find(|&&i| !self.is_done(i))
            .map(|&i| &self.plan.cells[i])
    }

    /// Takes in the trainings a study finished before (continuing it), with their weights.
    pub fn resume(&mut self, cells: Vec<CellResult>, weights: Vec<(String, Vec<u8>)>) {
        for cell in cells {
            let index = cell.cell;
            if index < self.states.len() {
                self.states[index] = CellState::of_result(&self.plan, index, cell);
            }
        }
        self.weights = weights;
        for worker in 0..self.shares.len() {
            self.restart(worker);
        }
    }

    /// The finished trainings' cell results, in plan order.
    pub fn done_cells(&self) -> Vec<CellResult> {
        let done = self.states.iter().filter_map(|s| match s {
            CellState::Done(result) => Some((**result).clone()),
            _ => None,
        });
        done.collect()
    }

    /// The trained weights received, as they came.
    pub fn received_weights(&self) -> &[(String, Vec<u8>)] {
        &self.weights
    }

    /// The cells of worker `worker`'s share not done yet, in order.
    pub fn left(&self, worker: usize) -> Vec<usize> {
        let share = self.share(worker).iter().copied();
        share.filter(|&i| !self.is_done(i)).collect()
    }

    /// Worker `worker` starts again with what its share has left: its progress counts from
    /// the work of its done cells.
    pub fn restart(&mut self, worker: usize) {
        let flops = |i: &usize| self.plan.cells[*i].flops.max(1.0);
        let done: f64 = self
            .share(worker)
            .iter()
            .filter(|&&i| self.is_done(i))
            .map(flops)
            .sum();
        let total = self.work.get(worker).copied().unwrap_or(0.0);
        let start = if total > 0.0 { done / total } else { 0.0 };
        if let (Some(s), Some(f)) = (self.starts.get_mut(worker), self.fractions.get_mut(worker)) {
            (*s, *f) = (start, start);
        }
    }

    /// True when every cell of worker `worker`'s share is done.
    pub fn share_done(&self, worker: usize) -> bool {
        self.share(worker).iter().all(|&i| self.is_done(i))
    }

    /// Finished trainings.
    pub fn done(&self) -> usize {
        self.states
            .iter()
            .filter(|s| matches!(s, CellState::Done(_)))
            .count()
    }

    /// True when every cell is done.
    pub fn finished(&self) -> bool {
        self.done() == self.plan.cells.len()
    }

    /// The results: complete, or with `partial` whatever is done (the rest listed as missing).
    pub fn results(&self, partial: bool) -> Result<StudyResults, MergeError> {
        let shared = self
            .baseline
            .as_ref()
            .map(|(tests, samples)| (tests.as_slice(), samples.as_slice()));
        merge_shared(&self.plan, self.system, &self.states, partial, shared)
    }

    /// The trained weights received so far (first seed of each variant), in plan order.
    pub fn weights(&self) -> Vec<(String, Vec<u8>)> {
        let order: Vec<String> = self
            .plan
            .config
            .variants()
            .iter()
            .map(|v| v.variant_id().file_label())
            .collect();
        let mut weights = self.weights.clone();
        weights.sort_by_key(|(label, _)| order.iter().position(|l| l == label));
        weights
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use unroll_core::backend;
    use unroll_core::ks::preset::tiny_config;
    use unroll_core::study::cells::batch::CellBatch;
    use unroll_core::system::config::Preset;
    use unroll_core::train::Modality;

    #[test]
    fn the_pool_leaves_a_core_for_the_page() {
        assert_eq!(pool_size(2, 18, None), 1);
        assert_eq!(pool_size(1, 18, None), 1);
        assert_eq!(pool_size(8, 18, None), 7);
        assert_eq!(pool_size(64, 18, None), MAX_WORKERS);
        assert_eq!(pool_size(8, 3, None), 3);
        assert_eq!(pool_size(2, 18, Some(4)), 4);
        assert_eq!(pool_size(2, 18, Some(0)), 1);
    }

    #[test]
    fn partition_balances_counted_work_and_keeps_plan_order() {
        let plan = StudyPlan::new(
            unroll_core::ks::preset::study_config(Preset::Quick, 3),
            unroll_core::system::System::description,
            None,
        )
        .expect("plan");
        let shares = partition(&plan, 4, false);
        assert_eq!(shares.len(), 4);
        let mut all: Vec<usize> = shares.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..18).collect::<Vec<_>>());
        let loads: Vec<f64> = shares
            .iter()
            .map(|s| s.iter().map(|&i| plan.cells[i].flops).sum())
            .collect();
        let (min, max) = loads
            .iter()
            .fold((f64::MAX, 0.0f64), |(lo, hi), &l| (lo.min(l), hi.max(l)));
        let largest = plan.cells.iter().map(|c| c.flops).fold(0.0, f64::max);
        assert!(max - min <= largest, "{loads:?}");
        assert!(shares.iter().all(|s| s.windows(2).all(|w| w[0] < w[1])));
        assert_eq!(partition(&plan, 40, false).len(), 18);
        // Together: ONE's seeds in a share of their own per mode, NOG's and WIG's together.
        let together = partition(&plan, 40, true);
        assert_eq!(together.len(), 4);
        let mut sizes: Vec<usize> = together.iter().map(Vec::len).collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [3, 3, 6, 6]);
        for share in &together {
            let first = &plan.cells[share[0]];
            assert!(share.iter().all(|&c| first.trains_with(&plan.cells[c])));
            assert!(share
                .iter()
                .all(|&c| plan.cells[c].config.mode == first.config.mode));
        }
    }

    /// Runs the plan as `workers` batches, one after the other (as workers would, in any
    /// interleaving), through the page's assembly: the first makes the data and shares them,
    /// the others receive them (through JSON, as posted).
    fn pooled(plan: &StudyPlan, workers: usize) -> (StudyResults, usize, usize) {
        let shares = partition(plan, workers, false);
        let mut assembly = Assembly::new(
            plan.clone(),
            unroll_core::system::System::description,
            shares.clone(),
        );
        let mut variants = 0;
        let mut prepared: Option<Prepared> = None;
        for (worker, share) in shares.iter().enumerate().rev() {
            let clock: Rc<dyn Fn() -> f64> = Rc::new(|| 0.0);
            let data = match &prepared {
                None => DataSource::Make { share: true },
                Some(p) => DataSource::Given(Box::new(p.clone())),
            };
            let mut batch = CellBatch::new(
                plan,
                share,
                unroll_core::system::System::physics,
                &backend::cpu(),
                clock,
                data,
            )
            .expect("batch");
            while !batch.stopped() {
                // Through the texts a worker posts; the data message as the next worker reads it.
                let posts = pollster::block_on(batch.tick())
                    .into_iter()
                    .flat_map(worker_posts);
                for json in posts {
                    if json.starts_with(DATA_MESSAGE_PREFIX) {
                        let ToWorker::Data(p) = serde_json::from_str(&json).expect("data") else {
                            panic!("not a data message");
                        };
                        prepared = Some(*p);
                        continue;
                    }
                    let FromWorker::Event(event) = serde_json::from_str(&json).expect("parse")
                    else {
                        panic!("not an event");
                    };
                    match event {
                        RunEvent::DataReady(p) => {
                            assert!(
                                p.training.is_empty() && p.tests.is_empty(),
                                "the bulk stays out"
                            );
                            assert!(prepared.is_some(), "the data message comes first");
                            assembly.data_ready(&p);
                        }
                        RunEvent::TrainingFinished(t) => {
                            assert!(t.outcome.training.seed == plan.cells[t.cell].seed);
                            variants += usize::from(assembly.training_finished(*t).is_some());
                        }
                        RunEvent::Progress(p) => {
                            assembly.progress(worker, p.fraction);
                        }
                        RunEvent::Error(e) => panic!("{e}"),
                        RunEvent::VariantFinished(_) | RunEvent::Finished { .. } => {
                            panic!("a batch reports no whole-study event")
                        }
                        RunEvent::Losses(_) => {}
                    }
                }
            }
            assert!(assembly.share_done(worker));
        }
        assert!(assembly.finished());
        (
            assembly.results(false).expect("results"),
            variants,
            assembly.weights().len(),
        )
    }

    #[test]
    fn results_do_not_depend_on_the_pool() {
        let mut config = tiny_config();
        config.modalities = vec![Modality::One, Modality::Wig];
        config.seeds = vec![0, 1];
        let plan =
            StudyPlan::new(config, unroll_core::system::System::description, None).expect("plan");
        let (one, variants, weights) = pooled(&plan, 1);
        assert_eq!((variants, weights), (2, 2));
        let (three, _, _) = pooled(&plan, 3);
        assert_eq!(one.variants, three.variants);
        assert_eq!(one.baseline, three.baseline);
        assert_eq!(one.samples, three.samples);
        // And the cluster's cell files (each making its own data) merge into the same.
        let states: Vec<CellState> = (0..plan.cells.len())
            .map(|i| {
                let r = pollster::block_on(unroll_core::study::cells::batch::run_cell(
                    &plan,
                    i,
                    unroll_core::system::System::physics,
                    &backend::cpu(),
                    Rc::new(|| 0.0),
                ))
                .expect("cell");
                CellState::of_result(&plan, i, r)
            })
            .collect();
        let cells = unroll_core::study::cells::merge::merge(
            &plan,
            unroll_core::system::System::Ks.description(),
            &states,
            false,
        )
        .expect("merge");
        assert_eq!(cells.variants, three.variants);
        assert_eq!(cells.baseline, three.baseline);
        assert_eq!(cells.samples, three.samples);
    }
}
