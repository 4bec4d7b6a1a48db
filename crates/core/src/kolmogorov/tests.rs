//! Cross-file tests: the coarse solver against analytic solutions, its convergence orders, its
//! projection, its gradient, and its agreement with the spectral truth.

use burn::tensor::{Tensor, TensorData};

use super::coarse::{read_values, CoarseSolver, TimeScheme};
use super::grid::{rms, sample};
use super::initial::random_vorticity;
use super::spectral::SpectralSolver;
use super::staggered::{coarse_from_fine, divergence, velocity_from_vorticity};
use crate::backend;
use crate::metrics::{max_abs, max_abs_difference};
use crate::types::Precision;

fn f64_solver(n: usize, dt: f64) -> CoarseSolver {
    CoarseSolver::with_precision(n, dt, &backend::cpu(), Precision::F64)
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3)
}

/// Taylor–Green `ψ = a·sin x sin y` (`u = a sin x cos y`, `v = −a cos x sin y`) as exact face
/// averages on N×N.
fn taylor_green(n: usize, amplitude: f64) -> Vec<f64> {
    let omega = sample(n, |x, y| 2.0 * amplitude * x.sin() * y.sin());
    coarse_from_fine(&omega, n, n).expect("face averages")
}

/// Max error of the coarse solver against the decaying Taylor–Green vortex after `steps`.
fn taylor_green_error(n: usize, dt: f64, steps: usize, viscosity: f64) -> f64 {
    taylor_green_error_of(&f64_solver(n, dt), n, dt, steps, viscosity)
}

/// Max error of `solver` (`N × N`, step `dt`, unforced) against the decaying Taylor–Green
/// vortex (face averages) after `steps`, relative to the vortex's largest value.
pub(super) fn taylor_green_error_of(
    solver: &CoarseSolver,
    n: usize,
    dt: f64,
    steps: usize,
    viscosity: f64,
) -> f64 {
    let solver = solver.clone().with_forcing(0.0).expect("no forcing");
    let start = taylor_green(n, 1.0);
    let got = solver.advance_host(&start, viscosity, steps).expect("run");
    let decay = (-2.0 * viscosity * dt * steps as f64).exp();
    let want: Vec<f64> = start.iter().map(|w| w * decay).collect();
    max_abs_difference(&got, &want) / max_abs(&want)
}

#[test]
fn coarse_taylor_green_decays_within_discretisation_error() {
    let error = taylor_green_error(32, 0.02, 50, 0.05);
    eprintln!("coarse Taylor–Green N=32, t=1: relative max error {error:.2e}");
    assert!(error < 2e-3, "relative error {error:e}");
}

#[test]
fn coarse_spatial_order_is_2() {
    let errors: Vec<f64> = [16, 32, 64]
        .iter()
        .map(|&n| taylor_green_error(n, 0.01, 50, 0.05))
        .collect();
    let orders = [
        (errors[0] / errors[1]).log2(),
        (errors[1] / errors[2]).log2(),
    ];
    eprintln!("coarse spatial orders {orders:.3?} (errors {errors:?})");
    for order in orders {
        assert!((order - 2.0).abs() < 0.2, "order {order} ({errors:?})");
    }
}

/// Measured temporal orders (self-convergence against 256 steps) of `scheme` on a forced
/// random state, N = 16, t = 0.4.
fn temporal_orders(scheme: TimeScheme) -> ([f64; 2], Vec<f64>) {
    let n = 16;
    let (horizon, viscosity) = (0.4, 0.01);
    let omega = random_vorticity(n, 5, 3, 3.0).expect("ic");
    let start = velocity_from_vorticity(n, &omega).expect("velocity");
    let run = |steps: usize| {
        f64_solver(n, horizon / steps as f64)
            .with_scheme(scheme)
            .advance_host(&start, viscosity, steps)
            .expect("run")
    };
    let reference = run(256);
    let errors: Vec<f64> = [8, 16, 32]
        .iter()
        .map(|&steps| max_abs_difference(&run(steps), &reference))
        .collect();
    let orders = [
        (errors[0] / errors[1]).log2(),
        (errors[1] / errors[2]).log2(),
    ];
    eprintln!("coarse {scheme:?} temporal orders {orders:.3?} (errors {errors:?})");
    (orders, errors)
}

#[test]
fn coarse_temporal_order_is_2_for_heun_and_3_for_ssp_rk3() {
    for (scheme, expected) in [(TimeScheme::Heun, 2.0), (TimeScheme::SspRk3, 3.0)] {
        let (orders, errors) = temporal_orders(scheme);
        for order in orders {
            assert!(
                (order - expected).abs() < 0.3,
                "{scheme:?}: order {order} ({errors:?})"
            );
        }
    }
}

