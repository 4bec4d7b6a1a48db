//! The experiment across systems: Kolmogorov's defaults, URL and validation.

use super::*;

/// `system=kolmogorov` starts from Kolmogorov's defaults (2-D ResNet, the training Reynolds
/// numbers, correction only), its study validates, the URL round-trips, and switching back
/// restores KS's defaults.
#[test]
fn kolmogorov_urls_start_from_its_defaults() {
    use unroll_core::nets::Architecture;
    let (e, ignored) = Experiment::from_query("system=kolmogorov");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(e.system, System::Kolmogorov);
    assert_eq!(e.architecture, Architecture::Resnet2d);
    assert_eq!((e.channels, e.depth), (8, 5));
    assert_eq!(e.scales, vec![300.0, 400.0, 500.0, 700.0, 800.0, 900.0]);
    let config = e.study_config();
    config
        .validate(config.system.description())
        .expect("valid study");
    assert_eq!(config.system, System::Kolmogorov);
    assert!(config.variants().iter().all(|v| v.mode == Mode::Correct));
    let (back, _) = Experiment::from_query(&e.to_query());
    assert_eq!(back, e);
    // A shorter rollout shortens the error horizon with it (the MSE is over every frame).
    let (short, _) = Experiment::from_query("system=kolmogorov&rollout=12");
    short
        .study_config()
        .validate(unroll_core::system::System::Kolmogorov.description())
        .expect("valid with a short rollout");
    // A combination the runner refuses blocks Run with its reason.
    let (predict, _) = Experiment::from_query("system=kolmogorov&modes=predict,correct");
    let problems = predict.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].1.contains("correction mode only"),
        "{problems:?}"
    );
    let mut switched = e.clone();
    switched.set_system(System::Ks);
    assert_eq!(switched, Experiment::default());
}

/// The URL's values are checked against the system it selects, wherever `system=` appears:
/// Kolmogorov's scales are Reynolds numbers.
#[test]
fn values_are_checked_against_the_system_the_url_selects() {
    for query in [
        "?system=kolmogorov&scales=400,800",
        "?scales=400,800&system=kolmogorov",
    ] {
        let (e, ignored) = Experiment::from_query(query);
        assert!(ignored.is_empty(), "{query}: {ignored:?}");
        assert_eq!(e.system, System::Kolmogorov);
        assert_eq!(e.scales, [400.0, 800.0]);
        assert!(e.knob_errors().is_empty());
    }
    let (e, ignored) = Experiment::from_query("?system=kolmogorov&scales=1.5");
    assert_eq!(
        ignored,
        ["scales '1.5' is invalid (Reynolds number 1.5 is outside 300..=1000): using the default"]
    );
    assert_eq!(
        e,
        Experiment::defaults_for(System::Kolmogorov, Preset::Quick, Target::Browser)
    );
    let (_, ignored) = Experiment::from_query("?scales=400");
    assert_eq!(
        ignored,
        ["scales '400' is invalid (domain scale 400 is outside 0.5..=2): using the default"]
    );
    // A later unknown system leaves the valid one (and its limits) in place.
    let (e, ignored) = Experiment::from_query("?system=kolmogorov&system=navier&scales=400");
    assert_eq!(
        (e.system, e.scales.as_slice()),
        (System::Kolmogorov, &[400.0][..])
    );
    assert_eq!(ignored.len(), 2, "{ignored:?}");
}

/// The form names the scales by the system's parameter.
#[test]
fn the_scales_label_follows_the_system() {
    assert_eq!(
        Knob::Scales.label_for(System::Ks),
        "Training domain sizes s (L = 8·s)"
    );
    assert_eq!(
        Knob::Scales.label_for(System::Kolmogorov),
        "Training Reynolds numbers Re (ν = 1/Re)"
    );
    assert_eq!(
        Knob::Seeds.label_for(System::Kolmogorov),
        Knob::Seeds.label()
    );
    let e = Experiment::defaults_for(System::Kolmogorov, Preset::Quick, Target::Browser);
    let mut many = e.clone();
    many.scales = (0..9).map(|k| 300.0 + 50.0 * f64::from(k)).collect();
    assert_eq!(
        many.knob_errors(),
        [("scales", "at most 8 training Reynolds numbers".to_string())]
    );
}

