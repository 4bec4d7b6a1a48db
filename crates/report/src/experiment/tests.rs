//! The experiment's knobs through every surface: URL, form validation, workload, study config
//! and CLI command.

use super::limits::{BROWSER_MEMORY_LIMIT_BYTES, BROWSER_WHOLE_BUDGET};
use super::*;
use crate::units::cost_summary;
use unroll_core::study::cells::cost::memory_bytes;

/// Every field differs from the headline defaults (but the architectures of the `sizes` grid,
/// which the headline preset does not use).
fn custom() -> Experiment {
    Experiment {
        target: Target::Browser,
        system: System::Ks,
        preset: Preset::Quick,
        modes: vec![Mode::Correct, Mode::Transition],
        modalities: vec![Modality::Nog, Modality::Wig],
        architecture: Architecture::Gcn,
        architectures: vec![Architecture::Resnet],
        channels: 8,
        depth: 4,
        horizon: 5,
        warmup: 2,
        detach: 2,
        alpha: 0.25,
        learning_rates: vec![0.005],
        seeds: 2,
        iterations: 1200,
        rollout: 200,
        scales: vec![0.9, 1.0, 1.25],
        solver: SolverSetup::default(),
    }
}

#[test]
fn the_default_experiment_has_an_empty_query_and_the_short_command() {
    let default = Experiment::default();
    assert_eq!(default.to_query(), "");
    assert_eq!(
        Experiment::from_query(""),
        (default.clone(), Vec::<String>::new())
    );
    assert_eq!(
        default.cli_command(),
        "unroll-lab study --preset quick --seeds 1 --iterations 900"
    );
    assert!(default.validate().is_empty());
}

#[test]
fn a_fully_non_default_experiment_round_trips() {
    let experiment = custom();
    let query = experiment.to_query();
    assert_eq!(
        query,
        "seeds=2&iterations=1200&rollout=200&modes=correct,transition&modalities=nog,wig\
         &arch=gcn&channels=8&depth=4&m=5&warmup=2&detach=2&alpha=0.25&lr=0.005\
         &scales=0.9,1,1.25"
    );
    let (back, ignored) = Experiment::from_query(&format!("?{query}"));
    assert_eq!(back, experiment);
    assert!(ignored.is_empty(), "{ignored:?}");
    // Other presets, and percent-encoded commas.
    for preset in Preset::BROWSER {
        let mut e = custom();
        e.preset = preset;
        let encoded = e.to_query().replace(',', "%2C");
        assert_eq!(Experiment::from_query(&encoded), (e, Vec::<String>::new()));
    }
}

#[test]
fn the_preset_sets_the_defaults_wherever_it_appears() {
    let (e, ignored) = Experiment::from_query("seeds=2&preset=horizons");
    assert!(ignored.is_empty());
    assert_eq!(e.preset, Preset::Horizons);
    assert_eq!(e.modes, vec![Mode::Correct]);
    assert_eq!(e.modalities, vec![Modality::Nog, Modality::Wig]);
    assert_eq!(e.to_query(), "preset=horizons&seeds=2");
    let mut switched = custom();
    switched.set_preset(Preset::Sizes);
    assert_eq!(switched.modes, vec![Mode::Predict, Mode::Correct]);
    assert_eq!(switched.modalities, vec![Modality::Wig]);
    assert_eq!(switched.channels, 8, "other fields are kept");
}

