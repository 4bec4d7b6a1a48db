//! Cells of a plan run on `jobs` threads at once (`study --jobs N`, `study run-cell --jobs N`),
//! each training single-threaded on its own CPU device. The same seam as the page's worker
//! pool: every cell is a [`CellBatch`] whose [`RunEvent`]s come back to the calling thread; the
//! first cell makes the study's data and baseline ([`DataSource::Make`]) and the others start
//! from them ([`DataSource::Given`]), so every cell computes what it computes alone. Threads
//! share memory, so instead of the page's fixed shares they take the next cell from one queue
//! (largest counted cost first), which keeps the cores busy to the end.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Instant;

use super::checkpoints::{list, read_checkpoint, write_checkpoint, Checkpoints};
use super::interrupt;
use unroll_core::backend::NativeDevice;
use unroll_core::study::cells::batch::{CellBatch, DataSource};
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::prepared::Prepared;
use unroll_core::study::run::driver::RunEvent;
use unroll_core::system::System;

/// What the calling thread hears: `(thread, unit, event)`.
pub struct Heard {
    /// The thread (0-based) that runs the unit.
    pub thread: usize,
    /// The unit's index in the `units` given to [`run_cells`].
    pub unit: usize,
    /// The unit's first cell (its only one unless it trains as an ensemble).
    pub cell: usize,
    /// One of its batch's events.
    pub event: RunEvent,
}

/// The cells as units of work, in plan order: one cell each, or with `together` consecutive
/// cells that can share a model as one unit ([`trains_with`](unroll_core::study::cells::plan::CellSpec::trains_with): a variant's seeds, the
/// NOG and WIG variants of one configuration; trained as one ensemble where they can:
/// [`CellBatch::set_ensembles`]). A cell with a checkpoint to resume is a unit with the cells
/// its checkpoint holds (`held`: none but itself for a training alone, an ensemble's members
/// for an ensemble's), so the ensemble that saved it trains again.
pub fn units(
    plan: &StudyPlan,
    cells: &[usize],
    together: bool,
    held: impl Fn(usize) -> Option<Vec<usize>>,
) -> Vec<Vec<usize>> {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let share = |a: usize, b: usize| match (plan.cells.get(a), plan.cells.get(b)) {
        (Some(a), Some(b)) => a.trains_with(b),
        _ => false,
    };
    let mut units: Vec<Vec<usize>> = Vec::new();
    let mut taken = Vec::new();
    for &cell in &sorted {
        let Some(members) = held(cell) else { continue };
        let unit: Vec<usize> =
            std::iter::once(cell)
                .chain(members.into_iter().filter(|&m| {
                    together && m != cell && sorted.contains(&m) && !taken.contains(&m)
                }))
                .collect();
        taken.extend(&unit);
        units.push(unit);
    }
    let mut open: Option<Vec<usize>> = None;
    for cell in sorted.into_iter().filter(|c| !taken.contains(c)) {
        match open.as_mut() {
            Some(unit)
                if together
                    && unit.last().is_some_and(|&last| last + 1 == cell)
                    && share(unit[0], cell) =>
            {
                unit.push(cell)
            }
            _ => units.extend(open.replace(vec![cell])),
        }
    }
    units.extend(open);
    units.sort_by_key(|unit| unit[0]);
    units
}

/// Whether the run goes on after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Keep running.
    Go,
    /// Stop every thread after its current tick (the cells running are left unfinished).
    Stop,
}

/// The data made by the first cell, for the others (`None` until made; `Err` when making
/// them failed, so nobody waits for ever).
type Shared = (Mutex<Option<Result<Arc<Prepared>, ()>>>, Condvar);

