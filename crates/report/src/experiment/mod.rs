//! One experiment, typed end to end: the preset and every knob of a study, as the browser's
//! form edits it, the URL shares it and the CLI runs it.
//!
//! [`knob`] defines every knob once (URL key, CLI flag, label, unit, kind, how it reads and
//! writes); [`limits`] holds the one limits table (browser and native); [`problem`] words what
//! is wrong for each surface; [`query`] is the URL codec, [`command`] the equivalent
//! `unroll-lab study …` command and the deviations from the study, [`validate`] the per-field
//! validation and the workload (the cost model itself is [`unroll_core::study::cells::cost`]).
//!
//! A preset sets the grid axis (network sizes for `sizes`, unroll horizons for `horizons`) and
//! the defaults of every knob; the knobs override the preset's base training config. In the
//! `sizes` preset the architecture/channels/depth knobs do not apply (its architectures knob
//! picks the architectures, each with its size grid), in `horizons` the m knob does not, and
//! α applies only with the transition mode.

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod check;
pub mod command;
pub mod equation_form;
pub mod estimate;
pub mod initial_state;
pub mod knob;
pub mod limits;
pub mod peers;
pub mod playground;
pub mod probe_request;
pub mod problem;
pub mod query;
pub mod site;
pub mod url_keys;
pub mod validate;
pub mod value;

#[cfg(test)]
mod architecture_tests;
#[cfg(test)]
mod system_tests;
#[cfg(test)]
mod tests;

pub use knob::{Kind, Knob, Value, KNOBS};
pub use limits::Target;
pub use problem::Problem;
pub use validate::FieldError;

use unroll_core::nets::{Architecture, NetConfig};
use unroll_core::system::config::{NetSize, Preset, StudyConfig};
use unroll_core::system::System;
use unroll_core::train::{Modality, Mode};
use unroll_core::types::SolverSetup;

/// Knob values given explicitly (CLI flags, URL parameters), in the order given; a knob given
/// twice keeps the last.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides(Vec<(Knob, Value)>);

impl Overrides {
    /// Sets `knob` (replacing an earlier value).
    pub fn set(&mut self, knob: Knob, value: Value) {
        self.0.retain(|(k, _)| *k != knob);
        self.0.push((knob, value));
    }

    /// The value given for `knob`.
    pub fn get(&self, knob: Knob) -> Option<&Value> {
        self.0.iter().find(|(k, _)| *k == knob).map(|(_, v)| v)
    }

    /// Every `(knob, value)`, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &(Knob, Value)> {
        self.0.iter()
    }

    /// True when nothing is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An experiment: where it runs, the preset, and the value of every knob.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// Browser or native (the limits and defaults that apply).
    pub target: Target,
    /// The simulated system.
    pub system: System,
    /// The grid.
    pub preset: Preset,
    /// Simulation modes (in the order they are run).
    pub modes: Vec<Mode>,
    /// Training modalities (in the order they are run).
    pub modalities: Vec<Modality>,
    /// Network architecture (not used by the `sizes` preset).
    pub architecture: Architecture,
    /// Architectures of the `sizes` grid (in the order they are run).
    pub architectures: Vec<Architecture>,
    /// Channels C (not used by the `sizes` preset).
    pub channels: usize,
    /// Residual blocks D (not used by the `sizes` preset).
    pub depth: usize,
    /// Unroll horizon m (not used by the `horizons` preset).
    pub horizon: usize,
    /// Warm-up steps w (detached, outside the loss).
    pub warmup: usize,
    /// Detach interval k of WIG (0 = never cut).
    pub detach: usize,
    /// α of the transition mode (used only when transition is selected).
    pub alpha: f64,
    /// Initial learning rate: one, or one per curriculum stage (Kolmogorov: 1e-4, 1e-5, 1e-6).
    pub learning_rates: Vec<f64>,
    /// Seeds per variant.
    pub seeds: usize,
    /// Training iterations per variant.
    pub iterations: usize,
    /// Rollout length of the correlation-time and stability evaluation (the study: 750).
    pub rollout: usize,
    /// Training domain scales `s` (L = 8·s).
    pub scales: Vec<f64>,
    /// The coarse-solver set-up (empty: the system's default, the paper's).
    pub solver: SolverSetup,
}

