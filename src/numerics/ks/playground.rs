//! KS's playground: the paper's training family `cos(2πx) + a·cos(2πx/L)(1 + b·sin(2πx/L))`
//! with free `(a, b)`, its test family ([`TestIc`]) with free `(c, s′)`, ETRK2 as the truth.

use super::config::{KsConfig, Scheme, BASE_DOMAIN_SIZE, DEFAULT_RESOLUTION};
use super::data::WARMUP_STEPS;
use super::grid::Grid;
use super::initial::{train_ic, training_family, TestIc};
use super::system::Ks;
use super::ReferenceSolver;
use crate::numerics::study::contract::playground::{Playground, StepFn};

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

    fn training_state(&self, a: f64, b: f64, parameter: f64, n: usize) -> Result<Vec<f64>, String> {
        Ok(training_family(&grid(parameter, n)?, a, b))
    }

    fn test_state(
        &self,
        c: f64,
        s_prime: f64,
        parameter: f64,
        n: usize,
    ) -> Result<Vec<f64>, String> {
        Ok(TestIc { c, s_prime }.state(&grid(parameter, n)?))
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
