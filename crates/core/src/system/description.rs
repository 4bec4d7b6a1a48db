//! What everyone but a trainer needs of a physical system: the [`SystemDescription`] trait. A
//! system describes its state shape, the parameter varied between cases, its words, its
//! architectures, presets and deviations, its checks of a config, its FLOP counts and its
//! playground (f64 solvers). It names no burn type, so the page (which links no burn) reaches
//! every system through it; [`PhysicalSystem`](super::physics::PhysicalSystem) adds the data,
//! the metrics and the hybrid step on top.

use super::config::{Preset, StudyConfig};
use super::playground::Playground;
use super::published::Published;
use crate::nets::Architecture;
use crate::train::config::TrainDataConfig;
use crate::train::{Mode, TrainConfig, TrainError};
use crate::types::solver_setup::find;
use crate::types::{
    EvalConfig, Parameter, PeerCommands, SetupWords, SolverSetup, SpaceTime, StateShape, System,
    SystemFacts,
};

/// Most frames kept per space–time map (the default [`SystemDescription::sample`]).
pub const SAMPLE_FRAMES: usize = 100;

/// Finds the description of a [`System`]: the registry's `System::description`, handed to the
/// page's side of the study (the worker pool, the plan's checks), which never names a system.
pub type Descriptions = fn(System) -> &'static dyn SystemDescription;

/// One physical system as the page, the cost model and the checks see it, with no burn device:
/// its shapes, words, presets, checks and FLOP counts. Frames are flattened states of
/// [`SystemDescription::state_shape`]; `parameter` is a value of [`SystemDescription::parameter`]
/// (one entry of `TrainDataConfig::scales` / `EvalConfig::scales`).
pub trait SystemDescription: Sync {
    /// Which system this is.
    fn system(&self) -> System;

    /// Menu title.
    fn title(&self) -> &'static str;

    /// The shape of one state.
    fn state_shape(&self) -> StateShape;

    /// The network architectures that fit its state, in menu order.
    fn architectures(&self) -> &'static [Architecture];

    /// The parameter varied between cases.
    fn parameter(&self) -> Parameter;

    /// Its words: metric, baseline, maps and parameter as tables, charts and the form show
    /// them.
    fn facts(&self) -> SystemFacts;

    /// Training trajectories the data recipe `data` makes (per parameter value, the system's
    /// initial conditions).
    fn training_trajectories(&self, data: &TrainDataConfig) -> usize;

    /// The playground of a 1-D system (a reader's own initial state, the live picture), where
    /// the system offers one.
    fn playground(&self) -> Option<&dyn Playground> {
        None
    }

    /// The study `config` as the paper's own script of this system (and APEBench) would run
    /// it, or `None` where the paper has no script for it.
    fn peer_commands(&self, _config: &StudyConfig) -> Option<PeerCommands> {
        None
    }

