//! A study split into independent cells, for clusters: one cell = one training (variant × seed,
//! the variant fixing mode, modality, size, horizon and system) plus its evaluation on the
//! test set. A [`StudyPlan`] lists every cell with its full training config and counted cost;
//! its identity is [`config_hash`], which every cell result carries, so results of another
//! study are never merged by mistake. Cells run with [`super::batch::run_cell`] and merge with
//! [`super::merge::merge`] into exactly the results of the one-process study.

use serde::{Deserialize, Serialize};

use super::cost::cost;
use crate::study::run::error::StudyError;
use crate::system::config::{config_hash, StudyConfig};
use crate::system::description::{Descriptions, SystemDescription};
use crate::train::ensemble::shares_model;
use crate::train::{TrainConfig, TrainError};
use crate::types::System;

/// The schema tag of a plan file.
pub const PLAN_SCHEMA: &str = "unroll-lab/plan@1";

/// Every cell of a study, with the study's identity and cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyPlan {
    /// [`PLAN_SCHEMA`].
    pub schema: String,
    /// [`config_hash`] of `config`.
    pub hash: String,
    /// The unroll-lab version that wrote the plan (cells should be run by the same one).
    pub version: String,
    /// The study.
    pub config: StudyConfig,
    /// One per training, in the one-process study's order (variant-major, then seed).
    pub cells: Vec<CellSpec>,
    /// Counted FLOPs of all cells (training and evaluation; data generation not counted).
    pub flops: f64,
    /// The FLOP/s the estimates assume (measured on the planning machine), if measured.
    pub flop_rate: Option<f64>,
    /// Estimated seconds of all cells at `flop_rate`.
    pub estimated_secs: Option<f64>,
}

/// One cell: a variant's training with one seed, and its evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSpec {
    /// Index in [`StudyPlan::cells`] (the job array's task id).
    pub index: usize,
    /// `C-NOG 16×10 m=3 seed 1`.
    pub label: String,
    /// Index of the variant in [`StudyConfig::variants`].
    pub variant: usize,
    /// The seed.
    pub seed: u64,
    /// The simulated system.
    pub system: System,
    /// The full training config (seed included).
    pub config: TrainConfig,
    /// Counted FLOPs of this cell.
    pub flops: f64,
    /// Estimated seconds at the plan's `flop_rate`.
    pub estimated_secs: Option<f64>,
}

impl CellSpec {
    /// Whether this cell and `other` may train as members of one ensemble: their architecture
    /// has an ensemble form (`Architecture::has_ensemble`, from the registry) and their
    /// configurations share a model ([`shares_model`]: a variant's seeds; the NOG and WIG
    /// variants of one configuration).
    pub fn trains_with(&self, other: &CellSpec) -> bool {
        self.config.net.architecture.has_ensemble() && shares_model(&self.config, &other.config)
    }
}

/// Why a plan file is refused.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Not JSON, or not a plan's shape.
    #[error("not a plan file: {0}")]
    Malformed(String),
    /// Another schema.
    #[error("unsupported plan schema '{0}' (this build reads {PLAN_SCHEMA})")]
    Schema(String),
    /// The config was edited after planning.
    #[error("the plan's hash {stated} does not match its config ({actual}): was it edited?")]
    Hash {
        /// The hash in the file.
        stated: String,
        /// The hash of the config in the file.
        actual: String,
    },
    /// The cells are not the config's.
    #[error("the plan's cells do not match its config: {0}")]
    Cells(String),
    /// A cell index outside the plan.
    #[error("no cell {index}: the plan has cells 0–{last}")]
    NoSuchCell {
        /// The requested index.
        index: usize,
        /// The last index.
        last: usize,
    },
}

impl StudyPlan {
    /// Plans `config` (validated first against its system, found by `systems`: the registry's
    /// `System::description`); `flop_rate` (FLOP/s, e.g. from [`super::cost::calibrate`]) turns
    /// counted FLOPs into estimated seconds.
    pub fn new(
        config: StudyConfig,
        systems: Descriptions,
        flop_rate: Option<f64>,
    ) -> Result<Self, StudyError> {
        let system = systems(config.system);
        config.validate(system)?;
        let cells = cells(&config, system, flop_rate);
        let flops = cells.iter().map(|c| c.flops).sum::<f64>();
        Ok(Self {
            schema: PLAN_SCHEMA.to_string(),
            hash: config_hash(&config),
            version: env!("CARGO_PKG_VERSION").to_string(),
            estimated_secs: seconds(flops, flop_rate),
            flops,
            flop_rate,
            cells,
            config,
        })
    }