/// `max |D u|·h / max |u|` after `steps` steps from a random state at Re 1000.
fn relative_divergence(precision: Precision, steps: usize) -> f64 {
    let n = 32;
    let solver = CoarseSolver::with_precision(n, 0.02, &backend::cpu(), precision)
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3);
    let omega = random_vorticity(n, 9, 6, 4.0).expect("ic");
    let start = velocity_from_vorticity(n, &omega).expect("velocity");
    let end = solver.advance_host(&start, 1e-3, steps).expect("run");
    let div = divergence(n, &end).expect("divergence");
    max_abs(&div) * super::grid::spacing(n) / max_abs(&end)
}

#[test]
fn coarse_velocity_stays_divergence_free() {
    let f32_divergence = relative_divergence(Precision::F32, 50);
    let f64_divergence = relative_divergence(Precision::F64, 50);
    eprintln!(
        "relative divergence after 50 steps: f32 {f32_divergence:.2e}, f64 {f64_divergence:.2e}"
    );
    assert!(f32_divergence < 1e-5, "f32: {f32_divergence:e}");
    assert!(f64_divergence < 1e-13, "f64: {f64_divergence:e}");
}

#[test]
fn coarse_agrees_with_spectral_on_a_smooth_run() {
    let (n_fine, reynolds, time) = (64, 100.0, 0.5);
    let omega = random_vorticity(n_fine, 2, 2, 1.5).expect("ic");
    let truth = SpectralSolver::unforced(n_fine, reynolds, 0.005)
        .and_then(|s| s.advance(&omega, (time / 0.005) as usize))
        .expect("truth");
    let errors: Vec<f64> = [16, 32]
        .iter()
        .map(|&n| {
            let start = coarse_from_fine(&omega, n_fine, n).expect("down-sample");
            let want = coarse_from_fine(&truth, n_fine, n).expect("down-sample");
            let got = f64_solver(n, 0.02)
                .with_forcing(0.0)
                .expect("no forcing")
                .advance_host(&start, 1.0 / reynolds, (time / 0.02) as usize)
                .expect("run");
            let difference: Vec<f64> = got.iter().zip(&want).map(|(a, b)| a - b).collect();
            rms(&difference) / rms(&want)
        })
        .collect();
    eprintln!(
        "coarse vs spectral relative rms error: N=16 {:.2e}, N=32 {:.2e}",
        errors[0], errors[1]
    );
    assert!(errors[1] < 1e-2, "N=32: {:e}", errors[1]);
    assert!(
        errors[0] / errors[1] > 3.0,
        "no second-order convergence: {errors:?}"
    );
}

/// A weighted loss of one step's output, `Σ w u² + Σ w_p p` on `N²`, and a direction to take
/// its directional derivative along: the set-up of the gradient tests.
pub(super) struct LossProbe {
    n: usize,
    direction: Vec<f64>,
    weights: Vec<f64>,
    pressure_weights: Vec<f64>,
}

impl LossProbe {
    /// The probe of an `N × N` grid.
    pub(super) fn new(n: usize) -> Self {
        Self {
            n,
            direction: (0..2 * n * n)
                .map(|m| ((m * 29 % 17) as f64 - 8.0) / 8.0)
                .collect(),
            weights: (0..2 * n * n)
                .map(|m| 1.0 + 0.3 * (m as f64).sin())
                .collect(),
            pressure_weights: (0..n * n).map(|m| (0.7 * m as f64).cos()).collect(),
        }
    }

    /// `state` plus a pattern that is not divergence-free (as after a network correction).
    pub(super) fn perturbed(state: &[f64]) -> Vec<f64> {
        state
            .iter()
            .enumerate()
            .map(|(m, w)| w + 0.1 * ((m * 13 % 7) as f64 - 3.0))
            .collect()
    }

    /// `start + eps·direction`.
    pub(super) fn shifted(&self, start: &[f64], eps: f64) -> Vec<f64> {
        start
            .iter()
            .zip(&self.direction)
            .map(|(s, d)| s + eps * d)
            .collect()
    }

