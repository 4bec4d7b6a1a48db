//! The devices the product uses, named once.
//!
//! burn 0.22 dispatches at run time: tensors are `Tensor<D>` (no backend type parameter) and carry
//! a [`Device`]. The CPU backend is burn's pure-Rust `flex` backend (native CLI, native tests and the
//! browser fallback); the browser's WebGPU device is created asynchronously in `platform`.
//! Floating-point precision is a per-tensor dtype: data built from `f64` stays `f64`.

pub use burn::tensor::Device;

/// The CPU device (burn-flex), without autodiff: data generation, evaluation, solver benches.
pub fn cpu() -> Device {
    Device::flex()
}

/// The CPU device with autodiff enabled: training on the CPU.
pub fn cpu_autodiff() -> Device {
    Device::flex().autodiff()
}
