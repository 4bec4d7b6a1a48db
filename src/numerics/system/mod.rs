//! The seam between a study and the physics it learns: a [`PhysicalSystem`] supplies the state
//! shape, the physical parameter that varies between cases, the ground-truth data recipe, the
//! test set, the coarse-solver baseline, the test metrics and the trainer and evaluation
//! stepper built on its solvers. The runner ([`crate::numerics::study::runner`]), the cost model,
//! the results and the UI reach the physics only through it; [`System`] names the systems and
//! finds their implementation.
//!
//! Kuramoto–Sivashinsky ([`crate::numerics::ks::system::Ks`]) is the one implementation. The
//! interface is shaped by what Kolmogorov flow needs: a state of several channels on a 2-D grid
//! ([`StateShape`]: two velocity channels and pressure on `N × N`), and a parameter that is not
//! a domain size ([`Parameter`]: the Reynolds number Re). Adding Kolmogorov flow is a folder
//! `numerics/kolmogorov/` implementing [`PhysicalSystem`], a variant of [`System`] and its arm
//! in [`System::physics`].

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::numerics::ks::data::Trajectory;
use crate::numerics::study::evaluate::{EvalConfig, TestMetrics};
use crate::numerics::study::results::SpaceTime;
use crate::numerics::train::config::TrainDataConfig;
use crate::numerics::train::mode::Stepper;
use crate::numerics::train::{Mode, TrainConfig, TrainError, Trainer};

/// The simulated systems.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// The 1-D Kuramoto–Sivashinsky equation of the study.
    #[default]
    Ks,
    /// 2-D Kolmogorov flow (incompressible Navier–Stokes with sinusoidal forcing).
    Kolmogorov,
}

crate::named_enum!(System, "system", { Ks => "ks", Kolmogorov => "kolmogorov" });

/// Systems listed in menus but not available yet: `(name, menu title)`.
pub const COMING_SYSTEMS: [(&str, &str); 0] = [];

impl System {
    /// The implementation.
    pub fn physics(self) -> &'static dyn PhysicalSystem {
        match self {
            System::Ks => &crate::numerics::ks::system::Ks,
            System::Kolmogorov => &crate::numerics::kolmogorov::system::Kolmogorov,
        }
    }

    /// Menu title.
    pub fn title(self) -> &'static str {
        self.physics().title()
    }

    /// Whether `name` is a system that is listed but not available yet.
    pub fn is_coming(name: &str) -> bool {
        COMING_SYSTEMS.iter().any(|(coming, _)| *coming == name)
    }
}

/// The shape of one state: `channels` fields on a grid of `points` per spatial dimension
/// (KS: 1 channel on 48 points; Kolmogorov: 2 velocities + pressure on `N × N`). States travel
/// flattened, channel-major, `values()` numbers each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateShape {
    /// Fields per grid point.
    pub channels: usize,
    /// Grid points per spatial dimension.
    pub points: Vec<usize>,
}

impl StateShape {
    /// Numbers in one state.
    pub fn values(&self) -> usize {
        self.channels * self.points.iter().product::<usize>()
    }
}

/// The physical parameter that differs between training and test cases (KS: the domain scale
/// `s`, L = 8·s; Kolmogorov: the Reynolds number), with the range each surface accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parameter {
    /// What it is, in words (`domain scale`).
    pub name: &'static str,
    /// Its symbol (`s`, `Re`).
    pub symbol: &'static str,
    /// One line on what it sets (`domain length L = 8·s`).
    pub meaning: &'static str,
    /// Accepted values natively (the numerics' own bounds).
    pub native: (f64, f64),
    /// Accepted values in the browser (tighter: data generation time and memory).
    pub browser: (f64, f64),
}

/// One physical system, as a study needs it. Frames are flattened states of
/// [`PhysicalSystem::state_shape`]; `parameter` is a value of [`PhysicalSystem::parameter`]
/// (one entry of `TrainDataConfig::scales` / `EvalConfig::scales`).
pub trait PhysicalSystem: Sync {
    /// Which system this is.
    fn system(&self) -> System;

    /// Menu title.
    fn title(&self) -> &'static str;

    /// The shape of one state.
    fn state_shape(&self) -> StateShape;

