//! A reader's equation's [`Playground`]: one family of states (draw `K` of the seeded
//! band-limited family scaled to amplitude `A`), rolled out at a value of the varied parameter
//! by the truth's integrator on the `N` points (the truth itself where `fine = 1`) and by the
//! coarse ETD1 solver.

use super::initial::{RandomModes, TRAIN_SEED};
use super::solver::{largest, Solver};
use super::system::CustomSystem;
use crate::system::playground::{Family, Playground, StateParameter, StepFn};

/// The one family.
const FAMILIES: [Family; 1] = [Family {
    key: "band",
    title: "draw K of the band-limited family, amplitude A",
    names: ["K", "A"],
    defaults: [0.0, 1.0],
}];

impl Playground for CustomSystem {
    fn points(&self) -> usize {
        self.equation().points
    }

    fn truth_name(&self) -> &'static str {
        "truth"
    }

    fn coarse_solver(&self) -> &'static str {
        "ETD1"
    }

    fn coarse_name(&self) -> &'static str {
        "ETD1 only"
    }

    fn families(&self) -> &'static [Family] {
        &FAMILIES
    }

    fn family_state(
        &self,
        family: usize,
        [draw, amplitude]: [f64; 2],
        _parameter: f64,
        n: usize,
    ) -> Result<Vec<f64>, String> {
        if family != 0 {
            return Err(format!("there is no family {family} (one: band)"));
        }
        if !(draw.is_finite() && (0.0..=1000.0).contains(&draw) && amplitude.is_finite()) {
            return Err(format!(
                "K must be in 0..=1000 and A finite, got {draw}, {amplitude}"
            ));
        }
        let state = RandomModes::nth(TRAIN_SEED, draw.round() as usize).state(n);
        let scale = amplitude / largest(&state).max(1e-12);
        Ok(state.iter().map(|v| v * scale).collect())
    }

    fn parameter(&self) -> StateParameter {
        let p = crate::system::description::SystemDescription::parameter(self);
        let equation = self.equation();
        StateParameter {
            label: p.name,
            noun: p.name,
            symbol: p.symbol,
            limits: p.native.0..=p.native.1,
            default: equation.get(equation.vary),
        }
    }

    fn developed_state(&self, parameter: f64) -> Result<Vec<f64>, String> {
        let equation = self.equation().at(parameter);
        let state = RandomModes::nth(TRAIN_SEED, 0);
        super::data::truth_frames(&equation, &state, equation.warmup, 1)
            .pop()
            .ok_or_else(|| "the truth blows up during the warm-up".to_string())
    }

    fn truth_step(&self, parameter: f64) -> Result<StepFn, String> {
        let solver = Solver::physics(&self.equation().at(parameter));
        Ok(Box::new(move |u: &[f64]| solver.step(u)))
    }

    fn coarse_step(&self, parameter: f64, n: usize) -> Result<StepFn, String> {
        let mut equation = self.equation().at(parameter);
        equation.points = n;
        let solver = Solver::coarse(&equation);
        Ok(Box::new(move |u: &[f64]| solver.step(u)))
    }
}