    /// The loss of `velocity [1, 2, N, N]` and `pressure [1, 1, N, N]` on `device` (f64).
    pub(super) fn loss(
        &self,
        velocity: Tensor<4>,
        pressure: Tensor<4>,
        device: &burn::tensor::Device,
    ) -> Tensor<1> {
        let tensor = |values: &[f64], channels: usize| {
            Tensor::<4>::from_data(
                TensorData::new(values.to_vec(), [1, channels, self.n, self.n]),
                (device, Precision::F64.dtype()),
            )
        };
        (velocity.clone() * velocity * tensor(&self.weights, 2)).sum()
            + (pressure * tensor(&self.pressure_weights, 1)).sum()
    }

    /// The same loss of host values.
    fn host_loss(&self, velocity: &[f64], pressure: &[f64]) -> f64 {
        let kinetic: f64 = velocity
            .iter()
            .zip(&self.weights)
            .map(|(v, w)| w * v * v)
            .sum();
        let potential: f64 = pressure
            .iter()
            .zip(&self.pressure_weights)
            .map(|(p, w)| w * p)
            .sum();
        kinetic + potential
    }

    /// The directional derivative of the loss after one step of `solver` (on the f64 autodiff
    /// device) at `start`, by autodiff.
    pub(super) fn autodiff(
        &self,
        solver: &CoarseSolver,
        start: &[f64],
        viscosity: f64,
        device: &burn::tensor::Device,
    ) -> f64 {
        let input = solver
            .velocity_tensor(std::slice::from_ref(&start.to_vec()))
            .expect("tensor")
            .require_grad();
        let (velocity, pressure) = solver.step(input.clone(), viscosity);
        let grads = self.loss(velocity, pressure, device).backward();
        let gradient = read_values(input.grad(&grads).expect("gradient")).expect("read");
        gradient
            .iter()
            .zip(&self.direction)
            .map(|(g, d)| g * d)
            .sum()
    }
}

#[test]
fn gradient_through_one_coarse_step_matches_finite_differences() {
    let (n, dt, viscosity) = (8, 0.05, 0.02);
    let omega = random_vorticity(n, 4, 3, 2.0).expect("ic");
    // Not divergence-free on purpose: the projection's derivative is exercised too.
    let start = LossProbe::perturbed(&velocity_from_vorticity(n, &omega).expect("velocity"));
    let probe = LossProbe::new(n);
    let device = backend::cpu_autodiff();
    let solver = CoarseSolver::with_precision(n, dt, &device, Precision::F64)
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3);
    let autodiff = probe.autodiff(&solver, &start, viscosity, &device);
    // Central finite difference of the same loss on the plain f64 device.
    let plain = f64_solver(n, dt);
    let loss_at = |eps: f64| {
        let (velocity, pressure) = plain.step(
            plain
                .velocity_tensor(&[probe.shifted(&start, eps)])
                .expect("tensor"),
            viscosity,
        );
        probe.host_loss(
            &read_values(velocity).expect("read"),
            &read_values(pressure).expect("read"),
        )
    };
    let eps = 1e-5;
    let finite_difference = (loss_at(eps) - loss_at(-eps)) / (2.0 * eps);
    let relative = (autodiff - finite_difference).abs() / finite_difference.abs().max(1.0);
    eprintln!("directional derivative: autodiff {autodiff:.10e}, finite difference {finite_difference:.10e}, relative {relative:.1e}");
    assert!(
        relative < 1e-7,
        "autodiff {autodiff} vs finite difference {finite_difference}"
    );
}

#[test]
fn laminar_kolmogorov_mode_relaxes_to_its_discrete_steady_state() {
    // For u = U(y), v = 0 advection and projection vanish exactly, so each step is the RK
    // method on the affine ODE dU/dt = −νλU + f with λ = (4/h²)·sin²(3h) at k = 6: U − U_ss is
    // multiplied by the stability polynomial R(−z) (z = νλ·dt) per step, U_ss = f/(νλ).
    let (n, reynolds, dt, steps) = (32, 20.0, 0.02, 50);
    let h = super::grid::spacing(n);
    let omega = sample(n, |_, y| -reynolds / 6.0 * (6.0 * y).cos());
    let start = coarse_from_fine(&omega, n, n).expect("face averages");
    let lambda = 4.0 / (h * h) * (3.0 * h).sin().powi(2);
    let z = lambda / reynolds * dt;
    for (scheme, factor) in [
        (TimeScheme::Heun, 1.0 - z + z * z / 2.0),
        (TimeScheme::SspRk3, 1.0 - z + z * z / 2.0 - z * z * z / 6.0),
    ] {
        let end = f64_solver(n, dt)
            .with_scheme(scheme)
            .advance_host(&start, 1.0 / reynolds, steps)
            .expect("run");
        let decay = factor.powi(steps as i32);
        // The face-averaged laminar state is f/(36ν): U_ss = start·36/λ.
        let want: Vec<f64> = start
            .iter()
            .map(|&u0| {
                let steady = u0 * 36.0 / lambda;
                steady + (u0 - steady) * decay
            })
            .collect();
        let error = max_abs_difference(&end, &want) / max_abs(&want);
        let offset = 36.0 / lambda - 1.0;
        eprintln!("coarse laminar Kolmogorov ({scheme:?}): discrete steady state {offset:.3} above the truth; error {error:.2e}");
        assert!(error < 1e-12, "{scheme:?}: relative error {error:e}");
    }
}

