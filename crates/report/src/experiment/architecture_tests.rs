//! The experiment's architecture: chosen without a size it takes its default size (URL, CLI,
//! form), a size given by hand is kept, and an architecture the system does not take is a
//! field's message before anything runs.

use super::*;

#[test]
fn an_architecture_alone_takes_its_default_size() {
    let (e, ignored) = Experiment::from_query("arch=unet");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(
        (e.architecture, e.channels, e.depth),
        (Architecture::Unet, 8, 2)
    );
    assert!(e.validate().is_empty(), "{:?}", e.validate());
    let mut overrides = Overrides::default();
    overrides.set(Knob::Architecture, Value::Architecture(Architecture::Unet));
    let mut native = Experiment::defaults(Preset::Quick, Target::Native);
    native
        .apply(&overrides)
        .expect("a U-Net at its default size");
    assert_eq!((native.channels, native.depth), (8, 2));
    let mut form = Experiment::default();
    form.set_architecture(Architecture::Fno);
    assert_eq!(
        (form.channels, form.depth),
        Architecture::Fno.default_size()
    );
    assert!(form.validate().is_empty());
}

#[test]
fn a_size_given_by_hand_is_kept_in_any_order() {
    for query in ["depth=3&arch=unet", "arch=unet&depth=3"] {
        let (e, ignored) = Experiment::from_query(query);
        assert!(ignored.is_empty(), "{ignored:?}");
        assert_eq!(e.depth, 3, "{query}");
    }
    let (e, _) = Experiment::from_query("arch=unet&channels=4");
    assert_eq!((e.channels, e.depth), (4, 2));
    // A size that is the old architecture's default but not the new one's round-trips.
    let e = Experiment {
        architecture: Architecture::Unet,
        channels: 16,
        depth: 2,
        ..Experiment::default()
    };
    assert_eq!(e.to_query(), "arch=unet&channels=16");
    assert_eq!(Experiment::from_query(&e.to_query()).0, e);
    assert_eq!(
        e.cli_command(),
        "unroll-lab study --preset quick --seeds 1 --iterations 900 --architecture unet \
         --channels 16"
    );
}

#[test]
fn an_architecture_the_system_does_not_take_is_refused_before_running() {
    let ks = Experiment {
        architecture: Architecture::Resnet2d,
        channels: 8,
        depth: 5,
        ..Experiment::default()
    };
    assert_eq!(
        ks.error_of("arch"),
        "Kuramoto–Sivashinsky does not take the resnet2d network (it takes resnet, gcn, \
         dilated, unet or fno)"
    );
    let mut overrides = Overrides::default();
    overrides.set(
        Knob::Architecture,
        Value::Architecture(Architecture::Resnet2d),
    );
    let mut native = Experiment::defaults(Preset::Quick, Target::Native);
    let (knob, problem) = native.apply(&overrides).expect_err("a 2-D net on KS");
    assert_eq!(knob, Knob::Architecture);
    assert!(problem.for_cli(knob, "resnet2d").contains("does not take"));
    let (kolmogorov, _) = Experiment::from_query("system=kolmogorov&arch=resnet");
    assert!(kolmogorov
        .error_of("arch")
        .starts_with("Kolmogorov flow does not take the resnet network (it takes resnet2d)"));
    let sizes = Experiment {
        architectures: vec![Architecture::Resnet, Architecture::Resnet2d],
        ..Experiment::for_preset(Preset::Sizes)
    };
    assert!(sizes
        .error_of("archs")
        .contains("does not take the resnet2d"));
}
