//! The playground: the ground truth, the coarse solver alone and every trained variant whose
//! weights are at hand, rolled out from a reader's own [`InitialState`] (inference only), with
//! the error of each against the truth at every step. The system's
//! [`Playground`] supplies the solvers; a system without one has none to offer.

use super::initial_state::InitialState;
use unroll_core::metrics::relative_error_per_frame;
use unroll_core::study::data::results::{StudyResults, VariantId};
use unroll_core::study::rollout::inference::RolloutRequest;
use unroll_core::system::playground::Playground;
use unroll_core::system::SystemDescription;
use unroll_core::types::packed::Packed;

/// Most steps a playground rollout takes.
pub const MAX_STEPS: usize = 400;

/// A trained variant with its weights (burnpack bytes, as the page exports them).
#[derive(Debug, Clone)]
pub struct Model {
    /// Which variant.
    pub id: VariantId,
    /// α of the transition mode (the study's config).
    pub alpha: f64,
    /// The weights (burnpack bytes), unless `flat` holds them.
    pub bytes: Vec<u8>,
    /// The weights a results file keeps (its first seed's: a committed run's networks roll
    /// out without retraining).
    pub flat: Option<Packed>,
}

/// One rollout: `[steps + 1][N]` (frame 0 = the initial state), and its relative error per
/// frame against the truth (the study's summand; empty for the truth itself).
#[derive(Debug, Clone, PartialEq)]
pub struct Rollout {
    /// `truth (ETRK2)`, `ETD1 only` or the variant's label.
    pub name: String,
    /// The variant, for its colour (`None` for truth and coarse solver).
    pub id: Option<VariantId>,
    /// The frames.
    pub frames: Vec<Vec<f64>>,
    /// Per-frame relative error against the truth.
    pub error: Vec<f64>,
}

/// The weights file name of a variant (`weights-C-WIG-16x10-m3.bpk`, as the page exports).
pub fn weights_file(id: &VariantId) -> String {
    format!("weights-{}.bpk", id.file_label())
}

/// The models of `results` whose weights are among `weights` (`(file label or file name,
/// bytes)`), and the labels of the variants without weights.
pub fn models_of(
    results: &StudyResults,
    weights: &[(String, Vec<u8>)],
) -> (Vec<Model>, Vec<String>) {
    let alpha = results.config.base.alpha;
    let mut models = Vec::new();
    let mut missing = Vec::new();
    for variant in &results.variants {
        let label = variant.id.file_label();
        let file = weights_file(&variant.id);
        let kept = variant.weights.first().cloned().flatten();
        match weights
            .iter()
            .find(|(name, _)| *name == label || *name == file)
        {
            Some((_, bytes)) => models.push(Model {
                id: variant.id,
                alpha,
                bytes: bytes.clone(),
                flat: None,
            }),
            None if kept.is_some() => models.push(Model {
                id: variant.id,
                alpha,
                bytes: Vec::new(),
                flat: kept,
            }),
            None => missing.push(variant.id.label()),
        }
    }
    (models, missing)
}

/// The playground of `system`, or why there is none.
fn playground_of(system: &dyn SystemDescription) -> Result<&dyn Playground, String> {
    system
        .playground()
        .ok_or_else(|| format!("{} has no playground", system.title()))
}

/// The truth and the coarse solver of `system` from `state` over `steps` steps (a blow-up
/// keeps the length with non-finite frames).
pub fn reference_rollouts(
    system: &dyn SystemDescription,
    state: &InitialState,
    steps: usize,
) -> Result<Vec<Rollout>, String> {
    let playground = playground_of(system)?;
    let steps = steps.min(MAX_STEPS);
    let u0 = state.values(playground);
    let truth = playground.truth_rollout(&u0, state.parameter, steps)?;
    let coarse = playground.coarse_rollout(&u0, state.parameter, steps)?;
    let coarse_error = relative_error_per_frame(&truth, &coarse, steps);
    Ok(vec![
        Rollout {
            name: playground.truth_name().into(),
            id: None,
            frames: truth,
            error: Vec::new(),
        },
        Rollout {
            name: playground.coarse_name().into(),
            id: None,
            frames: coarse,
            error: coarse_error,
        },
    ])
}

/// What a worker needs to roll `model` out from `state` over `steps` steps (at most
/// [`MAX_STEPS`] and the truth's length): [`unroll_core::study::rollout::inference::model_frames`].
/// Its ticket is 0: whoever sends it numbers it.
pub fn rollout_request(
    system: &dyn SystemDescription,
    model: &Model,
    state: &InitialState,
    truth: &[Vec<f64>],
    steps: usize,
) -> Result<RolloutRequest, String> {
    Ok(RolloutRequest {
        ticket: 0,
        system: system.system(),
        variant: model.id,
        alpha: model.alpha,
        weights: model.bytes.clone(),
        flat: model.flat.clone(),
        start: state.values(playground_of(system)?),
        parameter: state.parameter,
        steps: steps.min(MAX_STEPS).min(truth.len().saturating_sub(1)),
    })
}

