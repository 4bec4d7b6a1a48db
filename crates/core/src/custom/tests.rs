//! The named members of the family against the dedicated systems (to round-off, f64) and
//! against their published behaviour, each integrator's measured order on the generic path,
//! and the physics checks' messages.

use super::initial::RandomModes;
use super::operators::wavenumbers;
use super::solver::{largest, Solver};
use super::tensor::{read_states, TensorSolver};
use super::validate::check;
use super::CustomError;
use crate::backend;
use crate::types::{Equation, Integrator, Precision};

fn equation(text: &str) -> Equation {
    Equation::parse(text).unwrap_or_else(|err| panic!("{text}: {err}"))
}

fn max_difference(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// KS as the paper sets it up: ETRK2 double steps, no dealiasing, ETD1 double steps.
const KS: &str = "a2=-1,a4=-1,b=-1;scheme=etrk2;substeps=2;dealias=off;coarse=2";

/// KS typed as an equation at `L = 8·s` is the KS system: its ETRK2 truth, its ETD1 coarse
/// solver (f64 reference and f64 tensor matmuls) agree step by step to round-off.
#[test]
fn generic_ks_equals_the_ks_system() {
    use crate::ks::{self, KsConfig, Scheme};
    let device = backend::cpu();
    for scale in [0.9, 1.3] {
        let generic = equation(KS).at(8.0 * scale);
        let grid = KsConfig::paper(Scheme::Etrk2, scale).grid();
        let u0 = ks::initial::train_ic(&grid, 3).expect("ic");
        for (scheme, ours) in [
            (Scheme::Etrk2, Solver::truth(&generic)),
            (Scheme::Etd1, Solver::coarse(&generic)),
        ] {
            let theirs = ks::ReferenceSolver::new(KsConfig::paper(scheme, scale)).expect("ks");
            let (mut a, mut b) = (u0.clone(), u0.clone());
            for step in 0..20 {
                a = ours.step(&a);
                b = theirs.step(&b);
                let scale = largest(&b).max(1.0);
                let d = max_difference(&a, &b);
                assert!(
                    d <= 1e-11 * scale,
                    "{scheme:?} s = {scale} step {step}: {d:e}"
                );
            }
        }
        let config = KsConfig::paper(Scheme::Etd1, scale);
        let theirs = ks::TensorSolver::new(config, &device, Precision::F64).expect("ks tensor");
        let ours = TensorSolver::new(&generic, &device, Precision::F64);
        let rows = vec![u0.clone()];
        let a = read_states(ours.step(ours.states(&rows))).expect("read");
        let b = ks::tensor::read_rows(theirs.step(theirs.states(&rows))).expect("read");
        assert!(max_difference(&a[0], &b[0]) < 1e-12, "tensor ETD1");
        assert!(max_difference(&a[0], &Solver::coarse(&generic).step(&u0)) < 1e-12);
    }
}

/// Viscous Burgers typed as an equation (`a2 = ν`, `b = −1`, `L = 1`, the Burgers system's
/// fine ETDRK4 truth on 8·48 points and ETD1 at Δt = 0.1) is the Burgers system.
#[test]
fn generic_burgers_equals_the_burgers_system() {
    use crate::burgers::{self, BurgersConfig};
    let device = backend::cpu();
    let generic = equation("a2=0.02,b=-1;L=1;dt=0.1;substeps=10;fine=8;vary=a2");
    let ic = burgers::data::train_ic(2).expect("ic");
    for (fine, ours, config) in [
        (true, Solver::truth(&generic), BurgersConfig::truth(0.02)),
        (false, Solver::coarse(&generic), BurgersConfig::coarse(0.02)),
    ] {
        let theirs = burgers::ReferenceSolver::new(config).expect("burgers");
        let grid = burgers::Grid::new(config.resolution).expect("grid");
        let u0 = ic.at(&grid.points());
        let ours_u0 = RandomModes::nth(super::initial::TRAIN_SEED, 0).state(ours.points());
        assert_eq!(ours_u0.len(), u0.len());
        let (mut a, mut b) = (u0.clone(), u0);
        for step in 0..30 {
            a = ours.step(&a);
            b = theirs.step(&b);
            let d = max_difference(&a, &b);
            assert!(d <= 1e-12, "fine {fine} step {step}: {d:e}");
        }
    }
    let theirs = burgers::TensorSolver::new(BurgersConfig::coarse(0.02), &device, Precision::F64)
        .expect("tensor");
    let ours = TensorSolver::new(&generic, &device, Precision::F64);
    let rows = vec![ic.at(&burgers::Grid::new(48).expect("grid").points())];
    let a = read_states(ours.step(ours.states(&rows))).expect("read");
    let b = burgers::tensor::read_states(theirs.step(theirs.states(&rows))).expect("read");
    assert!(max_difference(&a[0], &b[0]) < 1e-13);
}

/// The centre of a single bump from the phase of its first Fourier mode: `x = −L·arg û₁`.
fn centre(u: &[f64], length: f64) -> f64 {
    let n = u.len() as f64;
    let (re, im) = u.iter().enumerate().fold((0.0, 0.0), |(re, im), (j, v)| {
        let theta = std::f64::consts::TAU * j as f64 / n;
        (re + v * theta.cos(), im - v * theta.sin())
    });
    -length * im.atan2(re)
}

/// KdV `u_t = −6 u u_x − u_xxx` (`b = −6`, `a3 = −1`): the soliton
/// `u = (c/2) sech²(√c/2 (x − ct))` moves at its speed `c = 1`.
#[test]
fn kdv_soliton_moves_at_its_analytic_speed() {
    let kdv = equation("a3=-1,b=-6;L=5;N=128;dt=0.5;substeps=20");
    let (c, length) = (1.0_f64, 5.0);
    let period = std::f64::consts::TAU * length;
    let x0 = period / 2.0;
    let u0: Vec<f64> = (0..128)
        .map(|j| {
            let x = period * j as f64 / 128.0;
            0.5 * c / (0.5 * c.sqrt() * (x - x0)).cosh().powi(2)
        })
        .collect();
    let solver = Solver::truth(&kdv);
    let (states, stopped) = solver.trajectory(&u0, 20);
    assert_eq!(stopped, None);
    let travelled = centre(&states[20], length) - centre(&u0, length);
    let travelled = travelled.rem_euclid(period);
    let speed = travelled / 10.0;
    eprintln!("KdV soliton speed {speed:.6} (analytic {c})");
    assert!((speed - c).abs() < 1e-3, "speed {speed}");
    let peak = states[20].iter().copied().fold(f64::MIN, f64::max);
    assert!(
        (peak - 0.5 * c).abs() < 1e-3,
        "the soliton keeps its height: {peak}"
    );
}

/// Where `u` crosses 0.5 going right from the plateau's centre `x = πL` (linear interpolation).
fn front(u: &[f64], period: f64) -> f64 {
    let n = u.len();
    let dx = period / n as f64;
    for j in n / 2..n - 1 {
        if u[j] >= 0.5 && u[j + 1] < 0.5 {
            return (j as f64 + (u[j] - 0.5) / (u[j] - u[j + 1])) * dx;
        }
    }
    f64::NAN
}

/// Fisher–KPP `u_t = D u_xx + r u (1 − u)` (`a2 = D`, `a0 = r`, `d = −r`): a pulled front
/// moves at `2√(Dr)`, less Bramson's logarithmic delay `(3/2)·ln t` (D = r = 1) over the
/// window. The window ends at t = 30: the unstable state `u = 0` ahead of the front amplifies
/// round-off by `e^t`, and a negative value runs away (`u_t = u − u²`) near t ≈ 37.
#[test]
fn fisher_kpp_front_moves_at_two_root_dr() {
    let (d, r) = (1.0_f64, 1.0_f64);
    let fisher = equation("a0=1,a2=1,d=-1;L=40;N=1024;dt=1;substeps=20;dealias=off");
    let period = std::f64::consts::TAU * 40.0;
    let u0: Vec<f64> = (0..1024)
        .map(|j| {
            let x = period * j as f64 / 1024.0 - period / 2.0;
            0.5 * ((x + 10.0).tanh() - (x - 10.0).tanh())
        })
        .collect();
    let (states, stopped) = Solver::truth(&fisher).trajectory(&u0, 30);
    assert_eq!(stopped, None);
    let speed = (front(&states[30], period) - front(&states[15], period)) / 15.0;
    let bramson = 2.0 * (d * r).sqrt() - 1.5 * 2f64.ln() / 15.0;
    eprintln!("Fisher–KPP front speed {speed:.4} (2√(Dr) = 2, with Bramson's term {bramson:.4})");
    assert!((speed - 2.0).abs() < 0.1, "speed {speed}");
    assert!((speed - bramson).abs() < 0.02, "speed {speed} vs {bramson}");
}

/// Linear advection–diffusion `u_t = −v u_x + ν u_xx` (`a1 = −v`, `a2 = ν`): every integrator
/// is exact on a linear equation, so each matches `Σ e^{(−ivk − νk²)t} û_k` to round-off.
#[test]
fn advection_diffusion_matches_its_exact_solution() {
    let (v, nu, length, n) = (0.7, 0.05, 2.0, 64);
    for scheme in Integrator::ALL {
        let text = format!(
            "a1={},a2={nu};L={length};N={n};dt=0.25;scheme={scheme};substeps=1",
            -v
        );
        let eq = equation(&text);
        let k = wavenumbers(n, length);
        let modes = [(1usize, 0.8, 0.3), (3, 0.4, 1.1), (7, 0.2, 2.0)];
        let at = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|j| {
                    let theta = std::f64::consts::TAU * j as f64 / n as f64;
                    modes
                        .iter()
                        .map(|&(m, a, phase)| {
                            let decay = (-nu * k[m] * k[m] * t).exp();
                            a * decay * (m as f64 * theta + phase - v * k[m] * t).cos()
                        })
                        .sum()
                })
                .collect()
        };
        let (states, _) = Solver::truth(&eq).trajectory(&at(0.0), 40);
        let d = max_difference(&states[40], &at(10.0));
        assert!(d < 1e-12, "{scheme}: {d:e}");
    }
}

