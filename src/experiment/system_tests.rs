//! The experiment across systems: Kolmogorov's defaults, URL and validation.

use super::*;

/// `system=kolmogorov` starts from Kolmogorov's defaults (2-D ResNet, the training Reynolds
/// numbers, correction only), its study validates, the URL round-trips, and switching back
/// restores KS's defaults.
#[test]
fn kolmogorov_urls_start_from_its_defaults() {
    use crate::numerics::nets::Architecture;
    let (e, ignored) = Experiment::from_query("system=kolmogorov");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(e.system, System::Kolmogorov);
    assert_eq!(e.architecture, Architecture::Resnet2d);
    assert_eq!((e.channels, e.depth), (8, 5));
    assert_eq!(e.scales, vec![300.0, 400.0, 500.0, 700.0, 800.0, 900.0]);
    let config = e.study_config();
    config
        .validate(config.system.physics())
        .expect("valid study");
    assert_eq!(config.system, System::Kolmogorov);
    assert!(config.variants().iter().all(|v| v.mode == Mode::Correct));
    let (back, _) = Experiment::from_query(&e.to_query());
    assert_eq!(back, e);
    // A shorter rollout shortens the error horizon with it (the MSE is over every frame).
    let (short, _) = Experiment::from_query("system=kolmogorov&rollout=12");
    short
        .study_config()
        .validate(crate::numerics::system::System::Kolmogorov.physics())
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
