//! Tests of the PISO coarse solver: projection, orders, laminar steady state, dissipation,
//! stability at Re 1000, and its two gradients.

use super::coarse::{read_values, CoarseSolver, TimeScheme};
use super::grid::{sample, spacing};
use super::initial::random_vorticity;
use super::piso_options::PisoGradient;
use super::staggered::{coarse_from_fine, divergence, velocity_from_vorticity};
use super::tests::{assert_bounded_at_re_1000, taylor_green_error_of, LossProbe};
use crate::backend;
use crate::metrics::{max_abs, max_abs_difference};
use crate::types::Precision;

fn piso(n: usize, dt: f64) -> CoarseSolver {
    let solver = CoarseSolver::with_precision(n, dt, &backend::cpu(), Precision::F64);
    let solver = solver.expect("solver");
    assert_eq!(solver.scheme(), TimeScheme::Piso, "PISO is the default");
    solver
}

/// A random divergence-free state `[2·N²]` of vorticity rms `amplitude`.
fn random_state(n: usize, seed: u64, amplitude: f64) -> Vec<f64> {
    let omega = random_vorticity(n, seed, 6, amplitude).expect("ic");
    velocity_from_vorticity(n, &omega).expect("velocity")
}

#[test]
fn piso_velocity_is_divergence_free_after_each_step() {
    let n = 32;
    let solver = piso(n, 0.02);
    // Not divergence-free at the start (as after a network correction).
    let mut state: Vec<f64> = random_state(n, 3, 4.0)
        .iter()
        .enumerate()
        .map(|(m, w)| w + 0.2 * ((m * 13 % 7) as f64 - 3.0))
        .collect();
    let mut worst: f64 = 0.0;
    for _ in 0..20 {
        state = solver.step_host(&state, 1e-3).expect("step");
        let relative = max_abs(&divergence(n, &state).expect("div")) * spacing(n) / max_abs(&state);
        worst = worst.max(relative);
    }
    eprintln!("PISO: max relative divergence over 20 steps {worst:.1e}");
    assert!(worst < 1e-13, "{worst:e}");
}

#[test]
fn piso_predictor_residual_is_small() {
    let n = 32;
    let solver = piso(n, 0.02);
    // Developed 32² flow has ω rms ≈ 3–5 in mostly low modes (wavenumbers ≤ 4 here); the
    // contraction worsens with the CFL number |u|·dt/h (rms 6: ≈ 3e-4, printed only).
    for (reynolds, amplitude) in [(300.0, 3.0), (1000.0, 4.0), (1000.0, 6.0)] {
        let omega = random_vorticity(n, 5, 4, amplitude).expect("ic");
        let start = velocity_from_vorticity(n, &omega).expect("velocity");
        let input = solver
            .velocity_tensor(std::slice::from_ref(&start))
            .expect("tensor");
        let residual =
            read_values(solver.piso_predictor_residual(input, 1.0 / reynolds)).expect("read");
        // Relative to the right-hand side uⁿ/dt.
        let relative = max_abs(&residual) * solver.dt() / max_abs(&start);
        eprintln!(
            "PISO predictor, Re {reynolds}, ω rms {amplitude}: relative residual {relative:.1e}"
        );
        if amplitude < 5.0 {
            assert!(relative < 1e-6, "Re {reynolds}: {relative:e}");
        }
    }
}

#[test]
fn piso_temporal_order_is_1() {
    let n = 16;
    let (horizon, viscosity) = (0.4, 0.01);
    let start = random_state(n, 5, 3.0);
    let run = |steps: usize| {
        piso(n, horizon / steps as f64)
            .advance_host(&start, viscosity, steps)
            .expect("run")
    };
    let runs: Vec<Vec<f64>> = [10, 20, 40, 80].iter().map(|&s| run(s)).collect();
    let differences: Vec<f64> = runs
        .windows(2)
        .map(|pair| max_abs_difference(&pair[0], &pair[1]))
        .collect();
    let orders: Vec<f64> = differences
        .windows(2)
        .map(|pair| (pair[0] / pair[1]).log2())
        .collect();
    eprintln!("PISO temporal orders (self-convergence) {orders:.3?} (differences {differences:?})");
    for order in orders {
        assert!((order - 1.0).abs() < 0.15, "order {order}");
    }
}