/// Error at `t = 2` of `integrator` with `substeps` sub-steps on KdV–Burgers–KS-like
/// `a2 = −1, a3 = −0.3, a4 = −1, b = −1, c = 0.2, e = −0.05` (every kind of term).
fn order_error(integrator: Integrator, substeps: usize, reference: &[f64]) -> f64 {
    let text = format!(
        "a2=-1,a3=-0.3,a4=-1,b=-1,c=0.2,e=-0.05;N=32;dt=2;scheme={integrator};substeps={substeps}"
    );
    let u0 = RandomModes::nth(7, 0).state(32);
    max_difference(&Solver::truth(&equation(&text)).step(&u0), reference)
}

/// Each integrator's measured order on the generic path (halving the sub-step).
#[test]
fn measured_orders_are_one_two_and_four() {
    let text = "a2=-1,a3=-0.3,a4=-1,b=-1,c=0.2,e=-0.05;N=32;dt=2;substeps=1000";
    let reference = Solver::truth(&equation(text)).step(&RandomModes::nth(7, 0).state(32));
    for (integrator, order, substeps) in [
        (Integrator::Etd1, 1.0, 80),
        (Integrator::Etrk2, 2.0, 40),
        (Integrator::Etdrk4, 4.0, 10),
    ] {
        let e1 = order_error(integrator, substeps, &reference);
        let e2 = order_error(integrator, 2 * substeps, &reference);
        let measured = (e1 / e2).log2();
        eprintln!("{integrator}: order {measured:.3} (errors {e1:.3e}, {e2:.3e})");
        assert!((measured - order).abs() < 0.2, "{integrator}: {measured}");
    }
}

