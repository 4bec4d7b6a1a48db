//! The native CLI: `simulate`, `train`, `bench solver`, `bench train`.
//!
//! Exit codes: 0 success (a diverged simulation or training run included: divergence is a
//! result), 2 bad arguments or files, with a one-line message on stderr.

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