/// Max error of PISO against the decaying Taylor–Green vortex (face averages) at t = 0.2.
fn taylor_green_error(n: usize) -> f64 {
    let (dt, steps, viscosity) = (0.001, 200, 0.05);
    taylor_green_error_of(&piso(n, dt), n, dt, steps, viscosity)
}

#[test]
fn piso_spatial_order_is_2() {
    let errors: Vec<f64> = [16, 32, 64]
        .iter()
        .map(|&n| taylor_green_error(n))
        .collect();
    let orders = [
        (errors[0] / errors[1]).log2(),
        (errors[1] / errors[2]).log2(),
    ];
    eprintln!("PISO spatial orders {orders:.3?} (errors {errors:?})");
    for order in orders {
        assert!((order - 2.0).abs() < 0.25, "order {order} ({errors:?})");
    }
}

#[test]
fn piso_laminar_kolmogorov_state_is_steady() {
    // u = U(y), v = 0: advection and pressure vanish, the predictor's guess already solves
    // (1/dt − νΔ_h) U = U/dt + f when νλU = f, λ = (4/h²) sin²(3h) at k = 6. The exact laminar
    // solution of ν U'' + sin 6y = 0 is (Re/36) sin 6y; the discrete one is 36/λ times it.
    let n = 32;
    let h = spacing(n);
    let lambda = 4.0 / (h * h) * (3.0 * h).sin().powi(2);
    for reynolds in [20.0, 1000.0] {
        let omega = sample(n, |_, y| -reynolds / 6.0 * (6.0 * y).cos());
        let exact = coarse_from_fine(&omega, n, n).expect("face averages");
        let steady: Vec<f64> = exact.iter().map(|u| u * 36.0 / lambda).collect();
        let end = piso(n, 0.02)
            .advance_host(&steady, 1.0 / reynolds, 50)
            .expect("run");
        let error = max_abs_difference(&end, &steady) / max_abs(&steady);
        eprintln!(
            "PISO laminar Re {reynolds}: discrete steady state {:.4} above (Re/36) sin 6y; change after 50 steps {error:.1e}",
            36.0 / lambda - 1.0
        );
        assert!(error < 1e-12, "Re {reynolds}: {error:e}");
    }
}

#[test]
fn piso_dissipates_energy_where_the_inviscid_scheme_conserves_it() {
    let n = 32;
    let start = random_state(n, 9, 4.0);
    let energy = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>();
    let e0 = energy(&start);
    let run = |scheme: TimeScheme| {
        let solver = piso(n, 0.02).with_scheme(scheme).with_forcing(0.0);
        let solver = solver.expect("no forcing");
        let mut state = start.clone();
        let mut energies = vec![e0];
        for _ in 0..100 {
            state = solver.step_host(&state, 0.0).expect("step");
            energies.push(energy(&state));
        }
        energies
    };
    let piso_energies = run(TimeScheme::Piso);
    let rk3_energies = run(TimeScheme::SspRk3);
    let piso_loss = 1.0 - piso_energies[100] / e0;
    let rk3_loss = 1.0 - rk3_energies[100] / e0;
    eprintln!("ν = 0, 100 steps: PISO loses {piso_loss:.3e} of the energy, SSP-RK3 {rk3_loss:.1e}");
    assert!(
        piso_energies.windows(2).all(|p| p[1] < p[0]),
        "not monotone"
    );
    assert!(piso_loss > 1e-3, "{piso_loss:e}");
    assert!(rk3_loss.abs() < 0.01 * piso_loss, "{rk3_loss:e}");
}