/// Swift–Hohenberg `u_t = r u − (1 + ∂ₓ²)² u + g u² − u³` (`a0 = r − 1`, `a2 = −2`, `a4 = −1`,
/// `d = g`, `e = −1`) at `r = 0.2`: from a small state it settles into rolls of wavenumber 1
/// (mode `L` on period `2πL`) with amplitude near `√(4r/3)`.
#[test]
fn swift_hohenberg_settles_into_its_pattern() {
    let sh = equation("a0=-0.8,a2=-2,a4=-1,d=0.1,e=-1;L=8;N=64;dt=1;substeps=4");
    let u0: Vec<f64> = RandomModes::nth(3, 0)
        .state(64)
        .iter()
        .map(|v| 0.01 * v)
        .collect();
    let (states, stopped) = Solver::truth(&sh).trajectory(&u0, 400);
    assert_eq!(stopped, None);
    let amplitude = largest(&states[400]);
    let change = max_difference(&states[400], &states[380]);
    eprintln!("Swift–Hohenberg: amplitude {amplitude:.4} (√(4r/3) = 0.516), change {change:.2e}");
    assert!((0.35..0.75).contains(&amplitude), "amplitude {amplitude}");
    assert!(change < 1e-4, "not settled: {change}");
    let spectrum =
        crate::spectral1d::Spectral1d::new(vec![Default::default(); 64]).fft(&states[400]);
    let peak = (1..32).max_by(|&a, &b| spectrum[a].norm().total_cmp(&spectrum[b].norm()));
    assert_eq!(peak, Some(8), "rolls of wavenumber 1 are mode L = 8");
}

