//! The native CLI, `unroll-lab`: its commands are `cli::Command`'s variants (`--help` lists them).
//!
//! Exit codes: 0 success (a diverged simulation or training run included: divergence is a
//! result), 2 bad arguments or files, with a one-line message on stderr; 130 a run stopped by
//! Ctrl-C, its work kept for a rerun to resume.

#[cfg(not(target_arch = "wasm32"))]
mod allocator;
#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    allocator::keep_freed_memory();
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
