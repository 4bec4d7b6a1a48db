//! Where a training iteration spends its time: wall-clock seconds per [`Phase`], summed on the
//! current thread while a profile is recording (`unroll-lab bench train --profile`).
//!
//! Off by default: then [`span`] only checks a thread-local flag. The numerics have no clock of
//! their own (the browser has no `Instant`), so [`record`] takes the caller's. Timing a phase is
//! only meaningful on an eager backend such as burn's CPU backend, where an op has finished when
//! its call returns; on WebGPU it would time the queueing.
//!
//! [`tracked_ops`] counts tensor operations on autodiff devices, from burn's own node counter:
//! nothing is added to the normal path.

use std::cell::RefCell;

/// A part of one training iteration.
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
    /// `loss.backward()`: the whole reverse pass.
    Backward,
    /// Collecting gradients and the Adam update.
    Optimizer,
}

impl Phase {
    /// Every phase, in iteration order.
    pub const ALL: [Phase; 6] = [
        Phase::Gather,
        Phase::Network,
        Phase::Solver,
        Phase::Loss,
        Phase::Backward,
        Phase::Optimizer,
    ];

    /// Lower-case name (`"backward"`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Gather => "gather",
            Phase::Network => "network",
            Phase::Solver => "solver",
            Phase::Loss => "loss",
            Phase::Backward => "backward",
            Phase::Optimizer => "optimizer",
        }
    }
}

struct Recording {
    clock: fn() -> f64,
    seconds: [f64; 6],
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Runs `f`, adding its duration to `phase` when a profile is recording on this thread.
pub fn span<T>(phase: Phase, f: impl FnOnce() -> T) -> T {
    let clock = RECORDING.with(|r| r.borrow().as_ref().map(|rec| rec.clock));
    let Some(clock) = clock else { return f() };
    let start = clock();
    let value = f();
    let elapsed = clock() - start;
    RECORDING.with(|r| {
        if let Some(rec) = r.borrow_mut().as_mut() {
            rec.seconds[phase as usize] += elapsed;
        }
    });
    value
}

/// Runs `f` with a profile recording on this thread, timed with `clock` (seconds, monotonic);
/// returns `f`'s value and the seconds spent in each phase, in [`Phase::ALL`] order. The part of
/// `f` outside every [`span`] is not counted.
pub fn record<T>(clock: fn() -> f64, f: impl FnOnce() -> T) -> (T, [f64; 6]) {
    let previous = RECORDING.with(|r| {
        r.borrow_mut().replace(Recording {
            clock,
            seconds: [0.0; 6],
        })
    });
    let value = f();
    let recorded = RECORDING.with(|r| std::mem::replace(&mut *r.borrow_mut(), previous));
    (value, recorded.map_or([0.0; 6], |rec| rec.seconds))
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
        use crate::numerics::backend::cpu_autodiff;
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
        assert_eq!(seconds, [0.0, 2.0, 0.0, 0.0, 1.0, 0.0]);
        let before = TICKS.with(Cell::get);
        span(Phase::Solver, || ());
        assert_eq!(
            TICKS.with(Cell::get),
            before,
            "no clock read once recording ended"
        );
    }
}