impl Default for Experiment {
    fn default() -> Self {
        Self::for_preset(Preset::Quick)
    }
}

impl Experiment {
    /// The browser's defaults for `preset`: its grid's modes and modalities, its base training
    /// config's network, unroll, α, learning rate and domain sizes; 1 seed, the preset's
    /// iterations where the page runs them whole ([`limits::browser_iterations`]), the study's
    /// rollout.
    pub fn for_preset(preset: Preset) -> Self {
        Self::defaults(preset, Target::Browser)
    }

    /// The defaults of `preset` at `target` (natively: 3 seeds and the preset's iterations).
    pub fn defaults(preset: Preset, target: Target) -> Self {
        Self::defaults_for(System::default(), preset, target)
    }

    /// The defaults of `preset` for `system` at `target`.
    pub fn defaults_for(system: System, preset: Preset, target: Target) -> Self {
        let config = system.description().preset(preset, 1);
        let base = &config.base;
        let (seeds, iterations) = match target {
            Target::Browser => (
                limits::DEFAULT_SEEDS.0,
                limits::browser_iterations(base.iterations),
            ),
            Target::Native => (limits::DEFAULT_SEEDS.1, base.iterations),
        };
        Self {
            target,
            system: config.system,
            preset,
            modes: config.modes.clone(),
            modalities: config.modalities.clone(),
            architecture: base.net.architecture,
            architectures: vec![base.net.architecture],
            channels: base.net.channels,
            depth: base.net.depth,
            horizon: base.unroll.horizon,
            warmup: base.unroll.warmup,
            detach: base.unroll.detach_interval,
            alpha: base.alpha,
            learning_rates: match &base.curriculum {
                Some(curriculum) => curriculum.learning_rates.clone(),
                None => vec![base.optimizer.learning_rate],
            },
            seeds,
            iterations,
            rollout: config.eval.rollout_steps,
            scales: base.data.scales.clone(),
            solver: base.solver.clone(),
        }
    }

    /// The name of the coarse-solver set-up (the system's default's where none is chosen;
    /// empty where the system offers no choice).
    pub fn solver_name(&self) -> &str {
        match self.system.description().solver_setups().first() {
            Some(default) if self.solver.is_default() => default.name,
            _ => self.solver.name(),
        }
    }

    /// The defaults of this experiment's preset and target.
    pub fn preset_defaults(&self) -> Self {
        Self::defaults_for(self.system, self.preset, self.target)
    }

    /// Switches the preset: its grid's modes and modalities replace the current ones, every
    /// other knob is kept.
    pub fn set_preset(&mut self, preset: Preset) {
        let defaults = Self::defaults_for(self.system, preset, self.target);
        self.preset = preset;
        self.modes = defaults.modes;
        self.modalities = defaults.modalities;
    }

    /// Switches the system: every knob takes that system's defaults for the current preset
    /// (network, data, budget and test set differ between systems).
    pub fn set_system(&mut self, system: System) {
        if system != self.system {
            *self = Self::defaults_for(system, self.preset, self.target);
        }
    }

    /// Switches the architecture: a size left at the old architecture's default takes the new
    /// one's default size (as [`Experiment::set_system`] takes the system's defaults); a size
    /// set by hand is kept.
    pub fn set_architecture(&mut self, architecture: Architecture) {
        let net = NetConfig {
            architecture: self.architecture,
            channels: self.channels,
            depth: self.depth,
        }
        .with_architecture(architecture);
        self.architecture = net.architecture;
        self.channels = net.channels;
        self.depth = net.depth;
    }

