//! Where a training iteration spends its time: wall-clock seconds per [`Phase`], summed on the
//! current thread while a profile is recording (`unroll-lab bench train --profile`).
//!
//! Off by default: then [`span`] only checks a thread-local flag. The numerics have no clock of
//! their own (the browser has no `Instant`), so [`record`] takes the caller's. Timing a phase is
//! only meaningful on an eager backend such as burn's CPU backend, where an op has finished when
//! its call returns; on WebGPU it would time the queueing.
//!
//! The reverse pass is split by markers ([`backward_from`] on a part's output, [`backward_to`]
//! on its input: identity ops whose backward opens and closes a phase) since autodiff runs it
//! by depth, a part's nodes together; a part whose input is untracked (NOG's detached states)
//! stays open until `loss.backward()` returns.
//!
//! [`tracked_ops`] counts tensor operations on autodiff devices, from burn's own node counter:
//! nothing is added to the normal path.
//!
//! [`backward_from`]: crate::profile_mark::backward_from
//! [`backward_to`]: crate::profile_mark::backward_to

use std::cell::RefCell;

/// A part of one training iteration. Phases nest: time spent in an inner phase is counted there
/// only (its enclosing phase's time is exclusive of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Minibatch gather: index upload, `select`, per-frame slices.
    Gather,
    /// Network forward passes (every unrolled step).
    Network,
    /// Differentiable solver steps (correction and transition modes).
    Solver,
    /// Combining solver and network outputs, detaching, the per-step MSE and its sum.
    Loss,
    /// `loss.backward()`, less the parts below: the loss's and the glue's reverse pass.
    Backward,
    /// The networks' reverse pass inside `loss.backward()` (between the backward markers
    /// [`backward_from`] and [`backward_to`] a stepper sets around each network call).
    ///
    /// [`backward_from`]: crate::profile_mark::backward_from
    /// [`backward_to`]: crate::profile_mark::backward_to
    NetworkBackward,
    /// The solvers' reverse pass inside `loss.backward()` (its markers likewise).
    SolverBackward,
    /// Collecting gradients and the Adam update.
    Optimizer,
}

/// Number of [`Phase`]s.
pub const PHASES: usize = 8;

impl Phase {
    /// Every phase, in iteration order.
    pub const ALL: [Phase; PHASES] = [
        Phase::Gather,
        Phase::Network,
        Phase::Solver,
        Phase::Loss,
        Phase::Backward,
        Phase::NetworkBackward,
        Phase::SolverBackward,
        Phase::Optimizer,
    ];

    /// Lower-case name (`"backward"`, `"network backward"`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Gather => "gather",
            Phase::Network => "network",
            Phase::Solver => "solver",
            Phase::Loss => "loss",
            Phase::Backward => "backward",
            Phase::NetworkBackward => "network backward",
            Phase::SolverBackward => "solver backward",
            Phase::Optimizer => "optimizer",
        }
    }
}

/// A phase being timed: its start, and whether a backward marker opened it (closed by its
/// matching marker, or with the span it is nested in).
struct Open {
    phase: Phase,
    start: f64,
    marker: bool,
}

struct Recording {
    clock: fn() -> f64,
    seconds: [f64; PHASES],
    open: Vec<Open>,
}

impl Recording {
    fn push(&mut self, phase: Phase, marker: bool) {
        let start = (self.clock)();
        self.open.push(Open {
            phase,
            start,
            marker,
        });
    }