/// Runs `cells` of `plan` on `jobs` threads (at most one per cell), each training on its own
/// `device`, resuming and saving their trainings in `checkpoints` when given; `heard` gets
/// every event on the calling thread, in arrival order, and may stop the run. Returns the
/// threads used.
pub fn run_cells(
    plan: &StudyPlan,
    units: &[Vec<usize>],
    jobs: usize,
    device: NativeDevice,
    checkpoints: Option<Checkpoints<'_>>,
    mut heard: impl FnMut(Heard) -> Next,
) -> usize {
    let order = largest_first(plan, units);
    let threads = jobs.clamp(1, order.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let shared: Shared = (Mutex::new(None), Condvar::new());
    let clock = Instant::now();
    let (tx, rx) = mpsc::channel::<Heard>();
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let tx = tx.clone();
            let (order, next, stop, shared) = (&order, &next, &stop, &shared);
            scope.spawn(move || {
                let send = |unit: usize, event: RunEvent| {
                    // The receiver lives until every thread is done.
                    let _ = tx.send(Heard {
                        thread,
                        unit,
                        cell: units[unit][0],
                        event,
                    });
                };
                worker(
                    Work {
                        plan,
                        units,
                        device,
                        checkpoints,
                    },
                    order,
                    next,
                    stop,
                    shared,
                    clock,
                    &send,
                );
            });
        }
        drop(tx);
        for message in rx {
            if heard(message) == Next::Stop {
                stop.store(true, Ordering::Relaxed);
                release(&shared);
            }
        }
    });
    threads
}

/// The indices of `units`, the largest counted cost first (ties in order).
fn largest_first(plan: &StudyPlan, units: &[Vec<usize>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..units.len()).collect();
    let flops = |unit: usize| -> f64 {
        units[unit]
            .iter()
            .map(|&i| plan.cells.get(i).map_or(0.0, |c| c.flops))
            .sum()
    };
    order.sort_by(|&a, &b| flops(b).total_cmp(&flops(a)).then(a.cmp(&b)));
    order
}

/// What every thread runs: cells of a plan, each on its own device of one kind, with their
/// checkpoints where asked.
#[derive(Clone, Copy)]
struct Work<'a> {
    plan: &'a StudyPlan,
    units: &'a [Vec<usize>],
    device: NativeDevice,
    checkpoints: Option<Checkpoints<'a>>,
}

/// One thread: takes cells from the queue until it is empty or the run stops.
fn worker(
    work: Work<'_>,
    order: &[usize],
    next: &AtomicUsize,
    stop: &AtomicBool,
    shared: &Shared,
    clock: Instant,
    send: &dyn Fn(usize, RunEvent),
) {
    let time_is_up = || {
        work.checkpoints
            .is_some_and(|c| c.time_is_up(clock.elapsed().as_secs_f64()))
    };
    // Each thread's first cell starts even past the time limit, so every run makes progress;
    // none starts after a Ctrl-C.
    let mut first = true;
    while !stop.load(Ordering::Relaxed) && (first || !time_is_up()) && !interrupt::requested() {
        first = false;
        let position = next.fetch_add(1, Ordering::Relaxed);
        let Some(&unit) = order.get(position) else {
            return;
        };
        let maker = position == 0;
        let data = if maker {
            DataSource::Make { share: true }
        } else {
            match wait_for_data(shared) {
                Some(prepared) => DataSource::Given(Box::new((*prepared).clone())),
                None => return,
            }
        };
        let now = std::rc::Rc::new(move || clock.elapsed().as_secs_f64());
        let run =
            std::panic::AssertUnwindSafe(|| run_one(work, unit, data, now, stop, shared, send));
        let made = std::panic::catch_unwind(run).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "no message".to_string());
            send(
                unit,
                RunEvent::Error(format!("the training panicked: {why}")),
            );
            false
        });
        if maker && !made {
            // The data were not made: release whoever waits for them.
            release(shared);
        }
    }
}