    /// Parses and checks a plan file: schema, hash and cells against the config (its system
    /// found by `systems`, the registry's `System::description`).
    pub fn from_json(text: &str, systems: Descriptions) -> Result<Self, PlanError> {
        #[derive(Deserialize)]
        struct Tag {
            schema: String,
        }
        let tag: Tag =
            serde_json::from_str(text).map_err(|e| PlanError::Malformed(e.to_string()))?;
        if tag.schema != PLAN_SCHEMA {
            return Err(PlanError::Schema(tag.schema));
        }
        let plan: Self =
            serde_json::from_str(text).map_err(|e| PlanError::Malformed(e.to_string()))?;
        let actual = config_hash(&plan.config);
        if actual != plan.hash {
            return Err(PlanError::Hash {
                stated: plan.hash,
                actual,
            });
        }
        let system = systems(plan.config.system);
        plan.config
            .validate(system)
            .map_err(|e| PlanError::Cells(e.to_string()))?;
        let expected = cells(&plan.config, system, plan.flop_rate);
        if expected.len() != plan.cells.len() {
            return Err(PlanError::Cells(format!(
                "{} cells listed, the config has {}",
                plan.cells.len(),
                expected.len()
            )));
        }
        if let Some(cell) = plan
            .cells
            .iter()
            .zip(&expected)
            .find(|(listed, planned)| listed.config != planned.config)
        {
            return Err(PlanError::Cells(format!(
                "cell {} ({}) differs from the config's",
                cell.0.index, cell.0.label
            )));
        }
        Ok(plan)
    }

    /// Cell `index`, or an error naming the valid range.
    pub fn cell(&self, index: usize) -> Result<&CellSpec, PlanError> {
        self.cells.get(index).ok_or(PlanError::NoSuchCell {
            index,
            last: self.cells.len().saturating_sub(1),
        })
    }

    /// This plan's study with `seeds` seeds: its own seeds first, in their order, then the
    /// smallest unused ones; the FLOP rate kept. Fewer seeds than the plan has is an error.
    pub fn with_seeds(&self, seeds: usize, systems: Descriptions) -> Result<Self, StudyError> {
        let have = self.config.seeds.len();
        if seeds <= have {
            return Err(TrainError::invalid(
                "seeds",
                format!("the plan has {have} seeds already: extend it to more"),
            )
            .into());
        }
        let mut config = self.config.clone();
        let mut next = 0;
        while config.seeds.len() < seeds {
            if !config.seeds.contains(&next) {
                config.seeds.push(next);
            }
            next += 1;
        }
        Self::new(config, systems, self.flop_rate)
    }

    /// The cell that trains variant `variant` with seed `seed`, if there is one.
    pub fn cell_of(&self, variant: usize, seed: u64) -> Option<usize> {
        self.cells
            .iter()
            .position(|c| c.variant == variant && c.seed == seed)
    }
}

fn seconds(flops: f64, flop_rate: Option<f64>) -> Option<f64> {
    flop_rate
        .filter(|r| r.is_finite() && *r > 0.0)
        .map(|r| flops / r)
}

