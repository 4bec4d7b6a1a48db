//! A system's own benches, as `unroll-lab bench statistics|solver --system NAME` asks for them:
//! the settings as given ([`StatisticsRequest`], [`SolverBenchRequest`]; each system reads
//! those it takes and fills its own defaults). The system prints its figures line by line
//! through the caller's [`Emit`] (`PhysicalSystem::bench_statistics`,
//! `PhysicalSystem::bench_solver`); what can go wrong is a [`SimulateError`], as for
//! `unroll-lab simulate`.

pub use super::simulate::SimulateError;

/// Prints one line of a bench's output (the CLI passes `println!`).
pub type Emit<'a> = &'a mut dyn FnMut(&str);

/// Emits `figures` as pretty JSON when `json`, else as the bench's own `table`.
pub fn emit_figures<T: serde::Serialize>(
    figures: &T,
    json: bool,
    emit: Emit<'_>,
    table: impl FnOnce(&T, Emit<'_>),
) -> Result<(), SimulateError> {
    if json {
        let text = serde_json::to_string_pretty(figures)
            .map_err(|err| SimulateError::Output(err.to_string()))?;
        emit(&text);
    } else {
        table(figures, emit);
    }
    Ok(())
}

/// The settings of one statistics bench as given (`None` / `false`: not given).
#[derive(Debug, Clone, Default)]
pub struct StatisticsRequest {
    /// A Reynolds number.
    pub reynolds: Option<f64>,
    /// Spin-up time of the truth from the seeded random field (time units).
    pub spinup_time: Option<f64>,
    /// Truth frames sampled after the spin-up.
    pub samples: Option<usize>,
    /// Largest lag of the autocorrelation, in coarse steps.
    pub max_lag: Option<usize>,
    /// Coarse steps of the coarse solvers' runs.
    pub coarse_steps: Option<usize>,
    /// The coarse solvers' time schemes by name, comma-separated.
    pub coarse_scheme: Option<String>,
    /// The paper's figures on the system's test truth instead of the run.
    pub paper_tests: bool,
    /// Seed of the random initial field.
    pub seed: Option<u64>,
    /// The figures as JSON instead of a table.
    pub json: bool,
}

/// The settings of one solver bench as given (`None` / `false`: not given).
#[derive(Debug, Clone, Default)]
pub struct SolverBenchRequest {
    /// Learned steps timed per measurement.
    pub steps: Option<usize>,
    /// Frames kept per trajectory for the training-set timing.
    pub kept_frames: Option<usize>,
    /// The figures as JSON instead of a table.
    pub json: bool,
}