    /// The network architectures that fit its state, in menu order.
    fn architectures(&self) -> &'static [crate::numerics::nets::Architecture];

    /// The parameter varied between cases.
    fn parameter(&self) -> Parameter;

    /// Name of the coarse-solver-only baseline (`ETD1 only`).
    fn baseline_name(&self) -> &'static str;

    /// Short name of the error metric in tables (`rel. error`, `velocity MSE`).
    fn error_name(&self) -> &'static str {
        "rel. error"
    }

    /// Training trajectories the data recipe `data` makes (per parameter value, the system's
    /// initial conditions).
    fn training_trajectories(&self, data: &TrainDataConfig) -> usize;

    /// Training trajectory `index` (parameter-major) of `data`: the ground-truth solver from the
    /// system's initial condition, warm-up dropped, stored f32.
    fn training_trajectory(
        &self,
        data: &TrainDataConfig,
        index: usize,
    ) -> Result<Trajectory, TrainError>;

    /// Every training trajectory of `data`, in order.
    fn training_data(&self, data: &TrainDataConfig) -> Result<Vec<Trajectory>, TrainError> {
        (0..self.training_trajectories(data))
            .map(|index| self.training_trajectory(data, index))
            .collect()
    }

    /// The ground truth of test `test` of test size `size` (`[rollout_steps + 1][values]`,
    /// frame 0 = the evaluation start, f64).
    fn test_truth(
        &self,
        eval: &EvalConfig,
        size: usize,
        test: usize,
    ) -> Result<Vec<Vec<f64>>, TrainError>;

    /// The coarse solver alone from each truth's frame 0, `steps` steps (`[tests][steps + 1]`).
    fn baseline_rollout(
        &self,
        truth: &[Vec<Vec<f64>>],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<Vec<f64>>>, TrainError>;

    /// The metrics of `rollout` against `truth` (relative error over `error_horizon` steps,
    /// correlation, divergence, stability, the error of every frame).
    fn test_metrics(
        &self,
        truth: &[Vec<f64>],
        rollout: &[Vec<f64>],
        parameter: f64,
        error_horizon: usize,
    ) -> Result<TestMetrics, TrainError>;

    /// A trainer of `config` on `data` (the network inputs — state plus parameter channel —
    /// and the mode's coarse solver are the system's: [`Trainer::new`] builds the stepper of
    /// `config.system`).
    fn trainer(
        &self,
        config: TrainConfig,
        data: &[Trajectory],
        device: &Device,
    ) -> Result<Trainer, TrainError> {
        Trainer::new(config, data, device)
    }

    /// The frames of a rollout (`[frames][values]`) kept for the maps of the results: KS keeps
    /// [`SAMPLE_FRAMES`](crate::numerics::study::runner::SAMPLE_FRAMES) states (a space–time
    /// map), Kolmogorov fewer vorticity fields `[N²]` (snapshots for a time slider).
    fn sample(&self, rollout: &[Vec<f64>]) -> SpaceTime {
        SpaceTime::from_rollout(rollout, crate::numerics::study::runner::SAMPLE_FRAMES)
    }

    /// The error above which (or NaN) a trained model counts as diverged: excluded from the
    /// mean over seeds and flagged (`None`: every model counts).
    fn diverged_error(&self) -> Option<f64> {
        None
    }

    /// The hybrid stepper of `mode` for evaluation on every test size of `eval`.
    fn evaluation_stepper(
        &self,
        mode: Mode,
        alpha: f64,
        eval: &EvalConfig,
        device: &Device,
    ) -> Result<Stepper, TrainError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ks_is_one_channel_on_the_study_grid() {
        let ks = System::Ks.physics();
        assert_eq!(ks.system(), System::Ks);
        assert_eq!(ks.state_shape().values(), 48);
        assert_eq!(ks.parameter().symbol, "s");
        assert_eq!("ks".parse::<System>(), Ok(System::Ks));
        assert!(!System::is_coming("kolmogorov"));
        let kolmogorov = System::Kolmogorov.physics();
        assert_eq!(kolmogorov.system(), System::Kolmogorov);
        assert_eq!(kolmogorov.state_shape().values(), 2 * 32 * 32);
        assert_eq!(kolmogorov.parameter().symbol, "Re");
        assert_eq!(kolmogorov.diverged_error(), Some(100.0));
    }
}
