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

/// A device the native CLI can train on: burn-flex always; wgpu (Vulkan, Metal or DX12, whichever
/// the machine offers) with the `gpu` crate feature. CUDA is named so that asking for it says why
/// it is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeDevice {
    Cpu,
    Wgpu,
    Cuda,
}

impl NativeDevice {
    /// The names `--device` takes, in the order of [`NativeDevice::ALL`].
    pub const NAMES: [&'static str; 3] = ["cpu", "wgpu", "cuda"];
    pub const ALL: [NativeDevice; 3] = [NativeDevice::Cpu, NativeDevice::Wgpu, NativeDevice::Cuda];

    /// The device named `name`, or a message listing the names.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::NAMES
            .iter()
            .position(|known| *known == name)
            .map(|index| Self::ALL[index])
            .ok_or_else(|| {
                format!(
                    "unknown device {name:?}: expected one of {}",
                    Self::NAMES.join(", ")
                )
            })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL
            .iter()
            .position(|known| *known == self)
            .unwrap_or(0)]
    }

    /// A label for reports: the name and the burn backend behind it.
    pub fn label(self) -> &'static str {
        match self {
            NativeDevice::Cpu => "cpu (burn-flex)",
            NativeDevice::Wgpu => "wgpu (burn-cubecl)",
            NativeDevice::Cuda => "cuda (burn-cubecl)",
        }
    }

    /// The device, after a probe that it computes, or why this build or machine cannot make it.
    pub fn device(self) -> Result<Device, String> {
        let device = match self {
            NativeDevice::Cpu => return Ok(cpu()),
            NativeDevice::Wgpu => wgpu_device()?,
            NativeDevice::Cuda => cuda_device()?,
        };
        probe(&device)
            .map_err(|why| format!("no {} device on this machine: {why}", self.name()))?;
        Ok(device)
    }
}

/// Adds two numbers on `device` and reads them back; a missing adapter or driver panics inside
/// burn, which this turns into a message.
fn probe(device: &Device) -> Result<(), String> {
    let device = device.clone();
    std::panic::catch_unwind(move || {
        let sum = burn::tensor::Tensor::<1>::from_floats([1.0f32, 2.0], &device).sum();
        sum.into_data()
            .try_into_vec::<f32>()
            .map(|values| values[0])
    })
    .map_err(|panic| {
        panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|text| (*text).to_string()))
            .unwrap_or_else(|| "the backend failed to start".to_string())
    })?
    .map_err(|error| format!("{error:?}"))
    .and_then(|sum| {
        if sum == 3.0 {
            Ok(())
        } else {
            Err(format!("1 + 2 gave {sum}"))
        }
    })
}

#[cfg(all(feature = "gpu", not(target_arch = "wasm32")))]
fn wgpu_device() -> Result<Device, String> {
    Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice))
}

#[cfg(not(all(feature = "gpu", not(target_arch = "wasm32"))))]
fn wgpu_device() -> Result<Device, String> {
    Err("this build has no native wgpu backend: build with `--features gpu`".to_string())
}

/// burn's CUDA backend (cubecl-cuda 0.11) builds only after downloading a prebuilt LLVM bundle
/// (tracel-llvm-bundler), which this project's builds may not do; wgpu reaches NVIDIA GPUs through
/// Vulkan instead.
fn cuda_device() -> Result<Device, String> {
    Err(
        "this build has no CUDA backend: burn's CUDA backend downloads a prebuilt LLVM at build \
         time, which this project does not allow; use `--device wgpu` (Vulkan) on NVIDIA GPUs"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::NativeDevice;

    #[test]
    fn device_names_round_trip_and_unknown_names_are_refused() {
        for device in NativeDevice::ALL {
            assert_eq!(NativeDevice::parse(device.name()), Ok(device));
        }
        let refused = NativeDevice::parse("tpu").unwrap_err();
        assert!(refused.contains("cpu, wgpu, cuda"), "{refused}");
    }

    #[test]
    fn the_cpu_device_always_exists() {
        assert!(NativeDevice::Cpu.device().is_ok());
    }

    #[test]
    fn a_device_this_build_lacks_says_why() {
        let missing = NativeDevice::Cuda.device().unwrap_err();
        assert!(missing.contains("--device wgpu"), "{missing}");
        #[cfg(not(feature = "gpu"))]
        assert!(NativeDevice::Wgpu
            .device()
            .unwrap_err()
            .contains("--features gpu"));
    }
}
