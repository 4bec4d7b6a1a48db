//! The WebGPU Web Worker's entry point: the same worker as `worker.rs`, built with burn's WebGPU
//! backend (the `webgpu` feature, `index.html`). The page starts it only to probe or train on
//! WebGPU, so a reader on the CPU never downloads the WebGPU stack.

#[path = "worker.rs"]
mod worker;

fn main() {
    worker::main();
}
