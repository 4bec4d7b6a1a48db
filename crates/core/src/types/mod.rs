//! The plain-data floor: the types every layer shares (which system, the shape of a state, the
//! parameter varied between cases and the words a system is shown with, trajectories, precision, test metrics and the test set, the
//! kept frames of a rollout, the peers' commands). Nothing here imports anything above the numerics' utilities
//! (`names`, `metrics`): a test (`crates/core/tests/it/structure.rs`) holds it.

pub mod equation;
pub mod equation_id;
pub mod equation_text;
pub mod eval_config;
pub(crate) mod nullable;
pub mod packed;
pub mod peer_export;
pub mod precision;
pub mod solver_setup;
pub mod space_time;
pub mod state_error;
pub mod system;
pub mod system_facts;
pub mod test_metrics;
pub mod trajectory;
pub mod vorticity_metrics;

pub use equation::{Equation, EquationError, Integrator, Term};
pub use equation_id::EquationId;
pub use eval_config::EvalConfig;
pub use peer_export::{PeerCommands, PeerExport};
pub use precision::Precision;
pub use solver_setup::{SetupWords, SolverSetup};
pub use space_time::SpaceTime;
pub use state_error::{check_state, StateError};
pub use system::{Parameter, StateShape, System};
pub use system_facts::{
    BaselineWords, MapKind, MapWords, Measures, MetricWords, ParameterWords, SystemFacts,
};
pub use test_metrics::TestMetrics;
pub use trajectory::{TestSize, Trajectory};
pub use vorticity_metrics::VorticityMetrics;
