//! The one definition of every knob: [`KNOBS`], in the order the CLI command and the URL list
//! them. Each [`Knob`] has its URL key, CLI flag, form label, unit and kind, reads and writes its
//! field of an [`Experiment`] and of a training config, and parses its text into a typed
//! [`Value`]; its limits are in [`super::limits`]. The URL codec, the CLI's flags (both `train`
//! and `study`), the form and the validation all iterate over this table.

use std::fmt;

pub use super::value::Value;
use super::Experiment;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_core::train::{Mode, TrainConfig};
use unroll_core::types::SolverSetup;

/// A knob of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Knob {
    /// The simulated system.
    System,
    /// Seeds per variant.
    Seeds,
    /// Training iterations per variant.
    Iterations,
    /// Evaluation rollout length.
    Rollout,
    /// Simulation modes.
    Modes,
    /// Training modalities.
    Modalities,
    /// Network architecture.
    Architecture,
    /// Network architectures of the `sizes` grid.
    Architectures,
    /// Channels C.
    Channels,
    /// Residual blocks D.
    Depth,
    /// Unroll horizon m.
    Horizon,
    /// Warm-up steps w.
    Warmup,
    /// Detach interval k.
    Detach,
    /// α of the transition mode.
    Alpha,
    /// Initial learning rate: one, or one per curriculum stage.
    LearningRate,
    /// Training values of the system's parameter (its facts name them: KS's domain scales s,
    /// Kolmogorov's Reynolds numbers).
    Scales,
    /// The coarse-solver set-up, by name from the system's list (only where it offers one).
    Solver,
}

/// Every knob, in CLI-command and URL order.
pub const KNOBS: [Knob; 17] = [
    Knob::System,
    Knob::Seeds,
    Knob::Iterations,
    Knob::Rollout,
    Knob::Modes,
    Knob::Modalities,
    Knob::Architecture,
    Knob::Architectures,
    Knob::Channels,
    Knob::Depth,
    Knob::Horizon,
    Knob::Warmup,
    Knob::Detach,
    Knob::Alpha,
    Knob::LearningRate,
    Knob::Scales,
    Knob::Solver,
];

/// What kind of value a knob holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A whole number.
    Count,
    /// A real number.
    Real,
    /// Comma-separated real numbers.
    Reals,
    /// One name or comma-separated names.
    Names,
}

/// The static facts of a knob.
struct Spec {
    knob: Knob,
    key: &'static str,
    flag: &'static str,
    alias: Option<&'static str>,
    label: &'static str,
    unit: &'static str,
    kind: Kind,
    /// Whether `unroll-lab train` takes it too (the knobs of one training config).
    train: bool,
}

const fn spec(
    knob: Knob,
    key: &'static str,
    flag: &'static str,
    label: &'static str,
    unit: &'static str,
    kind: Kind,
    train: bool,
) -> Spec {
    Spec {
        knob,
        key,
        flag,
        alias: None,
        label,
        unit,
        kind,
        train,
    }
}

impl Spec {
    /// The same facts with a second CLI flag.
    const fn alias(self, alias: &'static str) -> Spec {
        Spec {
            alias: Some(alias),
            ..self
        }
    }
}

/// The facts of every knob: URL key, CLI flag, label, unit, kind, whether `train` takes it.
const SPECS: [Spec; 17] = {
    use Kind::{Count, Names, Real, Reals};
    [
        spec(
            Knob::System,
            "system",
            "system",
            "System",
            "system",
            Names,
            false,
        ),
        spec(
            Knob::Seeds,
            "seeds",
            "seeds",
            "Seeds",
            "seeds",
            Count,
            false,
        ),
        spec(
            Knob::Iterations,
            "iterations",
            "iterations",
            "Iterations per variant",
            "iterations per variant",
            Count,
            true,
        ),
        spec(
            Knob::Rollout,
            "rollout",
            "rollout",
            "Evaluation rollout (steps)",
            "steps",
            Count,
            false,
        ),
        spec(Knob::Modes, "modes", "modes", "Modes", "mode", Names, false),
        spec(
            Knob::Modalities,
            "modalities",
            "modalities",
            "Modalities",
            "modality",
            Names,
            false,
        ),
        spec(
            Knob::Architecture,
            "arch",
            "architecture",
            "Architecture",
            "architecture",
            Names,
            true,
        ),
        spec(
            Knob::Architectures,
            "archs",
            "architectures",
            "Architectures (size study)",
            "architecture",
            Names,
            false,
        ),
        spec(
            Knob::Channels,
            "channels",
            "channels",
            "Channels C",
            "channels",
            Count,
            true,
        ),
        spec(
            Knob::Depth,
            "depth",
            "depth",
            "Depth D (blocks; U-Net levels; FNO layers)",
            "blocks or levels",
            Count,
            true,
        ),
        spec(
            Knob::Horizon,
            "m",
            "horizon",
            "Unroll horizon m (loss steps)",
            "loss steps",
            Count,
            true,
        ),
        spec(
            Knob::Warmup,
            "warmup",
            "warmup",
            "Warm-up steps w (detached, outside the loss)",
            "warm-up steps",
            Count,
            true,
        ),
        spec(
            Knob::Detach,
            "detach",
            "detach-interval",
            "Detach interval k (WIG; 0 = never cut)",
            "steps (0 = never cut)",
            Count,
            true,
        )
        .alias("detach"),
        spec(
            Knob::Alpha,
            "alpha",
            "alpha",
            "Transition α",
            "α",
            Real,
            true,
        ),
        spec(
            Knob::LearningRate,
            "lr",
            "learning-rate",
            "Learning rate (one, or one per curriculum stage)",
            "learning rate",
            Reals,
            true,
        )
        .alias("lr"),
        spec(
            Knob::Scales,
            "scales",
            "scales",
            "Training values of the system's parameter (its domain sizes s, Reynolds \
             numbers Re, …)",
            "training parameter value",
            Reals,
            true,
        ),
        spec(
            Knob::Solver,
            "solver",
            "solver",
            "Coarse solver set-up (scheme, gradient, data path)",
            "solver set-up",
            Names,
            true,
        ),
    ]
};

