//! Training neural time-steppers: the simulation modes (prediction / correction / transition),
//! the training modalities (ONE / NOG / WIG with warm-up and detach interval), the seeded
//! minibatch schedule, the presets and the [`Trainer`] whose `step()` never reads back.

pub mod checkpoint;
pub mod config;
pub mod curriculum;
pub mod data;
pub mod ensemble;
pub mod epochs;
pub mod error;
pub mod flops;
pub mod gradient_flow;
pub mod guard;
pub mod modality;
pub mod preset;
pub mod run;
pub mod sampler;
pub mod schedule;
pub mod stages;
pub mod step;
pub mod trainer;
pub mod variant;

pub use config::{Modality, Mode, OptimizerConfig, TrainConfig, UnrollConfig};
pub use ensemble::{EnsembleTrainer, MemberLogs};
pub use error::TrainError;
pub use step::{HybridStep, Stepper};
pub use trainer::Trainer;

#[cfg(test)]
mod curriculum_tests;
#[cfg(test)]
mod tests;
