//! Training semantics on tiny problems (CPU backend): gradient flow of NOG / WIG against
//! hand-built references and finite differences, ONE's scaling, identical initial weights,
//! determinism, warm-up and detach cuts, the black-box solver, and that every variant learns.
//! The gradient, initial-weight and determinism checks run for every architecture.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::{Device, Tensor, TensorData};

use super::config::{Modality, Mode, OptimizerConfig, TrainConfig, TrainDataConfig, UnrollConfig};
use super::data::TrainingData;
use super::modality::unrolled_loss;
use super::run::run_blocking;
use super::step::Stepper;
use crate::backend;
use crate::ks::data::{data_solver, generate};
use crate::ks::stepper::KsStep;
use crate::ks::system::Ks;
use crate::nets::{Architecture, Net, NetConfig};
use crate::system::physics::PhysicalSystem;
use crate::types::{SolverSetup, Trajectory};

const N: usize = 48;

pub(super) fn tiny_data(frames: usize) -> (TrainDataConfig, Vec<Trajectory>) {
    let data = TrainDataConfig {
        scales: vec![1.0, 1.2],
        warmup_steps: 20,
        frames,
    };
    let set = generate(&data, data_solver(N)).expect("data");
    (data, set)
}

pub(super) fn tiny_config(mode: Mode, modality: Modality, data: TrainDataConfig) -> TrainConfig {
    tiny_config_of(Architecture::Resnet, mode, modality, data)
}

/// A 6-channel, depth-2 `architecture` (the U-Net: 2 levels on 48 points).
pub(super) fn tiny_config_of(
    architecture: Architecture,
    mode: Mode,
    modality: Modality,
    data: TrainDataConfig,
) -> TrainConfig {
    TrainConfig {
        net: NetConfig {
            architecture,
            channels: 6,
            depth: 2,
        },
        mode,
        alpha: 0.5,
        modality,
        unroll: UnrollConfig {
            horizon: 2,
            warmup: 0,
            detach_interval: 0,
        },
        batch: 4,
        iterations: 40,
        optimizer: OptimizerConfig::every(2e-3, 0.9, 100),
        seed: 11,
        data,
        black_box_solver: false,
        system: crate::system::System::Ks,
        curriculum: None,
        gradient_guard: false,
        solver: SolverSetup::default(),
        order: crate::train::config::MinibatchOrder::Rounds,
    }
}

fn read(tensor: Tensor<1>) -> Vec<f32> {
    tensor
        .into_data()
        .convert::<f32>()
        .try_into_vec::<f32>()
        .expect("f32")
}

/// Every parameter, flattened in visiting order.
pub(super) fn flat_params(net: &Net) -> Vec<f32> {
    struct Collect(Vec<f32>);
    impl ModuleVisitor for Collect {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.0.extend(read(param.val().flatten(0, D - 1)));
        }
    }
    let mut collect = Collect(Vec::new());
    net.visit(&mut collect);
    collect.0
}

/// The gradient of every parameter, flattened like [`flat_params`].
fn flat_gradients(net: &Net, loss: Tensor<1>) -> Vec<f32> {
    struct Collect<'a>(Vec<f32>, &'a burn::tensor::Gradients);
    impl ModuleVisitor for Collect<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let value = param.val();
            let count = value.shape().num_elements();
            match value.grad(self.1) {
                Some(grad) => self.0.extend(read(grad.flatten(0, D - 1))),
                None => self.0.extend(std::iter::repeat_n(0.0, count)),
            }
        }
    }
    let grads = loss.backward();
    let mut collect = Collect(Vec::new(), &grads);
    net.visit(&mut collect);
    collect.0
}

/// `net` with flattened parameter element `index` shifted by `delta`.
fn perturbed(net: &Net, index: usize, delta: f32) -> Net {
    struct Shift {
        index: usize,
        seen: usize,
        delta: f32,
    }
    impl ModuleMapper for Shift {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let count = param.val().shape().num_elements();
            let (start, index, delta) = (self.seen, self.index, self.delta);
            self.seen += count;
            if !(start..start + count).contains(&index) {
                return param;
            }
            param.map(|tensor| {
                let shape = tensor.shape();
                let device = tensor.device();
                let mut values = tensor
                    .into_data()
                    .convert::<f32>()
                    .try_into_vec::<f32>()
                    .expect("f32");
                values[index - start] += delta;
                Tensor::from_data(TensorData::new(values, shape), &device)
            })
        }
    }
    net.clone().map(&mut Shift {
        index,
        seen: 0,
        delta,
    })
}

struct Fixture {
    device: Device,
    net: Net,
    stepper: Stepper,
    frames: Vec<Tensor<2>>,
}

