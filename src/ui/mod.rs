//! Leptos components. Thin: logic lives in plain types elsewhere; components never create
//! devices or await the GPU themselves (they receive what `platform` acquired).

mod app;
mod canvas_figure;
mod charts;
mod committed_beside;
mod committed_runs;
mod deferred_mount;
mod device_badge;
mod draw_surface;
mod equation_editor;
mod experiment_form;
mod gradient_flow;
mod gradient_legend;
mod hero;
mod horizon_lens;
mod intro;
mod knob_field;
mod network_fields;
mod panel;
mod playground;
mod pool_run;
mod results_section;
mod results_table;
mod rollout_figure;
mod run_controls;
mod run_start;
mod run_storage;
mod show_results;
mod state_controls;
mod study_panel;
mod unfinished_prompt;
mod workbench;

pub use app::App;
pub use charts::{LiveLoss, ResultsCharts};
pub use deferred_mount::{Later, WhenMounted};
pub use device_badge::DeviceBadge;
pub use experiment_form::ExperimentForm;
pub use gradient_flow::GradientFlow;
pub use intro::Intro;
pub use results_table::ResultsTable;
pub use study_panel::StudyPanel;
