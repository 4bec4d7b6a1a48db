//! The WebGPU Web Worker's entry point: the same worker as `worker.rs`, built with burn's WebGPU
//! backend (the `webgpu` feature, `index.html`). The page starts it only to probe or train on
//! WebGPU, so a reader on the CPU never downloads the WebGPU stack.

#[cfg(target_arch = "wasm32")]
fn main() {
    unroll_lab::platform::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "unroll-lab-gpu-worker is the browser's WebGPU Web Worker: the page starts it \
         (`scripts/serve.sh`). The native command-line tool is `unroll-lab`."
    );
    std::process::exit(2);
}