/// Each refusal is a message that says which check and why.
#[test]
fn bad_equations_are_refused_with_their_reason() {
    let growing = check(&equation("a2=-1,b=-1")).expect_err("anti-diffusion");
    assert!(
        matches!(growing, CustomError::GrowsAtHighestMode { .. }),
        "{growing}"
    );
    assert!(growing.to_string().contains("highest mode"), "{growing}");
    let coarse = check(&equation("a2=-1,a4=-1,b=-1;dt=20;substeps=80")).expect_err("ETD1");
    assert!(
        coarse.to_string().contains("coarse ETD1 solver"),
        "{coarse}"
    );
    let truth = check(&equation("a0=1,a2=1,d=1")).expect_err("u_t = u + u² blows up");
    assert!(truth.to_string().contains("truth"), "{truth}");
    assert!(check(&equation(KS)).is_ok());
    for (text, words) in [
        ("a2=x", "a2 takes a finite number"),
        ("a9=1", "unknown key 'a9'"),
        ("a2", "is not key=value"),
        ("a2=-1,a2=-1", "given twice"),
        ("L=8", "no term"),
        ("a2=-1;N=3", "N must be a whole number in 8..=1024"),
        ("a2=-1;vary=z", "vary"),
        ("a2=-1;dt=-1", "dt must be a positive"),
        ("a2=inf", "finite number"),
        (
            "a2=1;N=1024;fine=4;substeps=100",
            "the truth's work per step",
        ),
        ("{\"b\": true}", "JSON"),
    ] {
        let err = Equation::parse(text).expect_err(text).to_string();
        assert!(err.contains(words), "{text}: {err}");
    }
}

/// The text form reads back to the same equation, the JSON form too.
#[test]
fn the_text_and_json_forms_round_trip() {
    for text in [
        KS,
        "a1=-0.7,a2=0.05;L=2;N=64;vary=a2;train=0.04/0.05;test=0.045",
    ] {
        let eq = equation(text);
        assert_eq!(equation(&eq.text()), eq, "{text}");
        let json = serde_json::to_string(&eq).expect("json");
        assert_eq!(equation(&json), eq);
    }
    assert_eq!(Equation::default().text(), "a2=-1,a4=-1,b=-1");
}

