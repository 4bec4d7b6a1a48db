//! The WebGPU Web Worker: the same loop as the CPU worker, built with burn's WebGPU backend (the
//! `webgpu` feature, `index.html`). The page starts it only to probe or train on WebGPU, so a
//! reader on the CPU never downloads the WebGPU stack.

fn main() {
    unroll_browser::worker::start();
}