#[test]
fn hostile_queries_fall_back_to_defaults_with_messages() {
    let (e, ignored) = Experiment::from_query(
        "preset=<script>&seeds=-1&iterations=99999999999999999999&x=1&device=cpu",
    );
    assert_eq!(e, Experiment::default());
    assert_eq!(ignored.len(), 4, "{ignored:?}");
    assert!(ignored[0].contains("preset '<script>' is unknown"));
    assert!(ignored[1].starts_with("seeds '-1' is not a number in 1..=5"));
    assert!(ignored[2].starts_with("iterations '99999999999999999999' is not a number"));
    assert!(ignored[3].contains("unknown parameter 'x'"));

    let cases: [(&str, &str); 27] = [
        (
            "system=custom:a4%3D1%3Bzz%3D2",
            "system 'custom:a4=1;zz=2' is not an equation this page can study: unknown key 'zz'",
        ),
        (
            "system=navier",
            "system 'navier' is unknown (expected ks, kolmogorov, burgers or custom:EQUATION)",
        ),
        ("modes=", "modes '' is an empty list"),
        ("modes=predict,fast", "names an unknown mode 'fast'"),
        (
            "modes=predict,predict",
            "modes 'predict,predict' lists predict twice",
        ),
        (
            "modalities=all",
            "modalities 'all' names an unknown modality 'all'",
        ),
        ("modalities=", "modalities '' is an empty list"),
        (
            "arch=transformer",
            "arch 'transformer' is unknown (expected resnet, gcn, dilated, unet, fno or resnet2d)",
        ),
        ("channels=0", "channels '0' is not a number in 1..=64"),
        ("channels=65", "channels '65' is not a number in 1..=64"),
        ("depth=17", "depth '17' is not a number in 0..=16"),
        ("depth=1.5", "depth '1.5' is not a number in 0..=16"),
        ("m=0", "m '0' is not a number in 1..=32"),
        ("m=33", "m '33' is not a number in 1..=32"),
        ("warmup=99", "warmup '99' is not a number in 0..=32"),
        ("detach=-1", "detach '-1' is not a number in 0..=32"),
        ("alpha=1", "alpha '1' is not a number in [0, 1)"),
        ("alpha=NaN", "alpha 'NaN' is not a number in [0, 1)"),
        ("lr=0", "lr '0' is not a number in (0, 1]"),
        ("lr=inf", "lr 'inf' is not a number in (0, 1]"),
        ("scales=", "scales '' is an empty list"),
        (
            "scales=1,abc",
            "scales '1,abc' is not a comma-separated list of numbers",
        ),
        ("scales=1,9", "domain scale 9 is outside 0.5..=2"),
        ("scales=1,1", "scales '1,1' lists 1 twice"),
        ("rollout=11", "rollout '11' is not a number in 12..=5000"),
        ("seeds", "seeds '' is not a number in 1..=5"),
        ("%ZZ=%FF%FE", "unknown parameter '%ZZ' ignored"),
    ];
    for (query, needle) in cases {
        let (e, ignored) = Experiment::from_query(query);
        assert_eq!(e, Experiment::default(), "{query}");
        assert_eq!(ignored.len(), 1, "{query}: {ignored:?}");
        assert!(ignored[0].contains(needle), "{query}: {ignored:?}");
        if !needle.starts_with("unknown") {
            assert!(ignored[0].ends_with("using the default"), "{query}");
        }
    }
    // Long and repeated keys, and a key without a value.
    let long = "k".repeat(500);
    let (_, ignored) = Experiment::from_query(&format!("{long}=1&seeds=2&seeds=3&=&&"));
    assert_eq!(ignored.len(), 3, "{ignored:?}");
    assert!(ignored[0].contains("'seeds' is given more than once"));
    assert!(ignored.iter().all(|m| m.len() < 120));
    assert_eq!(Experiment::from_query("seeds=2&seeds=3").0.seeds, 3);
    // Arbitrary bytes never panic.
    for query in [
        "%",
        "=%",
        "&=&=",
        "a=b=c",
        "modes=,",
        "scales=,,",
        "é=ü",
        "\u{0}=\u{0}",
    ] {
        let _ = Experiment::from_query(query);
    }
}

