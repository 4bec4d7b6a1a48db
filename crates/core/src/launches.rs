//! GPU kernel launches (dispatches), counted through cubecl's launch observer: on a GPU an
//! iteration of this project's small networks is bound by dispatch latency, so launches per
//! iteration are the figure that kernel fusion and ensembles change (`unroll-lab bench train
//! --device wgpu --profile`, `bench train --ensemble`). Every launch of every cubecl device in
//! the process is counted, as issued; a build without the `gpu` feature has nothing to count.

/// Runs `work` and counts the GPU kernel launches it issues: `None` in a build without a GPU
/// backend (the CPU backend launches no kernels). Make `work` end with a readback, so that a
/// fusing backend has issued everything it deferred.
pub fn count_launches<T>(work: impl FnOnce() -> T) -> (T, Option<u64>) {
    #[cfg(all(feature = "gpu", not(target_arch = "wasm32")))]
    {
        let (value, launches) = observed::count(work);
        (value, Some(launches))
    }
    #[cfg(not(all(feature = "gpu", not(target_arch = "wasm32"))))]
    {
        (work(), None)
    }
}

#[cfg(all(feature = "gpu", not(target_arch = "wasm32")))]
mod observed {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use cubecl_runtime::logging::{LaunchObservation, LaunchObserver};

    /// Adds one per launch (called by cubecl on the issuing thread, before the submit).
    #[derive(Default)]
    struct Counter(AtomicU64);

    impl LaunchObserver for Counter {
        fn launched(&self, _kernel: &'static str) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// `work`'s value and the launches issued while it ran (the observer is installed for its
    /// duration only).
    pub(super) fn count<T>(work: impl FnOnce() -> T) -> (T, u64) {
        let counter = Arc::new(Counter::default());
        let watching = LaunchObservation::new(counter.clone());
        let value = work();
        drop(watching);
        (value, counter.0.load(Ordering::Relaxed))
    }
}
