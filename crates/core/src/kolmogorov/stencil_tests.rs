//! Tests of the fused PISO stencil against its composite, alone and inside whole PISO steps
//! (f32 on the CPU backend, both gradients and both diagonals), and of the advective diagonal.

use burn::tensor::{Tensor, TensorData};

use super::coarse::{read_values, CoarseSolver};
use super::initial::random_vorticity;
use super::piso_options::{PisoDiagonal, PisoGradient};
use super::staggered::{divergence, velocity_from_vorticity};
use super::stencil::{composite_stencil, stencil, FUSED_CALLS};
use crate::backend;
use crate::nets::fusion::{set_fusion, Fusion};
use crate::types::Precision;

/// `len` deterministic values in [−1, 1) of seed `seed`.
fn noise(seed: u64, len: usize) -> Vec<f64> {
    (0..len)
        .map(|m| {
            let t = ((m as f64 + 0.5) * 12.9898 + seed as f64 * 78.233).sin() * 43758.5453;
            2.0 * t.fract().abs() - 1.0
        })
        .collect()
}

/// Max |a − b| over max |b|.
fn relative_difference(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().map(|v| v.abs()).fold(0.0, f64::max).max(1e-30);
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
        / scale
}

fn f32_tensor(values: Vec<f64>, shape: [usize; 4], device: &burn::tensor::Device) -> Tensor<4> {
    Tensor::<4>::from_data(
        TensorData::new(values, shape),
        (device, Precision::F32.dtype()),
    )
}

/// Forward values and the gradients of `Σ w ⊙ y` w.r.t. `x, s, r, q` of one stencil call.
fn stencil_run(fused: bool) -> Vec<Vec<f64>> {
    let (b, n) = (2, 8);
    let device = backend::cpu_autodiff();
    let field = |seed: u64, channels: usize, offset: f64| {
        let values = noise(seed, b * channels * n * n)
            .into_iter()
            .map(|v| v + offset)
            .collect();
        f32_tensor(values, [b, channels, n, n], &device).require_grad()
    };
    let (x, s, r, q) = (
        field(1, 2, 0.0),
        field(2, 10, 0.0),
        field(3, 2, 0.0),
        field(4, 2, 2.0),
    );
    let weights = field(5, 2, 0.0).detach();
    let y = if fused {
        stencil(x.clone(), s.clone(), r.clone(), q.clone())
    } else {
        composite_stencil(x.clone(), s.clone(), r.clone(), q.clone())
    };
    let grads = (y.clone() * weights).sum().backward();
    let mut out = vec![read_values(y).expect("read")];
    for input in [x, s, r, q] {
        out.push(read_values(input.grad(&grads).expect("grad")).expect("read"));
    }
    out
}

#[test]
fn fused_stencil_matches_the_composite_forward_and_backward() {
    let before = FUSED_CALLS.with(|c| c.get());
    let fused = stencil_run(true);
    assert_eq!(
        FUSED_CALLS.with(|c| c.get()),
        before + 1,
        "fused path taken"
    );
    let composite = stencil_run(false);
    for (name, (a, b)) in ["y", "dx", "ds", "dr", "dq"]
        .iter()
        .zip(fused.iter().zip(&composite))
    {
        let difference = relative_difference(a, b);
        eprintln!("stencil {name}: fused vs composite, relative {difference:.1e}");
        assert!(difference < 1e-6, "{name}: {difference:e}");
    }
}

/// A 32² state that is not divergence-free (as after a network correction): a developed-like
/// field plus `amplitude` × noise on every face value, `[2·N²]`.
fn perturbed_state(n: usize, amplitude: f64) -> Vec<f64> {
    let omega = random_vorticity(n, 7, 4, 4.0).expect("ic");
    velocity_from_vorticity(n, &omega)
        .expect("velocity")
        .iter()
        .zip(noise(11, 2 * n * n))
        .map(|(v, e)| v + amplitude * e)
        .collect()
}