#[test]
fn validation_names_every_field() {
    type Break = fn(&mut Experiment);
    let expected: [(&str, Break, &str); 14] = [
        ("modes", |e| e.modes.clear(), "select at least one mode"),
        (
            "modalities",
            |e| e.modalities.clear(),
            "select at least one modality",
        ),
        ("channels", |e| e.channels = 65, "between 1 and 64 channels"),
        (
            "depth",
            |e| e.depth = 17,
            "between 0 and 16 blocks or levels",
        ),
        ("m", |e| e.horizon = 0, "between 1 and 32 loss steps"),
        (
            "warmup",
            |e| e.warmup = 33,
            "between 0 and 32 warm-up steps",
        ),
        ("detach", |e| e.detach = 33, "between 0 and 32 steps"),
        ("lr", |e| e.learning_rates = vec![2.0], "must be in (0, 1]"),
        (
            "scales",
            |e| e.scales.clear(),
            "at least one training domain size",
        ),
        ("scales", |e| e.scales = vec![1.0; 9], "at most 8"),
        ("scales", |e| e.scales = vec![0.1], "outside 0.5..=2"),
        ("seeds", |e| e.seeds = 6, "between 1 and 5 seeds"),
        (
            "iterations",
            |e| e.iterations = 20_001,
            "between 1 and 20000 iterations per variant",
        ),
        ("rollout", |e| e.rollout = 3, "between 12 and 5000 steps"),
    ];
    for (field, break_it, message) in expected {
        let mut e = Experiment::default();
        break_it(&mut e);
        let errors = e.validate();
        assert_eq!(errors.len(), 1, "{field}: {errors:?}");
        assert_eq!(errors[0].0, field);
        assert!(errors[0].1.contains(message), "{field}: {errors:?}");
        assert_eq!(e.error_of(field), errors[0].1);
        assert!(e.workload().is_none());
    }
    // α only matters with transition.
    let mut e = Experiment {
        alpha: 1.0,
        ..Experiment::default()
    };
    assert!(e.validate().is_empty());
    e.toggle_mode(Mode::Transition);
    assert_eq!(e.modes, Mode::ALL.to_vec());
    assert_eq!(e.validate()[0].0, "alpha");
    assert!(e.error_of("alpha").contains("[0, 1)"));
    // channels/depth do not apply to the sizes preset, m not to the horizons preset.
    let mut sizes = Experiment::for_preset(Preset::Sizes);
    sizes.channels = 0;
    assert!(sizes.validate().is_empty());
    assert_eq!(sizes.parameter_count(), None);
    assert_eq!(sizes.preset_sizes().len(), 4);
    let mut horizons = Experiment::for_preset(Preset::Horizons);
    horizons.horizon = 0;
    assert!(horizons.validate().is_empty());
    // Several at once, in form order.
    let bad = Experiment {
        seeds: 0,
        iterations: 0,
        rollout: 3,
        learning_rates: vec![0.0],
        ..Experiment::default()
    };
    let fields: Vec<&str> = bad.validate().iter().map(|(f, _)| *f).collect();
    assert_eq!(fields, ["seeds", "iterations", "rollout", "lr"]);
}

#[test]
fn the_memory_limit_refuses_huge_unrolls() {
    let huge = Experiment {
        architecture: Architecture::Gcn,
        channels: 64,
        depth: 16,
        horizon: 32,
        ..Experiment::default()
    };
    let errors = huge.validate();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "workload");
    assert!(errors[0]
        .1
        .contains("exceeds the browser limit of 1.50 GiB"));
    let workload = huge.workload().expect("fields are valid");
    assert!(workload.memory_bytes > BROWSER_MEMORY_LIMIT_BYTES);
    // The default fits easily; memory grows with the horizon.
    let default = Experiment::default();
    let small = memory_bytes(&default.study_config(), default.system.description());
    assert!(small < 0.1 * BROWSER_MEMORY_LIMIT_BYTES, "{small}");
    let longer = Experiment {
        horizon: 12,
        ..Experiment::default()
    };
    assert!(memory_bytes(&longer.study_config(), longer.system.description()) > small);
}