/// A 2-step unroll of the ResNet on real data (batch 3).
fn fixture(mode: Mode) -> Fixture {
    fixture_of(Architecture::Resnet, mode)
}

/// A 2-step unroll of `architecture` in `mode` on real data (batch 3).
fn fixture_of(architecture: Architecture, mode: Mode) -> Fixture {
    let (data_config, set) = tiny_data(30);
    let device = backend::cpu_autodiff();
    let data = TrainingData::upload(&set, &device).expect("upload");
    let stepper = KsStep::new(mode, 0.5, &data_config.scales, N, &device, false)
        .expect("stepper")
        .stepper();
    let net = tiny_config_of(architecture, mode, Modality::Wig, data_config)
        .net
        .init(&device, 5)
        .expect("net");
    let frames = data.gather(0, &[(0, 3), (2, 10), (5, 20)], 2);
    Fixture {
        device,
        net,
        stepper,
        frames,
    }
}

fn loss_of(f: &Fixture, net: &Net, modality: Modality, unroll: UnrollConfig) -> Tensor<1> {
    unrolled_loss(net, &f.stepper, 0, &f.frames, modality, unroll).expect("loss")
}

fn max_abs_difference(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn max_abs(a: &[f32]) -> f32 {
    a.iter().fold(0.0f32, |m, x| m.max(x.abs()))
}

const TWO_STEPS: UnrollConfig = UnrollConfig {
    horizon: 2,
    warmup: 0,
    detach_interval: 0,
};

#[test]
fn nog_gradient_is_the_sum_of_per_step_gradients_with_inputs_fixed() {
    for architecture in Architecture::ONE_D {
        for mode in [Mode::Predict, Mode::Correct, Mode::Transition] {
            nog_gradient_check(&fixture_of(architecture, mode), architecture, mode);
        }
    }
}

fn nog_gradient_check(f: &Fixture, architecture: Architecture, mode: Mode) {
    let nog = flat_gradients(&f.net, loss_of(f, &f.net, Modality::Nog, TWO_STEPS));
    // By hand: step 1 from ground truth, step 2 from step 1's output held as a constant.
    let scale = f.stepper.scale_channel(0, 3);
    let step = |u: Tensor<2>| f.stepper.step(&f.net, 0, u, scale.clone()).expect("step");
    let mse = |a: Tensor<2>, b: Tensor<2>| {
        let d = a - b;
        (d.clone() * d).mean()
    };
    let u1 = step(f.frames[0].clone());
    let fixed_u1 = Tensor::<2>::from_data(u1.clone().into_data(), &f.device);
    let first = flat_gradients(&f.net, mse(u1, f.frames[1].clone()) / 2.0);
    let second = flat_gradients(&f.net, mse(step(fixed_u1), f.frames[2].clone()) / 2.0);
    let sum: Vec<f32> = first.iter().zip(&second).map(|(a, b)| a + b).collect();
    let difference = max_abs_difference(&nog, &sum);
    assert!(
        difference <= 1e-6 * max_abs(&sum).max(1.0),
        "{architecture} {mode:?}: off by {difference}"
    );
    assert!(max_abs(&sum) > 0.0, "{architecture} {mode:?}: no gradient");
}

#[test]
fn wig_gradient_differs_from_nog_and_matches_finite_differences_through_the_solver() {
    for architecture in Architecture::ONE_D {
        wig_gradient_check(&fixture_of(architecture, Mode::Correct), architecture);
    }
}

fn wig_gradient_check(f: &Fixture, architecture: Architecture) {
    let nog = flat_gradients(&f.net, loss_of(f, &f.net, Modality::Nog, TWO_STEPS));
    let wig = flat_gradients(&f.net, loss_of(f, &f.net, Modality::Wig, TWO_STEPS));
    let scale = max_abs(&wig);
    // The long-term gradient is a real contribution, not round-off.
    assert!(max_abs_difference(&wig, &nog) > 1e-2 * scale);
    // Central differences on the parameters where WIG and NOG differ most.
    let mut order: Vec<usize> = (0..wig.len()).collect();
    order.sort_by(|&a, &b| (wig[b] - nog[b]).abs().total_cmp(&(wig[a] - nog[a]).abs()));
    let eps = 2e-3;
    for &index in order.iter().take(3) {
        let plus = read(loss_of(
            f,
            &perturbed(&f.net, index, eps),
            Modality::Wig,
            TWO_STEPS,
        ))[0];
        let minus = read(loss_of(
            f,
            &perturbed(&f.net, index, -eps),
            Modality::Wig,
            TWO_STEPS,
        ))[0];
        let fd = (plus - minus) / (2.0 * eps);
        let tolerance = 0.02 * wig[index].abs() + 1e-4 * scale;
        assert!(
            (wig[index] - fd).abs() <= tolerance,
            "{architecture} param {index}: WIG {} vs finite differences {fd} (NOG {})",
            wig[index],
            nog[index]
        );
        assert!(
            (nog[index] - fd).abs() > tolerance,
            "{architecture}: NOG would pass too at {index}"
        );
    }
}

#[test]
fn detach_interval_one_makes_wig_equal_nog_and_warmup_is_outside_the_loss() {
    let f = fixture(Mode::Transition);
    let nog = flat_gradients(&f.net, loss_of(&f, &f.net, Modality::Nog, TWO_STEPS));
    let cut_every_step = UnrollConfig {
        detach_interval: 1,
        ..TWO_STEPS
    };
    let wig1 = flat_gradients(&f.net, loss_of(&f, &f.net, Modality::Wig, cut_every_step));
    assert!(max_abs_difference(&nog, &wig1) <= 1e-7 * max_abs(&nog).max(1.0));
    // Warm-up 1, horizon 1: loss = mse(F(const F(g0)), g2) exactly.
    let warm = UnrollConfig {
        horizon: 1,
        warmup: 1,
        detach_interval: 0,
    };
    let got_loss = loss_of(&f, &f.net, Modality::Wig, warm);
    let scale = f.stepper.scale_channel(0, 3);
    let step = |u: Tensor<2>| f.stepper.step(&f.net, 0, u, scale.clone()).expect("step");
    let u1 = Tensor::<2>::from_data(step(f.frames[0].clone()).into_data(), &f.device);
    let d = step(u1) - f.frames[2].clone();
    let want_loss = (d.clone() * d).mean();
    let got = flat_gradients(&f.net, got_loss.clone());
    let want = flat_gradients(&f.net, want_loss.clone());
    assert_eq!(read(got_loss), read(want_loss));
    assert!(max_abs_difference(&got, &want) <= 1e-7 * max_abs(&want).max(1.0));
}

#[test]
fn one_scales_batch_not_iterations_and_all_modalities_start_from_identical_weights() {
    let (data, set) = tiny_data(30);
    for architecture in Architecture::ONE_D {
        identical_initial_weights(architecture, &data, &set);
    }
}

fn identical_initial_weights(
    architecture: Architecture,
    data: &TrainDataConfig,
    set: &[Trajectory],
) {
    let mut weights = Vec::new();
    for modality in [Modality::One, Modality::Nog, Modality::Wig] {
        let config = tiny_config_of(architecture, Mode::Correct, modality, data.clone());
        if modality == Modality::One {
            assert_eq!(config.effective_batch(), 8);
            assert_eq!(config.effective_unroll().horizon, 1);
        } else {
            assert_eq!(config.effective_batch(), 4);
        }
        // Equal network evaluations per iteration, and equal iterations.
        assert_eq!(config.network_calls_per_iteration(), 8);
        assert_eq!(config.iterations, 40);
        let trainer = Ks.trainer(config, set, &backend::cpu()).expect("trainer");
        weights.push(flat_params(trainer.net()));
    }
    assert_eq!(
        weights[0].len(),
        tiny_config_of(architecture, Mode::Correct, Modality::One, data.clone())
            .net
            .parameter_count()
    );
    assert_eq!(weights[0], weights[1], "{architecture}");
    assert_eq!(weights[1], weights[2], "{architecture}");
}

pub(super) fn losses(config: TrainConfig, set: &[Trajectory]) -> Vec<f32> {
    let mut trainer = Ks.trainer(config, set, &backend::cpu()).expect("trainer");
    run_blocking(&mut trainer, &|| 0.0, &mut |_| {})
        .expect("run")
        .loss_history
}

#[test]
fn same_seed_gives_identical_loss_history() {
    let (data, set) = tiny_data(30);
    for architecture in Architecture::ONE_D {
        let mut config = tiny_config_of(architecture, Mode::Correct, Modality::Wig, data.clone());
        config.iterations = 6;
        let a = losses(config.clone(), &set);
        assert_eq!(a, losses(config.clone(), &set), "{architecture}");
        assert!(a.iter().all(|l| l.is_finite()), "{architecture}");
        config.seed += 1;
        assert_ne!(a, losses(config, &set), "{architecture}");
    }
}

#[test]
fn every_architecture_learns_in_every_mode_and_modality() {
    let (data, set) = tiny_data(40);
    for architecture in [Architecture::Dilated, Architecture::Unet, Architecture::Fno] {
        for mode in [Mode::Predict, Mode::Correct, Mode::Transition] {
            for modality in Modality::ALL {
                let mut config = tiny_config_of(architecture, mode, modality, data.clone());
                config.iterations = 60;
                let history = losses(config, &set);
                assert_eq!(history.len(), 60);
                let head: f32 = history[..5].iter().sum();
                let tail: f32 = history[55..].iter().sum();
                // Transition (α = 0.5) learns slowest at this budget: it must still fall.
                let factor = if mode == Mode::Transition { 1.0 } else { 0.8 };
                assert!(
                    tail < factor * head,
                    "{architecture} {mode:?} {modality:?}: {head} → {tail}"
                );
            }
        }
    }
}

#[test]
fn loss_falls_for_all_six_variants() {
    let (data, set) = tiny_data(40);
    for mode in [Mode::Predict, Mode::Correct] {
        for modality in Modality::ALL {
            let history = losses(tiny_config(mode, modality, data.clone()), &set);
            assert_eq!(history.len(), 40);
            let head: f32 = history[..5].iter().sum();
            let tail: f32 = history[35..].iter().sum();
            assert!(tail < 0.8 * head, "{mode:?} {modality:?}: {head} → {tail}");
        }
    }
}

#[test]
fn black_box_solver_trains_like_the_tensor_solver_in_nog_correction() {
    let (data, set) = tiny_data(30);
    let mut config = tiny_config(Mode::Correct, Modality::Nog, data);
    config.iterations = 10;
    let tensor = losses(config.clone(), &set);
    config.black_box_solver = true;
    let black_box = losses(config, &set);
    for (a, b) in tensor.iter().zip(&black_box) {
        assert!((a - b).abs() <= 1e-4 * a.abs().max(1e-3), "{a} vs {b}");
    }
}

#[test]
fn divergence_is_a_result_not_a_panic() {
    let (data, set) = tiny_data(30);
    let mut config = tiny_config(Mode::Predict, Modality::Wig, data);
    config.optimizer.learning_rate = 1e12;
    config.iterations = 60;
    let mut trainer = Ks.trainer(config, &set, &backend::cpu()).expect("trainer");
    let outcome = run_blocking(&mut trainer, &|| 0.0, &mut |_| {}).expect("run");
    let k = outcome.diverged_at.expect("diverges");
    assert_eq!(outcome.loss_history.len(), k + 1);
    assert!(!outcome.loss_history[k].is_finite());
}

/// Adam's ε: the official 1e-8 for every new configuration; a file written without the field
/// (trained with burn's 1e-5) reads as 1e-5, and such a configuration writes as before.
#[test]
fn adam_epsilon_is_the_official_one_and_old_files_keep_theirs() {
    use crate::train::config::{BURN_ADAM_EPSILON, OFFICIAL_ADAM_EPSILON};
    let new = OptimizerConfig::every(1e-4, 0.9, 2000);
    assert_eq!(new.epsilon, OFFICIAL_ADAM_EPSILON);
    assert_eq!(OptimizerConfig::default().epsilon, OFFICIAL_ADAM_EPSILON);
    let written = serde_json::to_string(&new).expect("json");
    assert!(written.contains("\"epsilon\":1e-8"), "{written}");
    let old: OptimizerConfig =
        serde_json::from_str(r#"{"learning_rate":0.0001,"decay":0.9,"decay_every":2000}"#)
            .expect("old file");
    assert_eq!(old.epsilon, BURN_ADAM_EPSILON);
    let rewritten = serde_json::to_string(&old).expect("json");
    assert!(!rewritten.contains("epsilon"), "{rewritten}");
}

/// The official order trains: finite losses, and the learning rate of iteration `i` is the
/// initial one × γ per nominal multiple of K before it (after step 0 already).
#[test]
fn the_official_epochs_train_with_their_learning_rate_clock() {
    use super::config::MinibatchOrder;
    use super::sampler::Sampler;
    let (data, set) = tiny_data(40);
    let config = TrainConfig {
        iterations: 12,
        order: MinibatchOrder::OfficialEpochs,
        optimizer: OptimizerConfig::every(1e-3, 0.5, 5),
        ..tiny_config(Mode::Correct, Modality::Nog, data)
    };
    let device = backend::cpu();
    let training = TrainingData::upload(&set, &device).expect("upload");
    let mut sampler = Sampler::new(&config, &training).expect("sampler");
    assert_eq!(sampler.learning_rate(&config, 0), 1e-3);
    assert_eq!(sampler.learning_rate(&config, 1), 5e-4);
    assert_eq!(sampler.learning_rate(&config, 5), 5e-4);
    assert_eq!(sampler.learning_rate(&config, 6), 2.5e-4);
    for iteration in 0..12 {
        assert_eq!(sampler.minibatch(iteration).windows.len(), 4);
    }
    let mut trainer = Ks.trainer(config, &set, &backend::cpu()).expect("trainer");
    while !trainer.finished() {
        let loss = read(trainer.step().expect("step"));
        assert!(loss[0].is_finite());
    }
}
