//! The Burgers solvers against independent references: the Cole–Hopf solution
//! `u = −2ν φ_x/φ` of `φ_t = ν φ_xx` (fine ETDRK4 to ≤ 1e-9, coarse ETD1 to first order),
//! measured orders in time and space, the tensor solver against the f64 reference (f32, autodiff
//! f32, f64), a gradient against finite differences, and the decay of the energy.

use super::config::*;
use super::data::{baseline_rollout, truth_frames};
use super::grid::Grid;
use super::reference::ReferenceSolver;
use super::tensor::{read_states, TensorSolver};
use crate::backend;
use crate::matrices::matrix_tensor;
use crate::metrics::{max_abs, max_abs_difference};
use crate::random_modes::RandomModes;
use crate::types::Precision;

/// `φ = a + Σ b_k cos(kx + θ_k) e^{−νk²t}` (`a > Σ|b_k|`), `u = −2ν φ_x/φ`.
struct ColeHopf {
    viscosity: f64,
    a: f64,
    /// `(k, b_k, θ_k)`.
    modes: Vec<(f64, f64, f64)>,
}

impl ColeHopf {
    fn single(viscosity: f64, a: f64, b: f64) -> Self {
        Self {
            viscosity,
            a,
            modes: vec![(1.0, b, 0.0)],
        }
    }

    fn multi(viscosity: f64) -> Self {
        Self {
            viscosity,
            a: 1.0,
            modes: vec![(1.0, 0.45, 0.3), (2.0, 0.25, 1.7), (3.0, 0.1, -0.4)],
        }
    }

    fn u(&self, x: f64, t: f64) -> f64 {
        let (mut phi, mut phi_x) = (self.a, 0.0);
        for &(k, b, theta) in &self.modes {
            let decay = (-self.viscosity * k * k * t).exp();
            phi += b * (k * x + theta).cos() * decay;
            phi_x -= k * b * (k * x + theta).sin() * decay;
        }
        -2.0 * self.viscosity * phi_x / phi
    }

    fn state(&self, resolution: usize, t: f64) -> Vec<f64> {
        let grid = Grid::new(resolution).expect("grid");
        grid.points().iter().map(|&x| self.u(x, t)).collect()
    }

    /// Max-norm error of `scheme` on `resolution` points with sub-step `h` at time `t`.
    fn error(&self, scheme: Scheme, resolution: usize, h: f64, t: f64) -> f64 {
        let substeps = (t / h).round() as usize;
        let solver = ReferenceSolver::new(BurgersConfig {
            scheme,
            viscosity: self.viscosity,
            resolution,
            substep: h,
            substeps,
        })
        .expect("solver");
        max_abs_difference(
            &solver.step(&self.state(resolution, 0.0)),
            &self.state(resolution, t),
        )
    }
}

#[test]
fn fine_solver_matches_cole_hopf_to_1e9() {
    for (name, exact) in [
        ("single ν=0.1", ColeHopf::single(0.1, 1.0, 0.9)),
        ("single ν=0.3", ColeHopf::single(0.3, 1.0, 0.8)),
        ("multi ν=0.1", ColeHopf::multi(0.1)),
        ("steep ν=0.2", ColeHopf::single(0.2, 1.0, 0.97)),
    ] {
        let solver = ReferenceSolver::new(BurgersConfig::truth(exact.viscosity)).expect("solver");
        let steps = 20;
        let (states, diverged) = solver.trajectory(&exact.state(FINE_RESOLUTION, 0.0), steps);
        assert_eq!(diverged, None);
        let t = steps as f64 * TIME_STEP;
        let want = exact.state(FINE_RESOLUTION, t);
        let error = max_abs_difference(&states[steps], &want);
        eprintln!(
            "{name}: amplitude {:.3}, max error at t = {t}: {error:.2e}",
            max_abs(&want)
        );
        // ETDRK4's own error at h = 0.01: ~1e-11 for the smooth cases, 3e-10 for the steep one.
        assert!(error < 1e-9, "{name}: {error:e}");
    }
}

#[test]
fn coarse_etd1_is_first_order_against_cole_hopf() {
    let exact = ColeHopf::single(0.2, 1.0, 0.6);
    let t = 2.0;
    let study = exact.error(Scheme::Etd1, COARSE_RESOLUTION, TIME_STEP, t);
    let half = exact.error(Scheme::Etd1, COARSE_RESOLUTION, TIME_STEP / 2.0, t);
    let quarter = exact.error(Scheme::Etd1, COARSE_RESOLUTION, TIME_STEP / 4.0, t);
    let amplitude = max_abs(&exact.state(COARSE_RESOLUTION, t));
    let orders = [(study / half).log2(), (half / quarter).log2()];
    eprintln!(
        "ETD1 on 48 points, amplitude {amplitude:.3}: errors {study:.3e}, {half:.3e}, \
         {quarter:.3e}; orders {orders:.3?}"
    );
    assert!(study < 0.05 * amplitude, "{study:e}");
    for order in orders {
        assert!((order - 1.0).abs() < 0.15, "order {order}");
    }
}