/// Kolmogorov's learning rates are one per curriculum stage in the URL, the command and the
/// study; one rate sets every stage; a wrong count is named.
#[test]
fn kolmogorov_learning_rates_are_per_stage() {
    let e = Experiment::defaults_for(System::Kolmogorov, Preset::Quick, Target::Browser);
    assert_eq!(e.learning_rates, [1e-3, 1e-4, 1e-5]);
    let curriculum = |e: &Experiment| e.study_config().base.curriculum.expect("curriculum");
    assert_eq!(curriculum(&e).learning_rates, [1e-3, 1e-4, 1e-5]);
    let (e, ignored) = Experiment::from_query("?system=kolmogorov&lr=2e-3,2e-4,2e-5");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(curriculum(&e).learning_rates, [2e-3, 2e-4, 2e-5]);
    assert_eq!(e.study_config().base.optimizer.learning_rate, 2e-3);
    assert_eq!(e.to_query(), "system=kolmogorov&lr=0.002,0.0002,0.00002");
    assert!(e
        .cli_command()
        .contains("--learning-rate 0.002,0.0002,0.00002"));
    let (e, _) = Experiment::from_query("?system=kolmogorov&lr=0.002");
    assert_eq!(curriculum(&e).learning_rates, [2e-3; 3]);
    assert!(e.validate().is_empty(), "{:?}", e.validate());
    let (_, ignored) = Experiment::from_query("?system=kolmogorov&lr=1e-3,1e-4");
    assert_eq!(ignored.len(), 1);
    assert!(
        ignored[0].contains("one per curriculum stage (3)"),
        "{ignored:?}"
    );
    let (_, ignored) = Experiment::from_query("?lr=1e-3,1e-4");
    assert!(ignored[0].contains("give one rate"), "{ignored:?}");
}

/// Kolmogorov's coarse-solver set-up is a knob: the URL, the command, the study config and
/// the deviations carry it; the default's name is the empty set-up; unknown names and a KS
/// set-up are refused with their reason.
#[test]
fn kolmogorov_solver_setups_are_a_knob() {
    let e = Experiment::defaults_for(System::Kolmogorov, Preset::Quick, Target::Browser);
    assert_eq!(e.solver_name(), "piso");
    assert!(Knob::Solver.applies(&e));
    assert!(!Knob::Solver.applies(&Experiment::default()));
    let (rk3, ignored) = Experiment::from_query("?system=kolmogorov&solver=ssp-rk3");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(rk3.study_config().base.solver.name(), "ssp-rk3");
    assert_eq!(rk3.to_query(), "system=kolmogorov&solver=ssp-rk3");
    assert!(
        rk3.cli_command().contains("--solver ssp-rk3"),
        "{}",
        rk3.cli_command()
    );
    assert!(rk3.validate().is_empty(), "{:?}", rk3.validate());
    let deviations = rk3.deviations().join("; ");
    assert!(deviations.contains("SSP-RK3"), "{deviations}");
    assert!(!deviations.contains("16 Jacobi sweeps"), "{deviations}");
    let (quirks, _) = Experiment::from_query("?system=kolmogorov&solver=piso-official");
    assert!(quirks.deviations().join("; ").contains("linspace"));
    // Naming the default is the default experiment (same URL, same plan).
    let (named, _) = Experiment::from_query("?system=kolmogorov&solver=piso");
    assert_eq!(named, e);
    assert_eq!(named.study_config(), e.study_config());
    let (_, ignored) = Experiment::from_query("?system=kolmogorov&solver=heun");
    assert_eq!(ignored.len(), 1);
    assert!(
        ignored[0].contains("unknown solver set-up 'heun'"),
        "{ignored:?}"
    );
    assert!(ignored[0].contains("piso-exact"), "{ignored:?}");
    let (_, ignored) = Experiment::from_query("?solver=piso");
    assert_eq!(ignored.len(), 1);
    assert!(ignored[0].contains("one coarse solver"), "{ignored:?}");
}

/// More iterations for Kolmogorov keep the schedule's shape: as many decays per stage.
#[test]
fn kolmogorov_decay_scales_with_the_stage() {
    let e = Experiment::defaults_for(System::Kolmogorov, Preset::Quick, Target::Native);
    let base = e.study_config().base;
    let stage = base
        .curriculum
        .as_ref()
        .expect("curriculum")
        .stage_iterations;
    assert_eq!((stage, base.optimizer.decay_every), (1000, 50));
    let (long, _) = Experiment::from_query("?system=kolmogorov&iterations=12000");
    let base = long.study_config().base;
    let stage = base
        .curriculum
        .as_ref()
        .expect("curriculum")
        .stage_iterations;
    assert_eq!((stage, base.optimizer.decay_every), (4000, 200));
}

/// The page runs a preset's whole budget where it fits (KS's quick preset, Burgers'), else a
/// 300-iteration taste (Kolmogorov's curriculum of 3000); natively every preset runs whole.
#[test]
fn the_page_runs_a_budget_whole_where_it_fits() {
    use super::limits::{BROWSER_ITERATIONS, BROWSER_WHOLE_BUDGET};
    let iterations =
        |system, target| Experiment::defaults_for(system, Preset::Quick, target).iterations;
    assert_eq!(
        iterations(System::Ks, Target::Browser),
        BROWSER_WHOLE_BUDGET
    );
    assert_eq!(
        iterations(System::Ks, Target::Browser),
        iterations(System::Ks, Target::Native)
    );
    assert_eq!(iterations(System::Burgers, Target::Browser), 600);
    assert_eq!(
        iterations(System::Kolmogorov, Target::Browser),
        BROWSER_ITERATIONS
    );
    assert!(iterations(System::Kolmogorov, Target::Native) > BROWSER_WHOLE_BUDGET);
}