/// Runs `solver` (32², Δt 0.02) 3000 steps (t = 60) at Re 1000 from a random state: it stays
/// finite, its vorticity rms below 25 and its divergence below 1e-5 of the velocity (`what` in
/// the printed line).
pub(super) fn assert_bounded_at_re_1000(solver: &CoarseSolver, what: &str) {
    let n = 32;
    let omega = random_vorticity(n, 21, 6, 4.0).expect("ic");
    let start = velocity_from_vorticity(n, &omega).expect("velocity");
    let end = solver.advance_host(&start, 1e-3, 3000).expect("run");
    assert!(end.iter().all(|v| v.is_finite()), "diverged");
    let curl = super::staggered::vorticity_from_velocity(n, &end).expect("curl");
    let relative_divergence =
        max_abs(&divergence(n, &end).expect("div")) * super::grid::spacing(n) / max_abs(&end);
    eprintln!(
        "{what}, Re 1000, 3000 steps (t = 60): vorticity rms {:.3} (start {:.3}), relative divergence {relative_divergence:.1e}",
        rms(&curl),
        rms(&omega)
    );
    assert!(rms(&curl) < 25.0, "vorticity rms {}", rms(&curl));
    assert!(relative_divergence < 1e-5);
}

#[test]
fn coarse_ssp_rk3_stays_bounded_at_re_1000_for_3000_steps() {
    let solver = CoarseSolver::new(32, 0.02, &backend::cpu())
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3);
    assert_bounded_at_re_1000(&solver, "coarse SSP-RK3");
}

#[test]
fn f32_and_autodiff_f32_steps_match_f64() {
    let n = 32;
    let omega = random_vorticity(n, 8, 5, 4.0).expect("ic");
    let start = velocity_from_vorticity(n, &omega).expect("velocity");
    let want = f64_solver(n, 0.02).step_host(&start, 1e-3).expect("f64");
    let scale = max_abs(&want);
    let plain = CoarseSolver::new(n, 0.02, &backend::cpu())
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3);
    let got = plain.step_host(&start, 1e-3).expect("f32");
    let error = max_abs_difference(&got, &want) / scale;
    // The training path: f32 on the autodiff device, batch 2, with a backward pass.
    let device = backend::cpu_autodiff();
    let solver = CoarseSolver::new(n, 0.02, &device)
        .expect("solver")
        .with_scheme(TimeScheme::SspRk3);
    let input = solver
        .velocity_tensor(&[start.clone(), start])
        .expect("tensor")
        .require_grad();
    let (velocity, pressure) = solver.step(input.clone(), 1e-3);
    assert_eq!(velocity.dims(), [2, 2, n, n]);
    assert_eq!(pressure.dims(), [2, 1, n, n]);
    let values = read_values(velocity.clone()).expect("read");
    let autodiff_error = max_abs_difference(&values[..2 * n * n], &want) / scale;
    let batch_difference = max_abs_difference(&values[..2 * n * n], &values[2 * n * n..]);
    let gradient = read_values(
        input
            .grad(&(velocity.clone() * velocity).sum().backward())
            .expect("gradient"),
    )
    .expect("read");
    let pressure_mean = read_values(pressure).expect("read")[..n * n]
        .iter()
        .sum::<f64>()
        / (n * n) as f64;
    eprintln!("f32 vs f64 one step: {error:.1e} (autodiff {autodiff_error:.1e}); pressure mean {pressure_mean:.1e}");
    assert!(error < 1e-5, "{error:e}");
    assert!(autodiff_error < 1e-5, "{autodiff_error:e}");
    assert_eq!(batch_difference, 0.0);
    assert!(gradient.iter().all(|g| g.is_finite()) && max_abs(&gradient) > 0.0);
    assert!(pressure_mean.abs() < 1e-4);
}