/// The frames a worker rolled out for `request`, scored against `truth`.
pub fn scored(request: &RolloutRequest, frames: Vec<Vec<f64>>, truth: &[Vec<f64>]) -> Rollout {
    let error = relative_error_per_frame(truth, &frames, request.steps);
    Rollout {
        name: request.variant.label(),
        id: Some(request.variant),
        frames,
        error,
    }
}

/// The models of `results` the playground of `system` rolls out (those with weights among
/// `weights`), and notes on what it leaves out: results of another system, variants without
/// weights, or no results at all.
pub fn models_for(
    system: &dyn SystemDescription,
    results: Option<&StudyResults>,
    weights: &[(String, Vec<u8>)],
) -> (Vec<Model>, Vec<String>) {
    let Some(results) = results else {
        let none = "no trained variants yet: run a study or import results with their weights";
        return (Vec::new(), vec![none.into()]);
    };
    if results.system() != system.system() {
        let note = format!(
            "the playground draws {} states; the results on the page are {}",
            system.title(),
            results.system().title()
        );
        return (Vec::new(), vec![note]);
    }
    let (models, missing) = models_of(results, weights);
    let mut notes = Vec::new();
    if !missing.is_empty() {
        notes.push(format!(
            "no weights for {} (import their .bpk files)",
            missing.join(", ")
        ));
    }
    (models, notes)
}

/// The playground's status line: `steps` steps from `state`, `done` trained variants rolled out,
/// then the `notes`.
pub fn status_line(
    playground: &dyn Playground,
    state: &InitialState,
    steps: usize,
    done: usize,
    notes: &[String],
) -> String {
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(" Note: {}.", notes.join("; "))
    };
    format!(
        "{steps} steps from your state at {} = {}: truth, {} alone and {done} trained variant(s), inference only.{note}",
        playground.parameter().symbol,
        state.parameter,
        playground.coarse_solver(),
    )
}