    /// The paper's published numbers of this system (empty where the paper did not study it).
    fn published(&self) -> &'static [Published] {
        &[]
    }

    /// Iterations of the paper's training of this system behind a number published at `epochs`
    /// epochs (by default the `paper` preset's iterations, whatever `epochs`).
    fn paper_iterations(&self, _epochs: usize) -> usize {
        self.preset(Preset::Paper, 1).base.iterations
    }

    /// The training data a timing (`bench train`) trains on, cheap to make: the `paper`
    /// preset's recipe with at most 200 frames per trajectory.
    fn bench_data(&self) -> TrainDataConfig {
        let mut data = self.preset(Preset::Paper, 1).base.data;
        data.frames = data.frames.min(200);
        data
    }

    /// The system's own checks of a training config (beyond [`TrainConfig::validate`]'s
    /// generic ones): the modes and solver options it supports. The architecture and the
    /// parameter range are checked by [`SystemDescription::validate`].
    fn validate_training(&self, _config: &TrainConfig) -> Result<(), TrainError> {
        Ok(())
    }

    /// The coarse-solver set-ups the system offers, the default (the paper's) first; empty
    /// when it has only one.
    fn solver_setups(&self) -> &'static [SetupWords] {
        &[]
    }

    /// The entry of `solver` in [`SystemDescription::solver_setups`], or why it is not offered.
    fn solver_setup(&self, solver: &SolverSetup) -> Result<Option<SetupWords>, TrainError> {
        let offered = self.solver_setups();
        match find(offered, solver) {
            Some(words) => Ok(Some(*words)),
            None if solver.is_default() => Ok(None),
            None if offered.is_empty() => Err(TrainError::invalid(
                "solver",
                format!(
                    "{} has one coarse solver; there is no set-up '{solver}'",
                    self.title()
                ),
            )),
            None => {
                let names: Vec<&str> = offered.iter().map(|w| w.name).collect();
                Err(TrainError::invalid(
                    "solver",
                    format!(
                        "unknown solver set-up '{solver}' (expected {})",
                        names.join(", ")
                    ),
                ))
            }
        }
    }

    /// Every check of `config` for this system: the generic ones, the architecture, the
    /// parameter range, the system's own.
    fn validate(&self, config: &TrainConfig) -> Result<(), TrainError> {
        config.validate()?;
        if config.system != self.system() {
            return Err(TrainError::invalid(
                "system",
                format!("a {} config given to {}", config.system, self.system()),
            ));
        }
        let architecture = config.net.architecture;
        if !self.architectures().contains(&architecture) {
            let names: Vec<&str> = self.architectures().iter().map(|a| a.name()).collect();
            return Err(TrainError::invalid(
                "architecture",
                format!(
                    "{} does not take the {architecture} network (it takes {})",
                    self.title(),
                    names.join(", ")
                ),
            ));
        }
        let parameter = self.parameter();
        let (low, high) = parameter.native;
        if let Some(bad) = config
            .data
            .scales
            .iter()
            .find(|s| !(s.is_finite() && (low..=high).contains(*s)))
        {
            return Err(TrainError::invalid(
                "scales",
                format!(
                    "{} {} {bad} is outside {low}..={high}",
                    parameter.name, parameter.symbol
                ),
            ));
        }
        self.solver_setup(&config.solver)?;
        self.validate_training(config)
    }

    /// Counted FLOPs of one coarse-solver step of `mode` (α for the transition mode) for one
    /// state (0 where the mode has no solver).
    fn solver_flops_per_state(&self, mode: Mode, alpha: f64) -> f64;

    /// Floats the coarse solver keeps per state and step for the backward pass (WIG's memory
    /// estimate).
    fn solver_backward_floats(&self, mode: Mode, alpha: f64) -> f64;

    /// The study grid of `preset` for this system with `seeds` seeds (0, 1, …).
    fn preset(&self, preset: Preset, seeds: usize) -> StudyConfig;

    /// What `preset`'s training budget changes from the paper, one line per field.
    fn preset_deviations(&self, preset: Preset) -> Vec<String>;

    /// One paragraph: what `preset`'s training budget is, and every deviation from the paper.
    fn preset_description(&self, preset: Preset) -> String;

    /// Everything `config` changes from the paper's set-up of this system, one line each
    /// (solver substitutes, budgets, data sizes).
    fn config_deviations(&self, config: &StudyConfig) -> Vec<String>;

    /// Whether `preset` fixes the network sizes (the grid of `sizes`; Kolmogorov's `paper`: the
    /// paper's four 2-D ResNets).
    fn preset_fixes_sizes(&self, preset: Preset) -> bool {
        preset == Preset::Sizes
    }

    /// Makes `config` light enough for the browser (shorter data, fewer frames), where the
    /// system needs it.
    fn lighten_for_browser(&self, _config: &mut StudyConfig) {}

    /// Counted FLOPs of making the training data of `data` and, when given, the test truths of
    /// `eval` with the system's f64 ground truth for the coarse set-up `solver` (what shipped
    /// files cover is not counted): the estimate's data phase, at the data FLOP rate measured
    /// on the same device.
    fn data_flops(
        &self,
        data: &TrainDataConfig,
        solver: &SolverSetup,
        eval: Option<&EvalConfig>,
    ) -> f64;

    /// The files this system ships beside the page that make `config`'s data cheaper (paths
    /// from the site root, e.g. Kolmogorov's spun-up states and frames): a worker fetches and
    /// installs them ([`super::physics::PhysicalSystem::install_data_asset`]) before it makes
    /// the data;
    /// natively they are read from the checkout. None by default.
    fn data_assets(&self, _config: &StudyConfig) -> Vec<String> {
        Vec::new()
    }

    /// Whether the error metric runs over the whole rollout (Kolmogorov's velocity MSE) rather
    /// than over the error horizon H (KS's relative error).
    fn error_over_whole_rollout(&self) -> bool {
        false
    }

    /// The frames of a rollout (`[frames][values]`) kept for the maps of the results: KS keeps
    /// [`SAMPLE_FRAMES`] states (a space–time
    /// map), Kolmogorov fewer vorticity fields `[N²]` (snapshots for a time slider).
    fn sample(&self, rollout: &[Vec<f64>]) -> SpaceTime {
        SpaceTime::from_rollout(rollout, SAMPLE_FRAMES)
    }

    /// The error above which (or NaN) a trained model counts as diverged: excluded from the
    /// mean over seeds and flagged (`None`: every model counts).
    fn diverged_error(&self) -> Option<f64> {
        None
    }
}

impl StudyConfig {
    /// Checks the grid ([`StudyConfig::validate_grid`]) and every variant's training config
    /// against `system` (this config's system's implementation: its parameter range,
    /// architectures and modes).
    pub fn validate(&self, system: &dyn SystemDescription) -> Result<(), TrainError> {
        self.validate_grid()?;
        for variant in self.variants() {
            system.validate(&variant)?;
        }
        Ok(())
    }
}