/// A small KS-like equation for the study tests.
const SMALL: &str = "a2=-1,a4=-1,b=-1;coarse=2;warmup=5;frames=20;states=2;tests=1;rollout=12;\
                     train=8/9;test=8.5";

/// The system's name carries the whole equation: parsed, serialized and read back it is the
/// same interned system; `custom` alone is the default equation; refused text says why.
#[test]
fn the_system_name_carries_the_equation() {
    use crate::types::System;
    let system: System = format!("custom:{SMALL}").parse().expect("system");
    assert_eq!(system.name(), format!("custom:{}", equation(SMALL).text()));
    let json = serde_json::to_string(&system).expect("json");
    assert_eq!(serde_json::from_str::<System>(&json).expect("back"), system);
    let again: System = system.name().parse().expect("again");
    assert_eq!(again, system, "interned once");
    assert_eq!("custom".parse::<System>(), Ok(System::ALL[3]));
    assert_eq!(System::ALL[3].name(), "custom:a2=-1,a4=-1,b=-1");
    let err = "custom:a2=oops".parse::<System>().expect_err("refused");
    assert!(
        err.to_string().contains("a2 takes a finite number"),
        "{err}"
    );
    let physics = system.physics();
    assert_eq!(physics.system(), system);
    assert_eq!(physics.title(), "Your equation");
    assert_eq!(physics.parameter().symbol, "L");
    assert_eq!(physics.state_shape().values(), 48);
}

/// A tiny study of the equation with every 1-D architecture in prediction and correction ×
/// ONE / NOG / WIG: every variant trains and is scored; the config is refused with the
/// physics' reason where the training values make the truth blow up.
#[test]
fn every_one_d_architecture_trains_on_an_equation() {
    use crate::study::run::runner::finished_study;
    use crate::system::config::{NetSize, Preset};
    use crate::types::System;
    let system: System = format!("custom:{SMALL}").parse().expect("system");
    let physics = system.physics();
    for &architecture in physics.architectures() {
        let mut config = physics.preset(Preset::Quick, 1);
        let size = architecture.facts().size_grid[0];
        config.sizes = vec![NetSize::of(architecture, size.0, size.1)];
        config.base.iterations = 3;
        config.base.batch = 2;
        let results = finished_study(config).results(1.0);
        assert_eq!(results.variants.len(), 6, "{architecture}");
        for v in &results.variants {
            assert!(v.metrics.relative_error.mean.is_finite(), "{architecture}");
        }
        assert_eq!(results.samples[0].truth.frames[0].len(), 48);
    }
    let varied: System = "custom:a2=-1,a4=-1,b=-1;coarse=2;vary=a4;train=-1;test=-1"
        .parse()
        .expect("system");
    let mut bad = varied.physics().preset(Preset::Quick, 1);
    assert!(bad.validate(varied.physics()).is_ok());
    bad.base.data.scales = vec![-1.0, 1.0];
    let err = bad.validate(varied.physics()).expect_err("refused");
    assert!(err.to_string().contains("highest mode"), "{err}");
    assert!(err.to_string().contains("at a4 = 1"), "{err}");
}

/// KS under the generic defaults (ETDRK4, 4 sub-steps, 2/3 rule, ETD1 at Δt = 1) passes the
/// checks at every default value; with ETRK2 at 4 sub-steps and the 2/3 rule on 48 points the
/// truth blows up at L = 10.4 (the dealiased grid under-resolves KS there: amplitudes ≈ 6
/// against ≈ 2.5 resolved), and the check says so.
#[test]
fn the_default_equation_passes_and_an_under_resolved_one_is_named() {
    assert!(check(&Equation::default()).is_ok());
    let err = check(&equation("a2=-1,a4=-1,b=-1;coarse=2;scheme=etrk2")).expect_err("blows up");
    assert!(err.to_string().contains("the truth (etrk2"), "{err}");
}