#[test]
fn measured_temporal_orders_are_4_and_1() {
    let exact = ColeHopf::multi(0.3);
    let (n, t) = (96, 2.0);
    for (scheme, order, h) in [(Scheme::Etdrk4, 4.0, 0.2), (Scheme::Etd1, 1.0, 0.02)] {
        let e1 = exact.error(scheme, n, h, t);
        let e2 = exact.error(scheme, n, h / 2.0, t);
        let e3 = exact.error(scheme, n, h / 4.0, t);
        let measured = [(e1 / e2).log2(), (e2 / e3).log2()];
        eprintln!("{scheme:?}: errors {e1:.3e} {e2:.3e} {e3:.3e}, orders {measured:.3?}");
        for m in measured {
            assert!((m - order).abs() < 0.3, "{scheme:?}: order {m}");
        }
    }
}

#[test]
fn spatial_error_falls_exponentially_with_resolution() {
    let exact = ColeHopf::single(0.1, 1.0, 0.9);
    let t = 1.0;
    let errors: Vec<(usize, f64)> = [18, 24, 30, 36, 42, 48]
        .into_iter()
        .map(|n| (n, exact.error(Scheme::Etdrk4, n, 0.01, t)))
        .collect();
    // Spectral: the same factor per 6 points (two more kept modes; the analytic rate is
    // e^{−2·acosh(a/b)} = 0.39); an algebraic order p would give factors (N/(N+6))^p → 1.
    let factors: Vec<f64> = errors.windows(2).map(|w| w[1].1 / w[0].1).collect();
    eprintln!("errors by N: {errors:?}; factor per 6 points {factors:.3?}");
    let (low, high) = factors
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &f| {
            (lo.min(f), hi.max(f))
        });
    assert!(high < 0.4, "{factors:?}");
    assert!(high < 1.25 * low, "not geometric: {factors:?}");
}

fn sample_states() -> Vec<Vec<f64>> {
    let mut states = Vec::new();
    for (index, ic) in RandomModes::family(11, 3).iter().enumerate() {
        let frames = truth_frames(TRAIN_VISCOSITIES[index], ic, 0, 30).expect("truth");
        states.push(frames[0].clone());
        states.push(frames[29].clone());
    }
    states
}

fn compare_tensor_with_reference(device: &burn::tensor::Device, precision: Precision) -> f64 {
    let states = sample_states();
    let mut worst = 0.0f64;
    for nu in [0.02, 0.08] {
        let config = BurgersConfig::coarse(nu);
        let reference = ReferenceSolver::new(config).expect("reference");
        let solver = TensorSolver::new(config, device, precision).expect("solver");
        let got = read_states(solver.step(solver.states(&states))).expect("read");
        for (state, row) in states.iter().zip(&got) {
            worst = worst.max(max_abs_difference(row, &reference.step(state)));
        }
    }
    worst
}

#[test]
fn tensor_steps_equal_the_reference_etd1() {
    let f64_error = compare_tensor_with_reference(&backend::cpu(), Precision::F64);
    let f32_error = compare_tensor_with_reference(&backend::cpu(), Precision::F32);
    let autodiff = compare_tensor_with_reference(&backend::cpu_autodiff(), Precision::F32);
    eprintln!("tensor − reference ETD1: f64 {f64_error:.2e}, f32 {f32_error:.2e}, autodiff f32 {autodiff:.2e}");
    assert!(f64_error < 1e-13, "{f64_error:e}");
    assert!(f32_error < 2e-6, "{f32_error:e}");
    assert!(autodiff < 2e-6, "{autodiff:e}");
    let etdrk4 = BurgersConfig {
        resolution: COARSE_RESOLUTION,
        ..BurgersConfig::truth(0.05)
    };
    assert!(TensorSolver::new(etdrk4, &backend::cpu(), Precision::F32).is_err());
}

#[test]
fn gradient_through_one_f64_step_matches_finite_differences() {
    let n = COARSE_RESOLUTION;
    let config = BurgersConfig::coarse(0.03);
    let device = backend::cpu_autodiff();
    let solver = TensorSolver::new(config, &device, Precision::F64).expect("solver");
    let u0 = sample_states()[1].clone();
    let weights: Vec<f64> = (0..n).map(|j| 1.0 + 0.3 * (j as f64).sin()).collect();
    let u = solver.states(std::slice::from_ref(&u0)).require_grad();
    let w = matrix_tensor(weights.clone(), [1, n], &device, Precision::F64);
    let out = solver.step(u.clone());
    let grads = (out.clone() * out * w).sum().backward();
    let gradient = read_states(u.grad(&grads).expect("gradient")).expect("read");
    let reference = ReferenceSolver::new(config).expect("reference");
    let loss = |v: &[f64]| -> f64 {
        reference
            .step(v)
            .iter()
            .zip(&weights)
            .map(|(x, w)| w * x * x)
            .sum()
    };
    let eps = 1e-6;
    let mut worst = 0.0f64;
    for j in 0..n {
        let (mut plus, mut minus) = (u0.clone(), u0.clone());
        plus[j] += eps;
        minus[j] -= eps;
        let fd = (loss(&plus) - loss(&minus)) / (2.0 * eps);
        let got = gradient[0][j];
        worst = worst.max((got - fd).abs() / fd.abs().max(1.0));
    }
    eprintln!("gradient vs finite differences: worst relative difference {worst:.2e}");
    assert!(worst < 1e-7, "{worst:e}");
}

