//! Start-up self-check of a compute device.
//!
//! Never trust an adapter blindly (a software WebGPU adapter was seen computing a wrong, non-
//! deterministic MSE loss): before the app trains on a device, [`run`] executes the operations
//! training uses — a matrix product, a 1D convolution and an autodiff backward pass against
//! hand-computed values, then a full training step of a tiny convolutional net (forward, MSE loss,
//! backward, Adam update) against the same step on the CPU backend. The caller switches to the CPU
//! when any check fails.
//!
//! Readback is asynchronous ([`Tensor::into_data_async`]) so the same code runs in the browser.

use burn::module::{Module, Param};
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::activation::leaky_relu;
use burn::tensor::module::conv1d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor, TensorData};

use super::backend;
use super::readback::{read_f32, ReadbackError};

/// Largest accepted relative difference for the training-step comparison with the CPU.
pub const TRAINING_STEP_TOLERANCE: f32 = 1e-3;
/// Largest accepted absolute difference from the hand-computed values.
pub const KNOWN_VALUE_TOLERANCE: f32 = 1e-5;

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOutcome {
    /// What was checked, e.g. `"matmul 2×2"`.
    pub name: &'static str,
    /// Largest difference found (absolute for known values, relative for the CPU comparison).
    pub max_difference: f32,
    /// Whether `max_difference` is within the check's tolerance.
    pub passed: bool,
}

/// All checks of one device.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfCheckReport {
    /// One entry per check, in the order run.
    pub checks: Vec<CheckOutcome>,
}

impl SelfCheckReport {
    /// True when every check passed.
    pub fn passed(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|check| check.passed)
    }

    /// A one-line human summary, e.g. `"4/4 checks passed"` or the names of the failures.
    pub fn summary(&self) -> String {
        let failed: Vec<String> = self
            .checks
            .iter()
            .filter(|check| !check.passed)
            .map(|check| format!("{} (off by {:.3e})", check.name, check.max_difference))
            .collect();
        if failed.is_empty() {
            format!("{}/{} checks passed", self.checks.len(), self.checks.len())
        } else {
            format!("failed: {}", failed.join(", "))
        }
    }
}

/// Why the self-check could not run at all (as opposed to running and finding a wrong result).
#[derive(Debug, thiserror::Error)]
pub enum SelfCheckError {
    /// Reading a result back from the device failed.
    #[error(transparent)]
    Readback(#[from] ReadbackError),
}

/// Runs every check on `device`. The training-step reference is computed on the CPU backend.
pub async fn run(device: &Device) -> Result<SelfCheckReport, SelfCheckError> {
    let mut report = SelfCheckReport::default();
    report.checks.push(check_matmul(device).await?);
    report.checks.push(check_conv1d(device).await?);
    report.checks.push(check_backward(device).await?);
    let on_device = training_step(&device.clone().autodiff()).await?;
    let on_cpu = training_step(&backend::cpu_autodiff()).await?;
    report.checks.push(compare_relative(
        "training step: MSE loss",
        &on_device.loss,
        &on_cpu.loss,
    ));
    report.checks.push(compare_relative(
        "training step: gradient",
        &on_device.gradient,
        &on_cpu.gradient,
    ));
    report.checks.push(compare_relative(
        "training step: Adam update",
        &on_device.updated_weights,
        &on_cpu.updated_weights,
    ));
    Ok(report)
}

async fn read<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, SelfCheckError> {
    Ok(read_f32(tensor).await?)
}

fn compare_absolute(name: &'static str, got: &[f32], expected: &[f32]) -> CheckOutcome {
    let max_difference = max_difference(got, expected, |g, e| (g - e).abs());
    CheckOutcome {
        name,
        max_difference,
        passed: max_difference <= KNOWN_VALUE_TOLERANCE,
    }
}

fn compare_relative(name: &'static str, got: &[f32], expected: &[f32]) -> CheckOutcome {
    let scale = expected
        .iter()
        .fold(0.0f32, |acc, v| acc.max(v.abs()))
        .max(1e-12);
    let max_difference = max_difference(got, expected, |g, e| (g - e).abs() / scale);
    CheckOutcome {
        name,
        max_difference,
        passed: max_difference <= TRAINING_STEP_TOLERANCE,
    }
}

/// Largest `metric(got, expected)`; infinite when lengths differ or a value is not finite.
fn max_difference(got: &[f32], expected: &[f32], metric: impl Fn(f32, f32) -> f32) -> f32 {
    if got.len() != expected.len() {
        return f32::INFINITY;
    }
    got.iter()
        .zip(expected)
        .map(|(&g, &e)| {
            if g.is_finite() {
                metric(g, e)
            } else {
                f32::INFINITY
            }
        })
        .fold(0.0, f32::max)
}

/// `[[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]]`.
async fn check_matmul(device: &Device) -> Result<CheckOutcome, SelfCheckError> {
    let a = Tensor::<2>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]), device);
    let b = Tensor::<2>::from_data(TensorData::new(vec![5.0f32, 6.0, 7.0, 8.0], [2, 2]), device);
    let got = read(a.matmul(b)).await?;
    Ok(compare_absolute(
        "matmul 2×2",
        &got,
        &[19.0, 22.0, 43.0, 50.0],
    ))
}

