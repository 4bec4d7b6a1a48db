//! KS's playground: the paper's training family `cos(2πx) + a·cos(2πx/L)(1 + b·sin(2πx/L))`
//! with free `(a, b)`, its test family ([`TestIc`]) with free `(c, s′)`, ETRK2 as the truth.

use super::config::{KsConfig, Scheme, BASE_DOMAIN_SIZE, DEFAULT_RESOLUTION};
use super::data::WARMUP_STEPS;
use super::grid::Grid;
use super::initial::{train_ic, training_family, TestIc};
use super::system::Ks;
use super::ReferenceSolver;
use crate::system::playground::{Family, Playground, StateParameter, StepFn};

/// Index of the training family in [`FAMILIES`].
const TRAIN: usize = 0;
/// Index of the test family in [`FAMILIES`].
const TEST: usize = 1;

/// The paper's two IC families, its first training IC's coefficients and a test IC's.
const FAMILIES: [Family; 2] = [
    Family {
        key: "train",
        title: "training: cos(2πx) + a·cos(2πx/L)(1 + b·sin(2πx/L))",
        names: ["a", "b"],
        defaults: [0.1, 0.1],
    },
    Family {
        key: "test",
        title: "test: cos(πx) + c·cos(2πx/L)(1 − s′·sin(2πx/L))",
        names: ["c", "s′"],
        defaults: [0.05, 1.0],
    },
];

fn grid(parameter: f64, n: usize) -> Result<Grid, String> {
    Grid::new(n.max(8), BASE_DOMAIN_SIZE * parameter).map_err(|e| e.to_string())
}

impl Playground for Ks {
    fn points(&self) -> usize {
        DEFAULT_RESOLUTION
    }

    fn truth_name(&self) -> &'static str {
        "truth (ETRK2)"
    }

    fn coarse_name(&self) -> &'static str {
        "ETD1 only"
    }

    fn coarse_solver(&self) -> &'static str {
        "ETD1"
    }

    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    fn family_state(
        &self,
        family: usize,
        [first, second]: [f64; 2],
        parameter: f64,
        n: usize,
    ) -> Result<Vec<f64>, String> {
        let grid = grid(parameter, n)?;
        match family {
            TRAIN => Ok(training_family(&grid, first, second)),
            TEST => Ok(TestIc {
                c: first,
                s_prime: second,
            }
            .state(&grid)),
            other => Err(format!("KS has no initial-state family {other}")),
        }
    }

    fn parameter(&self) -> StateParameter {
        StateParameter {
            label: "Domain scale s (L = 8·s)",
            noun: "domain scale",
            symbol: "s",
            limits: 0.5..=2.0,
            default: 1.0,
        }
    }

    fn developed_state(&self, parameter: f64) -> Result<Vec<f64>, String> {
        let config = KsConfig::paper(Scheme::Etrk2, parameter);
        let solver = ReferenceSolver::new(config).map_err(|e| e.to_string())?;
        let (ic, warmup) = self.undeveloped_state(parameter)?;
        let (states, _) = solver.trajectory(&ic, warmup);
        Ok(states.last().cloned().unwrap_or(ic))
    }

    /// The first training IC and the data's warm-up steps.
    fn undeveloped_state(&self, parameter: f64) -> Result<(Vec<f64>, usize), String> {
        let grid = grid(
            parameter,
            KsConfig::paper(Scheme::Etrk2, parameter).resolution,
        )?;
        let ic = train_ic(&grid, 0).map_err(|e| e.to_string())?;
        Ok((ic, WARMUP_STEPS))
    }

    fn truth_step(&self, parameter: f64) -> Result<StepFn, String> {
        let solver = ReferenceSolver::new(KsConfig::paper(Scheme::Etrk2, parameter))
            .map_err(|e| e.to_string())?;
        Ok(Box::new(move |u| solver.step(u)))
    }

    fn coarse_step(&self, parameter: f64, n: usize) -> Result<StepFn, String> {
        let solver = ReferenceSolver::new(KsConfig {
            scheme: Scheme::Etd1,
            resolution: n,
            domain_size: BASE_DOMAIN_SIZE * parameter,
            ..KsConfig::default()
        })
        .map_err(|e| e.to_string())?;
        Ok(Box::new(move |u| solver.step(u)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_training_family_is_the_studys() {
        let grid = Grid::new(48, 8.0).expect("grid");
        let state = Ks
            .family_state(TRAIN, FAMILIES[TRAIN].defaults, 1.0, 48)
            .expect("state");
        assert_eq!(state, train_ic(&grid, 0).expect("ic"));
        let test = Ks.family_state(TEST, [0.05, 1.0], 1.0, 48).expect("state");
        assert_eq!(
            test,
            TestIc {
                c: 0.05,
                s_prime: 1.0
            }
            .state(&grid)
        );
        assert!(Ks.family_state(2, [0.0; 2], 1.0, 48).is_err());
    }
}