/// Reads the playground's rollout length from `text`: a whole number in `1..=MAX_STEPS`.
pub fn parse_steps(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_STEPS).contains(&n) => Ok(n),
        _ => Err(format!("Steps must be a whole number in 1..={MAX_STEPS}.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::backend;
    use unroll_core::nets::export::weights_bytes;
    use unroll_core::nets::NetConfig;
    use unroll_core::study::rollout::inference::model_frames;
    use unroll_core::system::{PhysicalSystem, System};
    use unroll_core::types::SolverSetup;

    /// The page's path: the request, a worker's frames, the score.
    fn model_rollout(
        model: &Model,
        state: &InitialState,
        truth: &[Vec<f64>],
        steps: usize,
    ) -> Result<Rollout, String> {
        let request = rollout_request(system(), model, state, truth, steps)?;
        let json = serde_json::to_string(&request).expect("json");
        let request: RolloutRequest = serde_json::from_str(&json).expect("parse");
        let frames = pollster::block_on(model_frames(system(), &request, &backend::cpu()))?;
        Ok(scored(&request, frames, truth))
    }

    /// The first system with a playground.
    fn system() -> &'static dyn PhysicalSystem {
        System::ALL
            .into_iter()
            .map(System::physics)
            .find(|s| s.playground().is_some())
            .expect("a system has a playground")
    }

    fn fixture() -> StudyResults {
        let text = include_str!("../../../../tests/e2e/fixtures/cli-results.json");
        StudyResults::from_json(text).expect("fixture")
    }

    #[test]
    fn truth_and_coarse_solver_from_a_drawn_state() {
        let state = InitialState::drawn(
            &(0..96)
                .map(|j| (std::f64::consts::TAU * 3.0 * j as f64 / 96.0).cos())
                .collect::<Vec<_>>(),
            1.1,
        );
        let rollouts = reference_rollouts(system(), &state, 30).expect("rollouts");
        assert_eq!(rollouts.len(), 2);
        assert_eq!(rollouts[0].frames.len(), 31);
        assert_eq!(rollouts[1].frames.len(), 31);
        assert_eq!(
            rollouts[0].frames[0],
            state.values(system().playground().expect("1-D"))
        );
        assert!(rollouts[0].frames.iter().flatten().all(|v| v.is_finite()));
        assert_eq!(rollouts[1].error.len(), 31);
        assert_eq!(rollouts[1].error[0], 0.0);
        assert!(rollouts[1].error[30] > 0.0, "ETD1 drifts from ETRK2");
        let u0 = rollouts[0].frames[0].clone();
        let baseline = system()
            .baseline_rollout(&SolverSetup::default(), &[vec![u0]], 1.1, 30)
            .expect("baseline");
        assert_eq!(
            rollouts[1].frames, baseline[0],
            "the playground's coarse solver is the study's baseline"
        );
    }

    #[test]
    fn models_are_matched_to_their_weights_by_file_name() {
        let results = fixture();
        let first = &results.variants[0].id;
        let weights = vec![
            (weights_file(first), vec![1u8]),
            (results.variants[1].id.file_label(), vec![2u8]),
        ];
        let (models, missing) = models_of(&results, &weights);
        assert_eq!(models.len(), 2);
        assert_eq!(models[0].bytes, vec![1]);
        assert_eq!(missing.len(), results.variants.len() - 2);
        // A results file that keeps its weights needs no .bpk: its first seed's roll out.
        let mut kept = results.clone();
        kept.variants[2].weights = vec![Some(Packed::f32s(&[0.5; 4])), None];
        let (models, missing) = models_of(&kept, &weights);
        assert_eq!(models.len(), 3);
        assert_eq!(models[2].flat, Some(Packed::f32s(&[0.5; 4])));
        assert_eq!(missing.len(), results.variants.len() - 3);
    }

    #[test]
    fn a_trained_network_rolls_out_from_the_state() {
        let results = fixture();
        let id = VariantId {
            channels: 4,
            depth: 1,
            ..results.variants[3].id
        };
        let config = NetConfig {
            architecture: id.architecture,
            channels: 4,
            depth: 1,
        };
        let device = backend::cpu();
        let net = config.init(&device, 3).expect("net");
        let bytes = pollster::block_on(weights_bytes(&net, &config)).expect("bytes");
        let model = Model {
            id,
            alpha: 0.5,
            bytes,
            flat: None,
        };
        let state = InitialState::first(system().playground().expect("1-D"));
        let truth = reference_rollouts(system(), &state, 12)
            .expect("truth")
            .remove(0);
        let out = model_rollout(&model, &state, &truth.frames, 12).expect("rollout");
        assert_eq!(out.frames.len(), 13);
        assert_eq!(out.error.len(), 13);
        assert_eq!(out.name, id.label());
        // The same network from the weights a results file keeps rolls out the same frames.
        let flat = pollster::block_on(unroll_core::nets::export::flat_weights(&net)).expect("flat");
        let kept = Model {
            bytes: Vec::new(),
            flat: Some(Packed::f32s(&flat)),
            ..model.clone()
        };
        let again = model_rollout(&kept, &state, &truth.frames, 12).expect("rollout");
        assert_eq!(again.frames, out.frames);
        let bad = Model {
            bytes: vec![0; 8],
            ..model
        };
        let err = model_rollout(&bad, &state, &truth.frames, 12).expect_err("bad weights");
        assert!(err.starts_with(&id.label()), "{err}");
    }

    #[test]
    fn the_models_and_notes_of_the_results_on_the_page() {
        let results = fixture();
        let first = results.variants[0].id;
        let weights = vec![(weights_file(&first), vec![1u8])];
        let (models, notes) = models_for(system(), Some(&results), &weights);
        assert_eq!(models.len(), 1);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("no weights for"), "{}", notes[0]);
        let (none, notes) = models_for(system(), None, &weights);
        assert!(none.is_empty() && notes[0].starts_with("no trained variants yet"));
        let other = System::ALL
            .into_iter()
            .find(|s| *s != results.system())
            .expect("two systems");
        let (none, notes) = models_for(other.description(), Some(&results), &weights);
        assert!(none.is_empty());
        assert!(
            notes[0].contains("the results on the page are"),
            "{}",
            notes[0]
        );
    }

    #[test]
    fn the_status_line_and_the_steps_field() {
        let playground = system().playground().expect("1-D");
        let state = InitialState::first(playground);
        let line = status_line(playground, &state, 80, 0, &[]);
        assert!(line.starts_with("80 steps from your state at "), "{line}");
        assert!(line.contains(" alone and 0 trained variant(s), inference only."));
        let noted = status_line(playground, &state, 80, 2, &["a".into(), "b".into()]);
        assert!(noted.ends_with(" Note: a; b."), "{noted}");
        assert_eq!(parse_steps(" 40 "), Ok(40));
        assert!(parse_steps("0").is_err());
        assert!(parse_steps(&(MAX_STEPS + 1).to_string()).is_err());
        assert!(parse_steps("x").is_err());
    }
}