#[test]
fn the_workload_counts_trainings_flops_and_time() {
    let default = Experiment::default();
    let w = default.workload().expect("valid");
    // The workload is the cost model of the study the experiment runs.
    assert_eq!(
        w,
        unroll_core::study::cells::cost::cost(
            &default.study_config(),
            default.system.description()
        )
    );
    assert_eq!((w.trainings, w.iterations), (6, 6 * BROWSER_WHOLE_BUDGET));
    let rate = w.flops() / 120.0;
    assert!(cost_summary(&w, Some(rate)).contains("≈ 2 min"));
    assert!(cost_summary(&w, None).starts_with("6 trainings, 5400 iterations in all;"));
    // Two seeds double everything but the memory.
    let two = Experiment {
        seeds: 2,
        ..Experiment::default()
    }
    .workload()
    .expect("valid");
    assert!((two.flops() - 2.0 * w.flops()).abs() < 1e-6 * w.flops());
    assert_eq!(two.memory_bytes, w.memory_bytes);
    assert_eq!(default.parameter_count(), Some(15_841));
}

#[test]
fn the_study_config_follows_every_field() {
    let e = custom();
    let config = e.study_config();
    config
        .validate(config.system.description())
        .expect("valid study");
    assert_eq!(config.modes, e.modes);
    assert_eq!(config.modalities, e.modalities);
    assert_eq!(config.sizes, vec![NetSize::new(8, 4)]);
    assert_eq!(config.horizons, vec![5]);
    assert_eq!(config.seeds, vec![0, 1]);
    let base = &config.base;
    assert_eq!(base.net.architecture, Architecture::Gcn);
    assert_eq!((base.unroll.warmup, base.unroll.detach_interval), (2, 2));
    assert_eq!(base.alpha, 0.25);
    assert_eq!(base.optimizer.learning_rate, 0.005);
    assert_eq!(base.data.scales, e.scales);
    assert_eq!(base.iterations, 1200);
    assert_eq!(config.eval.rollout_steps, 200);
    let labels: Vec<String> = config
        .variants()
        .iter()
        .map(|v| v.variant_id().label())
        .collect();
    assert_eq!(labels, ["C-NOG", "C-WIG", "T-NOG", "T-WIG"]);
    // Without transition α stays the preset's.
    let no_transition = Experiment {
        alpha: 0.75,
        ..Experiment::default()
    };
    assert_eq!(
        no_transition.study_config(),
        Experiment::default().study_config()
    );
    // The presets keep their grid axis.
    let sizes = Experiment::for_preset(Preset::Sizes).study_config();
    assert_eq!(sizes.sizes.len(), 4);
    assert!(sizes
        .variants()
        .iter()
        .all(|v| v.net.architecture == Architecture::Resnet));
    let horizons = Experiment::for_preset(Preset::Horizons).study_config();
    assert_eq!(horizons.horizons, vec![1, 2, 4, 8]);
    for preset in Preset::BROWSER {
        Experiment::for_preset(preset)
            .study_config()
            .validate(unroll_core::system::System::Ks.description())
            .expect("valid");
    }
    let devs = e.deviations();
    assert!(devs[0].contains("study: 42475"));
    assert!(devs.iter().any(|d| d.starts_with("architecture gcn")));
    assert!(devs.iter().any(|d| d.starts_with("horizon m 5")));
    assert!(devs
        .iter()
        .any(|d| d.starts_with("modes correct,transition")));
    assert!(devs.iter().any(|d| d.starts_with("transition α 0.25")));
}

#[test]
fn the_cli_command_names_every_non_default_field() {
    assert_eq!(
        custom().cli_command(),
        "unroll-lab study --preset quick --seeds 2 --iterations 1200 --rollout 200 \
         --modes correct,transition --modalities nog,wig --architecture gcn --channels 8 \
         --depth 4 --horizon 5 --warmup 2 --detach-interval 2 --alpha 0.25 \
         --learning-rate 0.005 --scales 0.9,1,1.25"
    );
    let horizons = Experiment {
        seeds: 3,
        iterations: 1200,
        ..Experiment::for_preset(Preset::Horizons)
    };
    assert_eq!(
        horizons.cli_command(),
        "unroll-lab study --preset horizons --seeds 3 --iterations 1200"
    );
    // Fields a preset replaces are left out; α only with transition.
    let mut sizes = custom();
    sizes.preset = Preset::Sizes;
    sizes.modes = vec![Mode::Predict];
    let command = sizes.cli_command();
    assert!(command.starts_with("unroll-lab study --preset sizes"));
    assert!(!command.contains("--channels") && !command.contains("--depth"));
    assert!(command.contains("--horizon 5") && !command.contains("--alpha"));
    let mut horizons = custom();
    horizons.preset = Preset::Horizons;
    assert!(!horizons.cli_command().contains("--horizon"));
    assert!(horizons.cli_command().contains("--channels 8"));
}