    /// Applies `overrides` at this experiment's target: each value is checked against the
    /// limits and against the preset, then the depth against the architecture and the
    /// architectures against the system; the first problem with its knob otherwise.
    pub fn apply(&mut self, overrides: &Overrides) -> Result<(), (Knob, Problem)> {
        for (knob, value) in overrides.iter() {
            if !knob.applies_to_preset(self.preset) {
                return Err((*knob, Problem::NotApplicable(self.preset)));
            }
            check::check(*knob, value, self.target, self.system)
                .map_err(|problem| (*knob, problem))?;
            knob.write(self, value.clone());
        }
        if let Some(problem) = self.depth_problem() {
            return Err((Knob::Depth, problem));
        }
        for knob in [Knob::Architecture, Knob::Architectures] {
            if let Some(problem) = self.architecture_problem(knob) {
                return Err((knob, problem));
            }
        }
        Ok(())
    }

    /// The problem of `knob` (architecture or architectures) when the system does not take an
    /// architecture it names; `None` otherwise or where the preset does not use the knob.
    pub fn architecture_problem(&self, knob: Knob) -> Option<Problem> {
        let named = match knob {
            Knob::Architecture => std::slice::from_ref(&self.architecture),
            Knob::Architectures => self.architectures.as_slice(),
            _ => return None,
        };
        let physics = self.system.description();
        let accepted = physics.architectures();
        let wrong = named.iter().find(|a| !accepted.contains(a))?;
        knob.applies(self).then(|| {
            let names: Vec<&str> = accepted.iter().map(|a| a.name()).collect();
            Problem::Invalid(format!(
                "{} does not take the {wrong} network (it takes {})",
                physics.title(),
                unroll_core::names::in_words(&names)
            ))
        })
    }

    /// The depth's problem when it is too deep for the architecture (a U-Net halves 48 points
    /// at most 4 times); `None` otherwise or where the preset sets the sizes.
    pub fn depth_problem(&self) -> Option<Problem> {
        let max = self.architecture.max_depth();
        (self.uses_net_size() && self.depth > max && self.depth != usize::MAX).then(|| {
            Problem::Range(format!(
                "between 0 and {max} levels for the U-Net (48 points halve 4 times)"
            ))
        })
    }

    /// The knobs whose values differ from the preset's defaults (URL, CLI command).
    pub fn overrides(&self) -> Overrides {
        let defaults = self.preset_defaults();
        // The architecture picks the default size.
        let mut sized = defaults.clone();
        sized.set_architecture(self.architecture);
        let mut out = Overrides::default();
        for knob in KNOBS {
            let value = knob.read(self);
            let default = match knob {
                Knob::Channels | Knob::Depth => knob.read(&sized),
                _ => knob.read(&defaults),
            };
            // The system picks the defaults, so it always differs from the default system's.
            let differs = value.to_string() != default.to_string();
            if differs || (knob == Knob::System && self.system != System::default()) {
                out.set(knob, value);
            }
        }
        out
    }

    /// Selects or deselects `mode` (the selection stays in the order predict, correct,
    /// transition).
    pub fn toggle_mode(&mut self, mode: Mode) {
        self.modes = toggled(&self.modes, mode, &Mode::ALL);
    }

    /// Selects or deselects `architecture` of the `sizes` grid (in the order of
    /// [`Architecture::ALL`]).
    pub fn toggle_architecture(&mut self, architecture: Architecture) {
        self.architectures = toggled(&self.architectures, architecture, &Architecture::ALL);
    }

    /// Selects or deselects `modality` (in the order ONE, NOG, WIG).
    pub fn toggle_modality(&mut self, modality: Modality) {
        self.modalities = toggled(&self.modalities, modality, &Modality::ALL);
    }

    /// True when the channels/depth knobs are used (every preset but `sizes`).
    pub fn uses_net_size(&self) -> bool {
        Knob::Channels.applies(self)
    }

    /// True when the preset fixes the network sizes: `sizes`, and Kolmogorov's `paper` (the
    /// paper's four 2-D ResNets).
    pub fn preset_fixes_sizes(&self) -> bool {
        self.system.description().preset_fixes_sizes(self.preset)
    }

    /// True when the m knob is used (every preset but `horizons`).
    pub fn uses_horizon(&self) -> bool {
        Knob::Horizon.applies(self)
    }

