//! What the playground (a reader's own initial state rolled out by the truth, the coarse solver
//! and the trained models) and the first screen's live picture need of a 1-D system: its two
//! families of initial states and its ground-truth solver stepped from any state. A system
//! offers it through `SystemDescription::playground`.

/// A boxed one-step solver: state `[N]` → state `[N]` (f64).
pub type StepFn = Box<dyn Fn(&[f64]) -> Vec<f64> + Send + Sync>;

/// A 1-D system's playground.
pub trait Playground: Sync {
    /// Grid points of a state.
    fn points(&self) -> usize;

    /// Name of the ground-truth rollout (`truth (ETRK2)`).
    fn truth_name(&self) -> &'static str;

    /// Name of the coarse-solver rollout (`ETD1 only`).
    fn coarse_name(&self) -> &'static str;

    /// The training family's state with coefficients `(a, b)` at `parameter`, on `n` points.
    fn training_state(&self, a: f64, b: f64, parameter: f64, n: usize) -> Result<Vec<f64>, String>;

    /// The test family's state with coefficients `(c, s′)` at `parameter`, on `n` points.
    fn test_state(
        &self,
        c: f64,
        s_prime: f64,
        parameter: f64,
        n: usize,
    ) -> Result<Vec<f64>, String>;

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