impl Knob {
    fn spec(self) -> &'static Spec {
        SPECS
            .iter()
            .find(|spec| spec.knob == self)
            .expect("every knob has a spec")
    }

    /// The knob named `key` in a URL.
    pub fn from_key(key: &str) -> Option<Knob> {
        KNOBS.into_iter().find(|k| k.key() == key)
    }

    /// URL key and form input id (`m`, `lr`).
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// CLI flag without dashes (`horizon`, `learning-rate`).
    pub fn flag(self) -> &'static str {
        self.spec().flag
    }

    /// A second CLI flag (`--lr`, `--detach`).
    pub fn alias(self) -> Option<&'static str> {
        self.spec().alias
    }

    /// CLI help (and the form's label where the system does not change it).
    pub fn label(self) -> &'static str {
        self.spec().label
    }

    /// The form's label for `system`: the scales are named by the system's parameter
    /// (`Training domain sizes s (L = 8·s)`, `Training Reynolds numbers Re (ν = 1/Re)`).
    pub fn label_for(self, system: System) -> &'static str {
        match self {
            Knob::Scales => system.description().facts().parameter.training_label,
            _ => self.label(),
        }
    }

    /// What the value counts, in messages (`channels`, `loss steps`); for lists, one item.
    pub fn unit(self) -> &'static str {
        self.spec().unit
    }

    /// The kind of value.
    pub fn kind(self) -> Kind {
        self.spec().kind
    }

    /// Whether `unroll-lab train` takes it (else only `study` and the browser).
    pub fn trains(self) -> bool {
        self.spec().train
    }

    /// Whether the knob applies under `preset` (the `sizes` grid replaces the architecture,
    /// channels and depth by its architectures and their size grids, the `horizons` grid
    /// replaces m).
    pub fn applies_to_preset(self, preset: Preset) -> bool {
        match self {
            Knob::Architecture | Knob::Channels | Knob::Depth => preset != Preset::Sizes,
            Knob::Architectures => preset == Preset::Sizes,
            Knob::Horizon => preset != Preset::Horizons,
            _ => true,
        }
    }

    /// Whether the knob is used by `experiment` (its preset, and α only with transition).
    pub fn applies(self, experiment: &Experiment) -> bool {
        match self {
            Knob::Alpha => experiment.modes.contains(&Mode::Transition),
            Knob::Channels | Knob::Depth if experiment.preset_fixes_sizes() => false,
            Knob::Solver => !experiment.system.description().solver_setups().is_empty(),
            _ => self.applies_to_preset(experiment.preset),
        }
    }

    /// The knob's value in `experiment`.
    pub fn read(self, e: &Experiment) -> Value {
        match self {
            Knob::System => Value::System(e.system),
            Knob::Seeds => Value::Count(e.seeds),
            Knob::Iterations => Value::Count(e.iterations),
            Knob::Rollout => Value::Count(e.rollout),
            Knob::Modes => Value::Modes(e.modes.clone()),
            Knob::Modalities => Value::Modalities(e.modalities.clone()),
            Knob::Architecture => Value::Architecture(e.architecture),
            Knob::Architectures => Value::Architectures(e.architectures.clone()),
            Knob::Channels => Value::Count(e.channels),
            Knob::Depth => Value::Count(e.depth),
            Knob::Horizon => Value::Count(e.horizon),
            Knob::Warmup => Value::Count(e.warmup),
            Knob::Detach => Value::Count(e.detach),
            Knob::Alpha => Value::Real(e.alpha),
            Knob::LearningRate => Value::Reals(e.learning_rates.clone()),
            Knob::Scales => Value::Reals(e.scales.clone()),
            Knob::Solver => Value::Solver(e.solver.clone()),
        }
    }

    /// Sets the knob in `experiment` (a value of another kind is ignored: values come from
    /// this knob's [`Knob::parse`]).
    pub fn write(self, e: &mut Experiment, value: Value) {
        match (self, value) {
            (Knob::System, Value::System(v)) => e.system = v,
            (Knob::Seeds, Value::Count(v)) => e.seeds = v,
            (Knob::Iterations, Value::Count(v)) => e.iterations = v,
            (Knob::Rollout, Value::Count(v)) => e.rollout = v,
            (Knob::Modes, Value::Modes(v)) => e.modes = v,
            (Knob::Modalities, Value::Modalities(v)) => e.modalities = v,
            (Knob::Architecture, Value::Architecture(v)) => e.set_architecture(v),
            (Knob::Architectures, Value::Architectures(v)) => e.architectures = v,
            (Knob::Channels, Value::Count(v)) => e.channels = v,
            (Knob::Depth, Value::Count(v)) => e.depth = v,
            (Knob::Horizon, Value::Count(v)) => e.horizon = v,
            (Knob::Warmup, Value::Count(v)) => e.warmup = v,
            (Knob::Detach, Value::Count(v)) => e.detach = v,
            (Knob::Alpha, Value::Real(v)) => e.alpha = v,
            (Knob::LearningRate, Value::Reals(v)) => e.learning_rates = v,
            (Knob::Scales, Value::Reals(v)) => e.scales = v,
            (Knob::Solver, Value::Solver(v)) => e.solver = canonical_solver(e.system, v),
            _ => {}
        }
    }

    /// Sets the knob in a training config (the knobs [`Knob::trains`]; others are ignored).
    pub fn write_train(self, config: &mut TrainConfig, value: &Value) {
        match (self, value) {
            (Knob::Iterations, Value::Count(v)) => config.set_iterations(*v),
            (Knob::Architecture, Value::Architecture(v)) => {
                config.net = config.net.with_architecture(*v)
            }
            (Knob::Channels, Value::Count(v)) => config.net.channels = *v,
            (Knob::Depth, Value::Count(v)) => config.net.depth = *v,
            (Knob::Horizon, Value::Count(v)) => config.unroll.horizon = *v,
            (Knob::Warmup, Value::Count(v)) => config.unroll.warmup = *v,
            (Knob::Detach, Value::Count(v)) => config.unroll.detach_interval = *v,
            (Knob::Alpha, Value::Real(v)) => config.alpha = *v,
            (Knob::LearningRate, Value::Reals(v)) => set_learning_rates(config, v),
            (Knob::Scales, Value::Reals(v)) => config.data.scales = v.clone(),
            (Knob::Solver, Value::Solver(v)) => {
                config.solver = canonical_solver(config.system, v.clone())
            }
            _ => {}
        }
    }

    /// The value a form shows for text that does not parse: out of every range, so the field
    /// shows its message (`usize::MAX`, NaN; a list keeps its readable entries and NaN for the
    /// others).
    pub fn unparsable(self, text: &str) -> Option<Value> {
        match self.kind() {
            Kind::Count => Some(Value::Count(usize::MAX)),
            Kind::Real => Some(Value::Real(f64::NAN)),
            Kind::Reals => Some(Value::Reals(
                text.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().unwrap_or(f64::NAN))
                    .collect(),
            )),
            Kind::Names => None,
        }
    }
}

/// `setup` with the system's default named by the empty name (so `solver=piso` and no
/// `solver` are the same experiment, with the same plan hash).
fn canonical_solver(system: System, setup: SolverSetup) -> SolverSetup {
    let default = system.description().solver_setups().first().map(|w| w.name);
    if default == Some(setup.name()) {
        SolverSetup::default()
    } else {
        setup
    }
}

/// Writes `rates` into `config`: the optimiser's rate is the first; a curriculum's stages take
/// one each (a single rate: every stage).
fn set_learning_rates(config: &mut TrainConfig, rates: &[f64]) {
    let Some(&first) = rates.first() else {
        return;
    };
    config.optimizer.learning_rate = first;
    if let Some(curriculum) = &mut config.curriculum {
        curriculum.learning_rates = match rates {
            [one] => vec![*one; curriculum.horizons.len()],
            many => many.to_vec(),
        };
    }
}

impl fmt::Display for Knob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_list_every_knob_once_in_knob_order() {
        let listed: Vec<Knob> = SPECS.iter().map(|spec| spec.knob).collect();
        assert_eq!(listed, KNOBS);
    }
}