    /// True when α is used (transition selected).
    pub fn uses_alpha(&self) -> bool {
        Knob::Alpha.applies(self)
    }

    /// The parameter count of the network the knobs describe; `None` while channels or depth
    /// is out of range (or the `sizes` preset replaces them).
    pub fn parameter_count(&self) -> Option<usize> {
        let ok =
            |knob: Knob| check::check(knob, &knob.read(self), self.target, self.system).is_ok();
        let depth_ok = ok(Knob::Depth) && self.depth_problem().is_none();
        (self.uses_net_size() && ok(Knob::Channels) && depth_ok).then(|| {
            NetConfig {
                architecture: self.architecture,
                channels: self.channels,
                depth: self.depth,
            }
            .parameter_count()
        })
    }

    /// The preset's networks with their parameter counts: every selected architecture's size
    /// grid (`sizes` preset; empty otherwise).
    pub fn preset_sizes(&self) -> Vec<(NetSize, usize)> {
        if !self.preset_fixes_sizes() {
            return Vec::new();
        }
        self.architectures
            .iter()
            .flat_map(|&architecture| Preset::size_grid(architecture))
            .map(|size| {
                let params = NetConfig {
                    architecture: size.architecture.unwrap_or(self.architecture),
                    channels: size.channels,
                    depth: size.depth,
                }
                .parameter_count();
                (size, params)
            })
            .collect()
    }

    /// The study it runs: the preset's grid, with every applicable knob written into the base
    /// training config (and the grid's single size / horizon where the preset does not fix
    /// them). Seeds beyond the target's limit are cut here, so an invalid entry never builds a
    /// huge seed list: check [`Self::validate`].
    pub fn study_config(&self) -> StudyConfig {
        let mut config = self
            .system
            .description()
            .preset(self.preset, self.seeds.min(limits::max_seeds(self.target)));
        config.modes = self.modes.clone();
        config.modalities = self.modalities.clone();
        for knob in KNOBS {
            if knob.trains() && knob.applies(self) {
                knob.write_train(&mut config.base, &knob.read(self));
            }
        }
        if self.uses_net_size() {
            config.sizes = vec![NetSize::new(self.channels, self.depth)];
        } else {
            config.sizes = self.preset_sizes().into_iter().map(|(s, _)| s).collect();
        }
        if self.uses_horizon() {
            config.horizons = vec![self.horizon];
        }
        config.eval.rollout_steps = self.rollout;
        let physics = self.system.description();
        if physics.error_over_whole_rollout() {
            config.eval.error_horizon = config.eval.rollout_steps;
        }
        if self.target == Target::Browser {
            physics.lighten_for_browser(&mut config);
        }
        sync_curriculum(&mut config.base);
        config
    }
}

/// `items` with `item` added or removed, in the order of `all`.
fn toggled<T: Copy + PartialEq>(items: &[T], item: T, all: &[T]) -> Vec<T> {
    let on = !items.contains(&item);
    all.iter()
        .copied()
        .filter(|&x| if x == item { on } else { items.contains(&x) })
        .collect()
}

/// Keeps a curriculum consistent with knobs written into `base`: its stages share the
/// iterations (`iterations` rounded up to a multiple of the stages; the stage learning rates
/// are the `lr` knob's), and the learning-rate decay keeps its steps per stage (the paper
/// decays per epoch, so a longer stage decays as often: ×0.9 every 50 of 1000 iterations
/// becomes every 200 of 4000).
fn sync_curriculum(base: &mut unroll_core::train::TrainConfig) {
    let iterations = base.iterations;
    let stages = base.stage_horizons().len();
    if let Some(curriculum) = &mut base.curriculum {
        let preset_stage = curriculum.stage_iterations.max(1);
        curriculum.stage_iterations = iterations.div_ceil(stages.max(1)).max(1);
        let decay_every = base.optimizer.decay_every as f64 * curriculum.stage_iterations as f64
            / preset_stage as f64;
        base.optimizer.decay_every = (decay_every.round() as usize).max(1);
    }
    base.iterations = base.total_iterations();
}