/// Cross-correlation of `[1, 2, 3, 4, 5]` with `[1, 0, −1]`, zero padding 1: `[−2, −2, −2, −2, 4]`.
async fn check_conv1d(device: &Device) -> Result<CheckOutcome, SelfCheckError> {
    let x = Tensor::<3>::from_data(
        TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0, 5.0], [1, 1, 5]),
        device,
    );
    let w = Tensor::<3>::from_data(TensorData::new(vec![1.0f32, 0.0, -1.0], [1, 1, 3]), device);
    let got = read(conv1d(x, w, None, ConvOptions::new([1], [1], [1], 1))).await?;
    Ok(compare_absolute(
        "conv1d k=3",
        &got,
        &[-2.0, -2.0, -2.0, -2.0, 4.0],
    ))
}

/// `d/dw Σ (w·x)² = 2 w x²`: with `w = [1, 2, 3]`, `x = [1, 1, 2]` the gradient is `[2, 4, 24]`.
async fn check_backward(device: &Device) -> Result<CheckOutcome, SelfCheckError> {
    let device = device.clone().autodiff();
    let w = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0], [3]), &device)
        .require_grad();
    let x = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 1.0, 2.0], [3]), &device);
    let loss = (w.clone() * x).powi_scalar(2).sum();
    let grads = loss.backward();
    let got = match w.grad(&grads) {
        Some(grad) => read(grad).await?,
        None => Vec::new(),
    };
    Ok(compare_absolute(
        "autodiff backward",
        &got,
        &[2.0, 4.0, 24.0],
    ))
}

/// A two-layer convolutional net with deterministic weights: the shapes and operations of the
/// study's networks in miniature (conv k = 3 → LeakyReLU → conv k = 3).
#[derive(Module, Debug)]
struct TinyNet {
    /// `[hidden, 2, 3]`
    first: Param<Tensor<3>>,
    /// `[hidden]`
    first_bias: Param<Tensor<1>>,
    /// `[1, hidden, 3]`
    second: Param<Tensor<3>>,
}

const TINY_HIDDEN: usize = 8;
const TINY_BATCH: usize = 16;
const TINY_POINTS: usize = 48;

/// Deterministic, well-spread values: `sin(seed + 0.37 i)`, scaled.
fn wave(len: usize, seed: f32, scale: f32) -> Vec<f32> {
    (0..len)
        .map(|i| scale * (seed + 0.37 * i as f32).sin())
        .collect()
}

impl TinyNet {
    fn new(device: &Device) -> Self {
        let tensor3 = |values: Vec<f32>, shape: [usize; 3]| {
            Param::from_tensor(Tensor::<3>::from_data(
                TensorData::new(values, shape),
                device,
            ))
        };
        Self {
            first: tensor3(wave(TINY_HIDDEN * 2 * 3, 0.1, 0.5), [TINY_HIDDEN, 2, 3]),
            first_bias: Param::from_tensor(Tensor::<1>::from_data(
                TensorData::new(wave(TINY_HIDDEN, 0.7, 0.1), [TINY_HIDDEN]),
                device,
            )),
            second: tensor3(wave(TINY_HIDDEN * 3, 1.3, 0.4), [1, TINY_HIDDEN, 3]),
        }
    }

    /// `[batch, 2, points] → [batch, 1, points]`
    fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let same = || ConvOptions::new([1], [1], [1], 1);
        let hidden = conv1d(input, self.first.val(), Some(self.first_bias.val()), same());
        conv1d(leaky_relu(hidden, 0.01), self.second.val(), None, same())
    }
}

/// What one training step produced, read back to the host.
struct StepResult {
    loss: Vec<f32>,
    gradient: Vec<f32>,
    updated_weights: Vec<f32>,
}

async fn training_step(device: &Device) -> Result<StepResult, SelfCheckError> {
    let net = TinyNet::new(device);
    let input = Tensor::<3>::from_data(
        TensorData::new(
            wave(TINY_BATCH * 2 * TINY_POINTS, 0.0, 1.0),
            [TINY_BATCH, 2, TINY_POINTS],
        ),
        device,
    );
    let target = Tensor::<3>::from_data(
        TensorData::new(
            wave(TINY_BATCH * TINY_POINTS, 2.0, 0.8),
            [TINY_BATCH, 1, TINY_POINTS],
        ),
        device,
    );
    let loss = (net.forward(input) - target).powi_scalar(2).mean();
    let mut grads = loss.backward();
    let gradient = match net.first.grad(&grads) {
        Some(grad) => read(grad).await?,
        None => Vec::new(),
    };
    let params = GradientsParams::from_module(&mut grads, &net);
    let mut optimizer = AdamConfig::new().init();
    let net = optimizer.step(1e-2, net, params);
    Ok(StepResult {
        loss: read(loss).await?,
        gradient,
        updated_weights: read(net.second.val()).await?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_passes_every_check() {
        let report = pollster::block_on(run(&backend::cpu())).expect("self-check runs");
        assert_eq!(report.checks.len(), 6, "{report:?}");
        assert!(report.passed(), "{}", report.summary());
    }

    #[test]
    fn a_wrong_value_fails_its_check() {
        let outcome = compare_absolute("x", &[1.0, 2.5], &[1.0, 2.0]);
        assert!(!outcome.passed);
        assert!((outcome.max_difference - 0.5).abs() < 1e-6);
        let nan = compare_relative("y", &[f32::NAN], &[1.0]);
        assert!(!nan.passed);
        let short = compare_relative("z", &[1.0], &[1.0, 2.0]);
        assert!(!short.passed);
    }

    #[test]
    fn summary_names_the_failures() {
        let report = SelfCheckReport {
            checks: vec![
                compare_absolute("good", &[1.0], &[1.0]),
                compare_absolute("bad", &[3.0], &[1.0]),
            ],
        };
        assert!(!report.passed());
        assert!(report.summary().contains("bad"), "{}", report.summary());
        assert!(!report.summary().contains("good"));
    }
}