#[test]
fn piso_stays_bounded_at_re_1000_for_3000_steps() {
    let solver = CoarseSolver::new(32, 0.02, &backend::cpu()).expect("solver");
    assert_bounded_at_re_1000(&solver, "PISO f32");
}

/// (autodiff, finite difference) of one step's directional derivative with `gradient`; the
/// finite difference freezes the advecting velocity and the guess at the start when
/// `frozen_advection`.
fn directional_derivatives(gradient: PisoGradient, frozen_advection: bool) -> (f64, f64) {
    let (n, dt, viscosity) = (8, 0.05, 0.02);
    let start = LossProbe::perturbed(&random_state(n, 4, 2.0));
    let probe = LossProbe::new(n);
    let device = backend::cpu_autodiff();
    let solver = CoarseSolver::with_precision(n, dt, &device, Precision::F64)
        .expect("solver")
        .with_gradient(gradient);
    let autodiff = probe.autodiff(&solver, &start, viscosity, &device);
    let plain_device = backend::cpu();
    let plain = piso(n, dt);
    let frozen = plain
        .velocity_tensor(std::slice::from_ref(&start))
        .expect("tensor");
    let loss_at = |eps: f64| {
        let shifted = plain
            .velocity_tensor(&[probe.shifted(&start, eps)])
            .expect("tensor");
        let (velocity, pressure) = if frozen_advection {
            plain.piso_with_advecting(shifted, frozen.clone(), frozen.clone(), viscosity)
        } else {
            plain.step(shifted, viscosity)
        };
        read_values(probe.loss(velocity, pressure, &plain_device)).expect("read")[0]
    };
    let eps = 1e-5;
    (autodiff, (loss_at(eps) - loss_at(-eps)) / (2.0 * eps))
}

#[test]
fn piso_exact_gradient_matches_finite_differences() {
    let (autodiff, finite_difference) = directional_derivatives(PisoGradient::Exact, false);
    let relative = (autodiff - finite_difference).abs() / finite_difference.abs().max(1.0);
    eprintln!("PISO exact gradient: autodiff {autodiff:.10e}, finite difference {finite_difference:.10e}, relative {relative:.1e}");
    assert!(relative < 1e-7, "{autodiff} vs {finite_difference}");
}

#[test]
fn piso_paper_gradient_is_the_frozen_advection_derivative() {
    let (autodiff, frozen) = directional_derivatives(PisoGradient::Paper, true);
    let relative = (autodiff - frozen).abs() / frozen.abs().max(1.0);
    let (exact, _) = directional_derivatives(PisoGradient::Exact, false);
    let gap = (autodiff - exact).abs() / exact.abs().max(1.0);
    eprintln!("PISO paper gradient: autodiff {autodiff:.10e}, frozen-advection finite difference {frozen:.10e} (relative {relative:.1e}); exact {exact:.10e} (relative gap {gap:.1e})");
    assert!(relative < 1e-7, "{autodiff} vs {frozen}");
    assert!(
        gap > 1e-4,
        "the paper's gradient should differ from the exact one: {gap:e}"
    );
}

#[test]
fn official_forcing_quirk_is_the_linspace_with_endpoint() {
    let n = 32;
    let exact = read_values(piso(n, 0.02).forcing_field()).expect("read");
    let official =
        read_values(piso(n, 0.02).with_official_forcing().forcing_field()).expect("read");
    let top = 12.0 * std::f64::consts::PI;
    for i in 0..n {
        let want = (top * i as f64 / (n - 1) as f64).sin();
        assert!((official[i * n + 5] - want).abs() < 1e-12, "row {i}");
        assert_eq!(official[n * n + i * n + 5], 0.0);
    }
    // The seam: the first and last rows are both sin(0) = sin(12π) ≈ 0.
    assert!(official[(n - 1) * n].abs() < 1e-12);
    let difference = max_abs_difference(&exact, &official);
    eprintln!(
        "official forcing quirk vs the face-averaged sin 6y on 32²: max difference {difference:.3}"
    );
    assert!(difference > 0.05);
}
