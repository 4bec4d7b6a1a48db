//! What the playground (a reader's own initial state rolled out by the truth, the coarse solver
//! and the trained models) and the first screen's live picture need of a 1-D system: its
//! families of initial states, the parameter a state is rolled out at, and its ground-truth and
//! coarse solvers stepped from any state. A system offers it through
//! `SystemDescription::playground`; a system without one returns `None` there, and the page says
//! it has no playground.

/// A boxed one-step solver: state `[N]` → state `[N]` (f64).
pub type StepFn = Box<dyn Fn(&[f64]) -> Vec<f64> + Send + Sync>;

/// A family of initial states with two free coefficients (KS: the paper's training ICs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Family {
    /// Its word in the URL and the menu's value (`train`).
    pub key: &'static str,
    /// Its menu text: the formula.
    pub title: &'static str,
    /// Its coefficients' names (`a`, `b`).
    pub names: [&'static str; 2],
    /// The coefficients' values when the family is picked.
    pub defaults: [f64; 2],
}

/// The physical parameter a playground state is rolled out at, in the playground's words.
#[derive(Debug, Clone, PartialEq)]
pub struct StateParameter {
    /// The field's label (`Domain scale s (L = 8·s)`).
    pub label: &'static str,
    /// Its name in a notice (`domain scale`).
    pub noun: &'static str,
    /// Its symbol (`s`).
    pub symbol: &'static str,
    /// The values accepted.
    pub limits: std::ops::RangeInclusive<f64>,
    /// The value a state starts at.
    pub default: f64,
}

/// A 1-D system's playground.
pub trait Playground: Sync {
    /// Grid points of a state.
    fn points(&self) -> usize;

    /// Name of the ground-truth rollout (`truth (ETRK2)`).
    fn truth_name(&self) -> &'static str;

    /// Name of the coarse solver (`ETD1`).
    fn coarse_solver(&self) -> &'static str;

    /// Name of the coarse-solver rollout (`ETD1 only`).
    fn coarse_name(&self) -> &'static str;

    /// The families of initial states, the first the one a state starts in.
    fn families(&self) -> &'static [Family];

    /// The state of family `family` (an index into [`Self::families`]) with `coefficients` at
    /// `parameter`, on `n` points.
    fn family_state(
        &self,
        family: usize,
        coefficients: [f64; 2],
        parameter: f64,
        n: usize,
    ) -> Result<Vec<f64>, String>;

    /// The parameter a state is rolled out at.
    fn parameter(&self) -> StateParameter;

    /// A developed state to watch at `parameter` (the first training state after the data's
    /// warm-up).
    fn developed_state(&self, parameter: f64) -> Result<Vec<f64>, String>;

    /// [`Self::developed_state`] as a state and the [`Self::truth_step`]s that develop it, for a
    /// caller that must not block while they run (the first screen's picture). By default the
    /// developed state itself and no steps.
    fn undeveloped_state(&self, parameter: f64) -> Result<(Vec<f64>, usize), String> {
        Ok((self.developed_state(parameter)?, 0))
    }

    /// The ground-truth solver's step at `parameter` (one learned step, Δt of the data).
    fn truth_step(&self, parameter: f64) -> Result<StepFn, String>;

    /// The coarse solver's step at `parameter` on states of `n` points (the study's baseline:
    /// the same step as `PhysicalSystem::baseline_rollout`).
    fn coarse_step(&self, parameter: f64, n: usize) -> Result<StepFn, String>;

    /// The ground truth from `state` over `steps` steps (`[steps + 1][N]`; a blow-up keeps the
    /// length with non-finite frames).
    fn truth_rollout(
        &self,
        state: &[f64],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<f64>>, String> {
        Ok(rollout(&self.truth_step(parameter)?, state, steps))
    }

    /// The coarse solver alone from `state` over `steps` steps (as [`Playground::truth_rollout`]).
    fn coarse_rollout(
        &self,
        state: &[f64],
        parameter: f64,
        steps: usize,
    ) -> Result<Vec<Vec<f64>>, String> {
        Ok(rollout(
            &self.coarse_step(parameter, state.len())?,
            state,
            steps,
        ))
    }
}

/// `step` applied `steps` times from `state` (`[steps + 1][N]`); after a non-finite frame every
/// frame is NaN.
fn rollout(step: &StepFn, state: &[f64], steps: usize) -> Vec<Vec<f64>> {
    let mut frames = vec![state.to_vec()];
    for _ in 0..steps {
        let last = frames.last().cloned().unwrap_or_default();
        let next = if last.iter().all(|v| v.is_finite()) {
            step(&last)
        } else {
            vec![f64::NAN; last.len()]
        };
        frames.push(next);
    }
    frames
}
