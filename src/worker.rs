//! Web Worker entry point (built for wasm32 by trunk, `data-type="worker"`): runs its share of a
//! study's cells and posts what happens to the page (see `platform::worker`). The WebGPU worker
//! (`gpu_worker.rs`) is this entry point built with the `webgpu` feature.

/// Starts the worker.
#[cfg(target_arch = "wasm32")]
pub fn main() {
    unroll_lab::platform::worker::start();
}

/// Natively there is no worker to start: says so and exits 2.
#[cfg(not(target_arch = "wasm32"))]
pub fn main() {
    eprintln!(
        "{} is one of the browser's Web Workers: the page starts it (`scripts/serve.sh`). \
         The native command-line tool is `unroll-lab`.",
        env!("CARGO_BIN_NAME")
    );
    std::process::exit(2);
}