/// The cells of `config`: variant-major, then seed (the order of the one-process study).
fn cells(
    config: &StudyConfig,
    system: &dyn SystemDescription,
    flop_rate: Option<f64>,
) -> Vec<CellSpec> {
    config
        .variants()
        .into_iter()
        .enumerate()
        .flat_map(|(variant, train)| {
            config
                .seeds
                .iter()
                .map(move |&seed| (variant, train.clone(), seed))
        })
        .enumerate()
        .map(|(index, (variant, mut train, seed))| {
            train.seed = seed;
            let flops = cost(&config.single_training(&train), system).flops();
            CellSpec {
                index,
                label: format!("{} seed {seed}", train.variant_id().long_label()),
                variant,
                seed,
                system: config.system,
                estimated_secs: seconds(flops, flop_rate),
                flops,
                config: train,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::config::Preset;

    /// Cells train together only where the registry gives their architecture an ensemble
    /// form: a variant's seeds do, the same cells of an architecture without one do not.
    #[test]
    fn cells_train_together_only_with_an_ensemble_form() {
        let config = crate::ks::preset::study_config(Preset::Quick, 2);
        let plan = StudyPlan::new(config, crate::system::System::description, None).expect("plan");
        let (first, second) = (&plan.cells[0], &plan.cells[1]);
        assert_eq!((first.variant, second.variant), (0, 0));
        assert!(first.trains_with(second));
        for architecture in crate::nets::Architecture::ALL {
            let with = |cell: &CellSpec| {
                let mut cell = cell.clone();
                cell.config.net.architecture = architecture;
                cell
            };
            assert_eq!(
                with(first).trains_with(&with(second)),
                architecture.has_ensemble(),
                "{architecture}"
            );
        }
    }

    #[test]
    fn a_plan_lists_every_training_with_its_cost() {
        let config = crate::ks::preset::study_config(Preset::Quick, 3);
        let plan = StudyPlan::new(
            config.clone(),
            crate::system::System::description,
            Some(1e9),
        )
        .expect("plan");
        assert_eq!(plan.cells.len(), 18);
        assert_eq!(plan.cells[4].label, "P-NOG 16×10 m=3 seed 1");
        assert_eq!((plan.cells[4].variant, plan.cells[4].seed), (1, 1));
        assert_eq!(plan.cells[4].config.seed, 1);
        // The cells' costs add up to the study's.
        let total = cost(&config, crate::system::System::Ks.description()).flops();
        assert!(
            (plan.flops - total).abs() <= 1e-9 * total,
            "{} vs {total}",
            plan.flops
        );
        assert_eq!(plan.estimated_secs, Some(plan.flops / 1e9));
        let json = serde_json::to_string(&plan).expect("json");
        assert_eq!(
            StudyPlan::from_json(&json, crate::system::System::description).expect("parse"),
            plan
        );
    }

    /// An extended plan keeps the old seeds first and every old cell as a cell of its own
    /// (same variant, seed and config), so `adopt` finds each one's twin.
    #[test]
    fn an_extended_plan_holds_every_old_cell() {
        let old = StudyPlan::new(
            crate::ks::preset::study_config(Preset::Quick, 2),
            crate::system::System::description,
            Some(1e9),
        )
        .expect("plan");
        let new = old
            .with_seeds(5, crate::system::System::description)
            .expect("extended");
        assert_eq!(new.config.seeds, [0, 1, 2, 3, 4]);
        assert_eq!(new.cells.len(), 30);
        assert_eq!(new.flop_rate, Some(1e9));
        for cell in &old.cells {
            let index = new.cell_of(cell.variant, cell.seed).expect("kept");
            assert_eq!(new.cells[index].config, cell.config);
            assert_eq!(
                super::super::adopt::twin(&new, index, &old),
                Some(cell.index)
            );
        }
        let err = old
            .with_seeds(2, crate::system::System::description)
            .expect_err("not more");
        assert!(err.to_string().contains("2 seeds already"), "{err}");
    }

    #[test]
    fn the_hash_is_the_config_identity() {
        let config = crate::ks::preset::study_config(Preset::Quick, 1);
        let mut other = config.clone();
        other.base.iterations += 1;
        assert_eq!(config_hash(&config), config_hash(&config.clone()));
        assert_ne!(config_hash(&config), config_hash(&other));
        assert_eq!(config_hash(&config).len(), 16);
    }

    #[test]
    fn edited_or_foreign_plans_are_refused_with_a_reason() {
        let plan = StudyPlan::new(
            crate::ks::preset::study_config(Preset::Quick, 1),
            crate::system::System::description,
            None,
        )
        .expect("plan");
        let mut edited = plan.clone();
        edited.config.base.iterations = 7;
        let json = serde_json::to_string(&edited).expect("json");
        let err =
            StudyPlan::from_json(&json, crate::system::System::description).expect_err("edited");
        assert!(err.to_string().contains("was it edited?"), "{err}");
        let mut shuffled = plan.clone();
        shuffled.cells.swap(0, 1);
        let json = serde_json::to_string(&shuffled).expect("json");
        let err =
            StudyPlan::from_json(&json, crate::system::System::description).expect_err("cells");
        assert!(err.to_string().contains("differs from the config"), "{err}");
        let err = StudyPlan::from_json(
            "{\"schema\":\"unroll-lab/results@1\"}",
            crate::system::System::description,
        )
        .expect_err("tag");
        assert!(err.to_string().contains("unsupported plan schema"), "{err}");
        assert!(StudyPlan::from_json("[", crate::system::System::description).is_err());
        let err = plan.cell(6).expect_err("range");
        assert_eq!(err.to_string(), "no cell 6: the plan has cells 0–5");
    }
}
