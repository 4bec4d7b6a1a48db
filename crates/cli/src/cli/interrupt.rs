//! Ctrl-C (SIGINT, and SIGTERM as a scheduler sends it) during `study` and `study run-cell`:
//! the first asks every running training to save its checkpoint at its next iteration and the
//! run to stop (no cell starts after it); a second ends the process at once (exit 130). A run
//! stopped either way, or killed outright, resumes from its files when run again.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once per process; a second call, or a platform without signals, is
/// a no-op).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            eprintln!("\nstopped at once: the last checkpoints remain, a rerun resumes from them");
            std::process::exit(130);
        }
        eprintln!(
            "\nstopping: each running training saves at its next iteration (Ctrl-C again: now)"
        );
    });
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