#[test]
fn the_sizes_preset_runs_every_chosen_architecture_with_its_grid() {
    let (e, ignored) =
        Experiment::from_query("?preset=sizes&archs=resnet,dilated,unet,fno&seeds=2");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(
        e.architectures,
        [
            Architecture::Resnet,
            Architecture::Dilated,
            Architecture::Unet,
            Architecture::Fno
        ]
    );
    assert!(e.validate().is_empty(), "{:?}", e.validate());
    let config = e.study_config();
    config.validate(config.system.description()).expect("valid");
    // 4 architectures × 4 sizes × P, C × WIG.
    let variants = config.variants();
    assert_eq!(variants.len(), 32);
    for architecture in &e.architectures {
        let params: Vec<usize> = variants
            .iter()
            .filter(|v| v.net.architecture == *architecture && v.mode == Mode::Correct)
            .map(|v| v.net.parameter_count())
            .collect();
        assert_eq!(params.len(), 4, "{architecture}");
        assert!(params.windows(2).all(|w| w[1] > w[0]), "{architecture}");
    }
    assert_eq!(e.preset_sizes().len(), 16);
    let command = e.cli_command();
    assert!(
        command.contains("--architectures resnet,dilated,unet,fno"),
        "{command}"
    );
    assert_eq!(Experiment::from_query(&format!("?{}", e.to_query())).0, e);
    // The single architecture knob does not apply to the grid, nor the grid's to other presets.
    let (arch, _) = Experiment::from_query("?preset=sizes&arch=fno");
    assert_eq!(
        arch.study_config(),
        Experiment::for_preset(Preset::Sizes).study_config()
    );
    let (archs, _) = Experiment::from_query("?archs=fno");
    assert_eq!(archs.study_config(), Experiment::default().study_config());
    assert!(!Knob::Architectures.applies(&archs) && Knob::Architectures.applies(&e));
    let (_, ignored) = Experiment::from_query("?preset=sizes&archs=fno,cnn");
    assert!(
        ignored[0].contains("unknown architecture 'cnn'"),
        "{ignored:?}"
    );
    let mut none = e.clone();
    for architecture in Architecture::ONE_D {
        if none.architectures.contains(&architecture) {
            none.toggle_architecture(architecture);
        }
    }
    assert_eq!(none.error_of("archs"), "select at least one architecture");
}

#[test]
fn a_u_net_deeper_than_48_points_allow_is_refused() {
    let mut e = Experiment {
        architecture: Architecture::Unet,
        channels: 4,
        depth: 4,
        ..Experiment::default()
    };
    assert!(e.validate().is_empty());
    assert_eq!(e.parameter_count(), Some(45_393));
    e.depth = 5;
    assert!(
        e.error_of("depth").contains("between 0 and 4 levels"),
        "{:?}",
        e.validate()
    );
    assert_eq!(e.parameter_count(), None);
    let (parsed, _) = Experiment::from_query("?arch=unet&depth=6");
    assert!(!parsed.error_of("depth").is_empty());
    let mut overrides = Overrides::default();
    overrides.set(Knob::Depth, Value::Count(5));
    overrides.set(Knob::Architecture, Value::Architecture(Architecture::Unet));
    let mut native = Experiment::defaults(Preset::Quick, Target::Native);
    let (knob, problem) = native.apply(&overrides).expect_err("too deep");
    assert_eq!(knob, Knob::Depth);
    assert!(problem
        .for_cli(knob, "5")
        .contains("48 points halve 4 times"));
    for architecture in [Architecture::Dilated, Architecture::Fno] {
        e.architecture = architecture;
        assert!(e.validate().is_empty(), "{architecture}");
    }
}