/// Runs one unit to its end (or the stop); true when its data are there. A unit of several
/// cells trains them as an ensemble where it can.
fn run_one(
    work: Work<'_>,
    unit: usize,
    data: DataSource,
    now: std::rc::Rc<dyn Fn() -> f64>,
    stop: &AtomicBool,
    shared: &Shared,
    send: &dyn Fn(usize, RunEvent),
) -> bool {
    let device = match work.device.device() {
        Ok(device) => device,
        Err(err) => {
            send(unit, RunEvent::Error(err));
            return false;
        }
    };
    let cells = &work.units[unit];
    let clock = now.clone();
    let mut batch = match CellBatch::new(work.plan, cells, System::physics, &device, now, data) {
        Ok(batch) => batch,
        Err(err) => {
            send(unit, RunEvent::Error(err.to_string()));
            return false;
        }
    };
    batch.set_ensembles(cells.len() > 1);
    if let Err(why) = resume(&mut batch, work, cells) {
        send(unit, RunEvent::Error(why));
        return false;
    }
    let mut saved_secs = clock();
    while !batch.stopped() && !stop.load(Ordering::Relaxed) {
        if let Some(checkpoints) = work.checkpoints {
            let now = clock();
            if checkpoints.time_is_up(now) && save(&batch, work.plan, checkpoints) {
                return true;
            }
            if now - saved_secs >= checkpoints.every_secs && save(&batch, work.plan, checkpoints) {
                saved_secs = now;
            }
        }
        for event in pollster::block_on(batch.tick()) {
            // The data go out first, so they are heard before any other cell's event.
            let made = match &event {
                RunEvent::DataReady(prepared) => Some(Arc::new((**prepared).clone())),
                _ => None,
            };
            send(unit, event);
            if let Some(prepared) = made {
                let (slot, ready) = shared;
                *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Ok(prepared));
                ready.notify_all();
            }
        }
    }
    batch.training()
}

/// Resumes the training of the first of `cells` that has a checkpoint, if one has (a unit holds
/// at most one: [`units`]).
fn resume(batch: &mut CellBatch, work: Work<'_>, cells: &[usize]) -> Result<(), String> {
    let Some(checkpoints) = work.checkpoints else {
        return Ok(());
    };
    for &cell in cells {
        let cannot = |why: String| {
            format!("cannot resume cell {cell}: {why} (remove the checkpoint to start it afresh)")
        };
        let Some(checkpoint) = read_checkpoint(work.plan, cell, checkpoints.dir).map_err(cannot)?
        else {
            continue;
        };
        let held = checkpoint.cells(work.plan).unwrap_or_default();
        if let Some(away) = held.iter().find(|m| !cells.contains(m)) {
            return Err(cannot(format!(
                "it was saved by an ensemble of cells {} and cell {away} does not run with it \
                 here: run them together (every one of them, ensembles on)",
                list(&held)
            )));
        }
        let ensemble = match held.len() {
            0 | 1 => String::new(),
            _ => format!(" with cells {} as one ensemble", list(&held[1..])),
        };
        eprintln!(
            "cell {cell} ({}){ensemble}: resuming at iteration {} of {}",
            work.plan.cells[cell].label,
            checkpoint.training.trainer.iteration,
            work.plan.cells[cell].config.total_iterations(),
        );
        return batch
            .resume_from(checkpoint)
            .map_err(|err| cannot(err.to_string()));
    }
    Ok(())
}

/// Saves the running training (alone or an ensemble) when it is between two iterations; true
/// when there was one to save (a failed save is reported, and counts as an attempt: the next
/// comes a period later).
fn save(batch: &CellBatch, plan: &StudyPlan, checkpoints: Checkpoints<'_>) -> bool {
    let Some(checkpoint) = batch.checkpoint(plan) else {
        return false;
    };
    match checkpoint
        .map_err(|err| err.to_string())
        .and_then(|checkpoint| write_checkpoint(checkpoints.dir, &checkpoint))
    {
        Ok(()) => true,
        Err(why) => {
            eprintln!("could not save a checkpoint: {why}");
            true
        }
    }
}

/// The shared data once made; `None` when making them failed or the run stopped.
fn wait_for_data(shared: &Shared) -> Option<Arc<Prepared>> {
    let (slot, ready) = shared;
    let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        match &*guard {
            Some(Ok(prepared)) => return Some(prepared.clone()),
            Some(Err(())) => return None,
            None => guard = ready.wait(guard).unwrap_or_else(|e| e.into_inner()),
        }
    }
}

/// Marks the data as never coming (unless they are there) and wakes every waiting thread.
fn release(shared: &Shared) {
    let (slot, ready) = shared;
    let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
    if guard.is_none() {
        *guard = Some(Err(()));
    }
    ready.notify_all();
}