    /// Closes the innermost open phase: its time to it, taken off its enclosing phase's.
    fn pop(&mut self) {
        let Some(open) = self.open.pop() else { return };
        let elapsed = (self.clock)() - open.start;
        self.seconds[open.phase as usize] += elapsed;
        if let Some(outer) = self.open.last() {
            self.seconds[outer.phase as usize] -= elapsed;
        }
    }
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Whether a profile is recording on this thread.
pub fn recording() -> bool {
    RECORDING.with(|r| r.borrow().is_some())
}

fn with_recording(f: impl FnOnce(&mut Recording)) {
    RECORDING.with(|r| {
        if let Some(rec) = r.borrow_mut().as_mut() {
            f(rec);
        }
    });
}

/// Runs `f`, adding its duration to `phase` when a profile is recording on this thread (less
/// the phases nested in it).
pub fn span<T>(phase: Phase, f: impl FnOnce() -> T) -> T {
    if !recording() {
        return f();
    }
    let depth = RECORDING.with(|r| r.borrow().as_ref().map_or(0, |rec| rec.open.len()));
    with_recording(|rec| rec.push(phase, false));
    let value = f();
    with_recording(|rec| {
        // Marker phases left open inside (their closing marker never ran) end here.
        while rec.open.len() > depth {
            rec.pop();
        }
    });
    value
}

/// Opens `phase` at a backward marker, unless it is the innermost open phase already.
pub(crate) fn marker_begin(phase: Phase) {
    with_recording(|rec| {
        if rec.open.last().map(|o| o.phase) != Some(phase) {
            rec.push(phase, true);
        }
    });
}

/// Closes `phase` at a backward marker if a marker opened it and it is the innermost.
pub(crate) fn marker_end(phase: Phase) {
    with_recording(|rec| {
        if rec
            .open
            .last()
            .is_some_and(|o| o.phase == phase && o.marker)
        {
            rec.pop();
        }
    });
}

/// Runs `f` with a profile recording on this thread, timed with `clock` (seconds, monotonic);
/// returns `f`'s value and the seconds spent in each phase, in [`Phase::ALL`] order. The part of
/// `f` outside every [`span`] is not counted.
pub fn record<T>(clock: fn() -> f64, f: impl FnOnce() -> T) -> (T, [f64; PHASES]) {
    let previous = RECORDING.with(|r| {
        r.borrow_mut().replace(Recording {
            clock,
            seconds: [0.0; PHASES],
            open: Vec::new(),
        })
    });
    let value = f();
    let recorded = RECORDING.with(|r| std::mem::replace(&mut *r.borrow_mut(), previous));
    (value, recorded.map_or([0.0; PHASES], |rec| rec.seconds))
}

/// Tensor operations run on autodiff devices so far, by every thread: burn's autodiff gives
/// each operation's output (and each new leaf) a node id from one global counter, and this
/// reads it by drawing one id. The difference over an iteration is its forward operations
/// (network, solver, loss); the reverse pass's kernels run on the inner backend, uncounted.
pub fn tracked_ops() -> u64 {
    burn::backend::autodiff::NodeId::new().value
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! { static TICKS: Cell<f64> = const { Cell::new(0.0) }; }

    /// A clock that advances one second per reading.
    fn ticking() -> f64 {
        TICKS.with(|t| {
            t.set(t.get() + 1.0);
            t.get()
        })
    }

    #[test]
    fn tracked_ops_count_autodiff_operations() {
        use crate::backend::cpu_autodiff;
        use burn::tensor::Tensor;
        let x = Tensor::<1>::ones([4], &cpu_autodiff()).require_grad();
        let before = tracked_ops();
        let y = (x.clone() * 2.0).exp() + x;
        let counted = tracked_ops() - before - 1;
        assert!(counted >= 3, "{counted}");
        drop(y);
    }

    #[test]
    fn spans_add_up_per_phase_only_while_recording() {
        assert_eq!(span(Phase::Loss, || 7), 7, "off: just runs");
        let (value, seconds) = record(ticking, || {
            span(Phase::Network, || ());
            span(Phase::Network, || ());
            span(Phase::Backward, || 3)
        });
        assert_eq!(value, 3);
        assert_eq!(seconds, [0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        let before = TICKS.with(Cell::get);
        span(Phase::Solver, || ());
        assert_eq!(
            TICKS.with(Cell::get),
            before,
            "no clock read once recording ended"
        );
    }
}