/// One f32 PISO step at Re 500 with `fusion`: velocity, pressure, and the gradient of a
/// weighted sum of both w.r.t. the input.
fn piso_run(gradient: PisoGradient, diagonal: PisoDiagonal, fusion: Fusion) -> Vec<Vec<f64>> {
    let n = 32;
    let device = backend::cpu_autodiff();
    let solver = CoarseSolver::new(n, 0.02, &device)
        .expect("solver")
        .with_gradient(gradient)
        .with_diagonal(diagonal);
    let input = solver
        .velocity_tensor(&[perturbed_state(n, 0.05)])
        .expect("tensor")
        .require_grad();
    set_fusion(fusion);
    let (velocity, pressure) = solver.step(input.clone(), 1.0 / 500.0);
    set_fusion(Fusion::Block);
    let w = f32_tensor(noise(3, 2 * n * n), [1, 2, n, n], &device);
    let w_p = f32_tensor(noise(4, n * n), [1, 1, n, n], &device);
    let loss = (velocity.clone() * w).sum() + (pressure.clone() * w_p).sum();
    let grads = loss.backward();
    vec![
        read_values(velocity).expect("read"),
        read_values(pressure).expect("read"),
        read_values(input.grad(&grads).expect("grad")).expect("read"),
    ]
}

#[test]
fn fused_piso_step_matches_the_composite_for_both_gradients_and_diagonals() {
    for gradient in [PisoGradient::Paper, PisoGradient::Exact] {
        for diagonal in [PisoDiagonal::Constant, PisoDiagonal::Advective] {
            let before = FUSED_CALLS.with(|c| c.get());
            let fused = piso_run(gradient, diagonal, Fusion::Block);
            assert!(
                FUSED_CALLS.with(|c| c.get()) >= before + 17,
                "fused path taken"
            );
            let composite = piso_run(gradient, diagonal, Fusion::Composite);
            for (name, (a, b)) in ["velocity", "pressure", "input gradient"]
                .iter()
                .zip(fused.iter().zip(&composite))
            {
                let difference = relative_difference(a, b);
                eprintln!(
                    "PISO {} {diagonal:?} {name}: fused vs composite, relative {difference:.1e}",
                    gradient.name()
                );
                assert!(difference < 1e-5, "{name}: {difference:e}");
            }
        }
    }
}

/// f64 PISO steps of `state` with each diagonal: (constant, advective) velocities.
fn both_diagonals(state: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = 32;
    let solver =
        CoarseSolver::with_precision(n, 0.02, &backend::cpu(), Precision::F64).expect("solver");
    let constant = solver.step_host(state, 1.0 / 1000.0).expect("step");
    let advective = solver
        .with_diagonal(PisoDiagonal::Advective)
        .step_host(state, 1.0 / 1000.0)
        .expect("step");
    (constant, advective)
}

#[test]
fn advective_diagonal_agrees_on_solenoidal_states_and_projects_the_others() {
    let n = 32;
    let omega = random_vorticity(n, 7, 4, 4.0).expect("ic");
    let solenoidal = velocity_from_vorticity(n, &omega).expect("velocity");
    let (constant, advective) = both_diagonals(&solenoidal);
    let same = relative_difference(&advective, &constant);
    let (small_c, small_a) = both_diagonals(&perturbed_state(n, 0.005));
    let small = relative_difference(&small_a, &small_c);
    let (constant_p, advective_p) = both_diagonals(&perturbed_state(n, 0.05));
    let apart = relative_difference(&advective_p, &constant_p);
    let div = divergence(n, &advective_p).expect("div");
    let relative_divergence = div.iter().map(|d| d.abs()).fold(0.0, f64::max)
        * (std::f64::consts::TAU / n as f64)
        / advective_p.iter().map(|v| v.abs()).fold(0.0, f64::max);
    eprintln!(
        "advective vs constant diagonal, one step at Re 1000 (max |u| {:.2}): solenoidal input \
         {same:.1e}, ±0.005 noise {small:.1e}, ±0.05 noise {apart:.1e}; advective output's \
         relative divergence {relative_divergence:.1e}",
        solenoidal.iter().map(|v| v.abs()).fold(0.0, f64::max)
    );
    // First order in the perturbation's divergence (`δ` multiplies the corrector's whole
    // pressure gradient): 10× the noise, ≈ 10× the difference.
    assert!(
        (5.0..20.0).contains(&(apart / small)),
        "{small:e} → {apart:e}"
    );
    assert!(apart < 1e-3, "{apart:e}");
    assert!(same < 1e-9, "{same:e}");
    assert!(apart > 1e-6, "{apart:e}");
    assert!(relative_divergence < 1e-6, "{relative_divergence:e}");
}