fn energy(u: &[f64]) -> f64 {
    u.iter().map(|v| v * v).sum::<f64>() / u.len() as f64
}

#[test]
fn energy_decays_monotonically() {
    for (index, ic) in RandomModes::family(5, 4).iter().enumerate() {
        let nu = TRAIN_VISCOSITIES[index];
        let solver = ReferenceSolver::new(BurgersConfig::truth(nu)).expect("solver");
        let (fine, _) = solver.trajectory(
            &ic.at(&Grid::new(FINE_RESOLUTION).expect("grid").points()),
            200,
        );
        let energies: Vec<f64> = fine.iter().map(|u| energy(u)).collect();
        for w in energies.windows(2) {
            assert!(w[1] < w[0], "ν = {nu}: {} then {}", w[0], w[1]);
        }
        // The rate is −2ν mean(u_x²) < 0; at t = 10 most of the energy is gone into the fronts.
        assert!(energies[200] < 0.8 * energies[0], "ν = {nu}");
        let coarse = baseline_rollout(
            &[vec![super::data::downsample(&fine[0]).expect("coarse")]],
            nu,
            200,
        )
        .expect("baseline");
        let coarse_energies: Vec<f64> = coarse[0].iter().map(|u| energy(u)).collect();
        for w in coarse_energies.windows(2) {
            assert!(w[1] < w[0], "coarse ETD1, ν = {nu}: {} then {}", w[0], w[1]);
        }
    }
}

/// The truth's own error at the smallest accepted ν: the study's fine solver against one with
/// twice the points and half the sub-step, at the coarse points after 3 time units.
#[test]
fn truth_is_converged_at_the_smallest_viscosity() {
    let nu = *VISCOSITY_RANGE.start();
    let study = BurgersConfig::truth(nu);
    let finer = BurgersConfig {
        resolution: 2 * study.resolution,
        substep: study.substep / 2.0,
        substeps: 2 * study.substeps,
        ..study
    };
    let steps = (3.0 / TIME_STEP).round() as usize;
    let mut worst = 0.0f64;
    for ic in RandomModes::family(TRAIN_SEED, 3) {
        let run = |config: BurgersConfig| -> Vec<f64> {
            let solver = ReferenceSolver::new(config).expect("solver");
            let u0 = ic.at(&Grid::new(config.resolution).expect("grid").points());
            super::data::downsample(&solver.trajectory(&u0, steps).0[steps]).expect("coarse")
        };
        let (a, b) = (run(study), run(finer));
        worst = worst.max(max_abs_difference(&a, &b) / max_abs(&b));
    }
    eprintln!("truth at ν = {nu}: relative max difference to the 2× finer solver {worst:.2e}");
    assert!(worst < 1e-4, "{worst:e}");
}

/// The coarse solver alone: stable for 2000 steps at the smallest ν, and its relative error
/// over the study's horizon (12 steps) is what the network is to correct.
#[test]
fn baseline_is_stable_and_its_error_shrinks_with_viscosity() {
    use crate::metrics::{relative_error, ERROR_HORIZON};
    let mut means = Vec::new();
    for nu in TRAIN_VISCOSITIES.into_iter().chain(TEST_VISCOSITIES) {
        let errors: Vec<f64> = (0..4)
            .map(|test| {
                let truth =
                    super::data::test_truth(nu, TEST_SEED, test, 0, ERROR_HORIZON).expect("truth");
                let baseline =
                    baseline_rollout(std::slice::from_ref(&truth), nu, ERROR_HORIZON).expect("run");
                relative_error(&truth, &baseline[0], ERROR_HORIZON)
            })
            .collect();
        means.push((nu, errors.iter().sum::<f64>() / errors.len() as f64));
    }
    let listed: Vec<String> = means
        .iter()
        .map(|(nu, e)| format!("{nu}: {e:.2e}"))
        .collect();
    eprintln!(
        "baseline relative error (H = 12) by ν: {}",
        listed.join(", ")
    );
    means.sort_by(|a, b| a.0.total_cmp(&b.0));
    for w in means.windows(2) {
        assert!(w[1].1 < w[0].1, "{means:?}");
    }
    assert!(means[0].1 > 1e-3 && means[0].1 < 0.05, "{means:?}");
    let nu = *VISCOSITY_RANGE.start();
    for test in 0..4 {
        let truth = super::data::test_truth(nu, TEST_SEED + 1, test, 0, 0).expect("truth");
        let long = baseline_rollout(&[truth], nu, 2000).expect("run");
        assert!(
            long[0].iter().flatten().all(|v| v.is_finite()),
            "test {test}"
        );
    }
}
