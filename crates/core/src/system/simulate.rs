//! One trajectory of a system's own solvers, as `unroll-lab simulate` asks for it: the
//! settings as given ([`SimulateRequest`]; each system reads those it takes and refuses the
//! others) and what can go wrong ([`SimulateError`]). The system answers with one line of JSON
//! (`PhysicalSystem::simulate`).

use serde::{Deserialize, Serialize};

use crate::types::{check_state, Precision};

/// Reads a file named on the command line (the CLI passes `std::fs::read_to_string`).
pub type ReadFile = fn(&str) -> std::io::Result<String>;

/// The settings of one simulation as given (`None`: not given).
#[derive(Debug, Clone)]
pub struct SimulateRequest {
    /// The time scheme by name.
    pub scheme: Option<String>,
    /// A coarse-solver set-up of the study by name.
    pub solver: Option<String>,
    /// A 1-D domain length.
    pub domain_size: Option<f64>,
    /// A viscosity.
    pub viscosity: Option<f64>,
    /// A Reynolds number.
    pub reynolds: Option<f64>,
    /// A time step.
    pub dt: Option<f64>,
    /// Steps (signed as given: a negative value is refused).
    pub steps: i64,
    /// Sub-steps per step.
    pub substeps: Option<i64>,
    /// Grid points per dimension.
    pub resolution: Option<i64>,
    /// Steps between reported states.
    pub every: Option<i64>,
    /// The initial state: a named one or a file.
    pub init: Option<String>,
    /// The precision of the solver.
    pub precision: Option<Precision>,
    /// How a file named by `init` is read.
    pub read_file: ReadFile,
}

/// Why a simulation did not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulateError {
    /// A bad or misplaced setting.
    #[error("{0}")]
    Usage(String),
    /// A file that cannot be read or is not what it should be.
    #[error("cannot read {path}: {message}")]
    File { path: String, message: String },
    /// The system's solver refused its configuration or failed.
    #[error("{0}")]
    Solver(String),
    /// The output could not be written as JSON.
    #[error("failed to write output: {0}")]
    Output(String),
}

/// The flags of [`SimulateRequest`] by their CLI names, and whether each was given.
fn given(request: &SimulateRequest) -> [(&'static str, bool); 11] {
    [
        ("scheme", request.scheme.is_some()),
        ("solver", request.solver.is_some()),
        ("domain-size", request.domain_size.is_some()),
        ("viscosity", request.viscosity.is_some()),
        ("reynolds", request.reynolds.is_some()),
        ("dt", request.dt.is_some()),
        ("substeps", request.substeps.is_some()),
        ("resolution", request.resolution.is_some()),
        ("every", request.every.is_some()),
        ("init", request.init.is_some()),
        ("precision", request.precision.is_some()),
    ]
}

impl SimulateRequest {
    /// Refuses the first flag given that `system` (its CLI name) does not take (`takes`: the
    /// flags it does, by CLI name; `steps` always applies).
    pub fn refuse_others(&self, takes: &[&str], system: &str) -> Result<(), SimulateError> {
        match given(self)
            .into_iter()
            .find(|(flag, given)| *given && !takes.contains(flag))
        {
            Some((flag, _)) => Err(SimulateError::Usage(format!(
                "--{flag} does not apply to --system {system}"
            ))),
            None => Ok(()),
        }
    }

    /// The text of the file at `path`, or a [`SimulateError::File`] naming it.
    pub fn read(&self, path: &str) -> Result<String, SimulateError> {
        (self.read_file)(path).map_err(|err| file_error(path, err.to_string()))
    }

    /// The state in the file at `path`: a JSON array of `values` finite numbers, or a
    /// [`SimulateError::File`] naming the file and what is wrong.
    pub fn state_file(&self, path: &str, values: usize) -> Result<Vec<f64>, SimulateError> {
        let state: Vec<f64> = serde_json::from_str(&self.read(path)?)
            .map_err(|err| file_error(path, format!("not a JSON array of numbers ({err})")))?;
        check_state(&state, values).map_err(|err| file_error(path, err.to_string()))?;
        Ok(state)
    }
}

/// The index `K` of an `--init` written `{form}` (`train:K`), or a usage error quoting it.
pub fn init_index(form: &str, text: &str) -> Result<usize, SimulateError> {
    text.parse().map_err(|_| {
        SimulateError::Usage(format!("{form} needs a non-negative integer, got '{text}'"))
    })
}

/// A [`SimulateError::File`] about `path`.
pub fn file_error(path: &str, message: String) -> SimulateError {
    SimulateError::File {
        path: path.to_string(),
        message,
    }
}

/// `value` as a `usize`, or a usage error naming `--name`.
pub fn non_negative(name: &str, value: i64) -> Result<usize, SimulateError> {
    usize::try_from(value)
        .map_err(|_| SimulateError::Usage(format!("--{name} must be non-negative, got {value}")))
}

/// `output` as one line of JSON.
pub fn json_line<T: serde::Serialize>(output: &T) -> Result<String, SimulateError> {
    serde_json::to_string(output).map_err(|err| SimulateError::Output(err.to_string()))
}

/// The states of a simulated trajectory, which every system's output flattens in:
/// `states[0]` the initial state, then one per reported step, up to the first that diverged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Simulated<S> {
    /// The states (a 1-D system's: `[steps + 1, N]`), fewer when the run diverged.
    pub states: Vec<S>,
    /// Index of the first state that diverged (not finite, or blown up), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged_at: Option<usize>,
}

impl<S> From<(Vec<S>, Option<usize>)> for Simulated<S> {
    fn from((states, diverged_at): (Vec<S>, Option<usize>)) -> Self {
        Self {
            states,
            diverged_at,
        }
    }
}
