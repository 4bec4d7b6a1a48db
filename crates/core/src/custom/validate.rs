//! The physics checks of a reader's equation before anything trains, at every training and
//! test value of its varied parameter: the linear part must not grow at the grid's highest mode
//! (it would grow without bound as the grid is refined), the truth must stay bounded over the
//! warm-up and the longer of a training trajectory and a test rollout from the first training
//! initial state (an equation that blows up is named as the cause before its coarse solver),
//! and the coarse ETD1 solver must stay bounded for the error horizon from every training
//! initial state. Results are kept per equation (a study checks each variant's config).

use std::collections::HashMap;
use std::sync::Mutex;

use super::error::CustomError;
use super::initial::{RandomModes, TRAIN_SEED};
use super::operators::{linear_symbol, wavenumbers};
use super::solver::Solver;
use crate::metrics::ERROR_HORIZON;
use crate::types::Equation;

static CHECKED: Mutex<Option<HashMap<String, Result<(), CustomError>>>> = Mutex::new(None);

/// Every check at every training and test value, remembered per equation text.
pub fn check(equation: &Equation) -> Result<(), CustomError> {
    let key = equation.text();
    let known = CHECKED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
        .cloned();
    if let Some(result) = known {
        return result;
    }
    let result = check_uncached(equation);
    CHECKED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, result.clone());
    result
}

fn check_uncached(equation: &Equation) -> Result<(), CustomError> {
    equation.check()?;
    let mut values = equation.train_values();
    values.extend(equation.test_values());
    let at = |v: f64| format!(" at {} = {v}", equation.vary);
    for &value in &values {
        check_linear(&equation.at(value), &at(value))?;
    }
    for &value in &values {
        check_truth(&equation.at(value), &at(value))?;
    }
    for &value in &values {
        check_coarse(&equation.at(value), &at(value))?;
    }
    Ok(())
}

/// `Re L̂ ≤ 0` at the highest mode of the state's grid and of the truth's.
pub fn check_linear(equation: &Equation, at: &str) -> Result<(), CustomError> {
    for grid in [equation.points, equation.fine_points()] {
        let symbol = linear_symbol(equation, grid);
        let k = wavenumbers(grid, equation.length);
        let top = grid / 2;
        let rate = symbol[top].re;
        if rate > 0.0 {
            return Err(CustomError::GrowsAtHighestMode {
                grid,
                wavenumber: k[top].abs(),
                rate,
                growth: rate * equation.dt,
                at: at.to_string(),
            });
        }
    }
    Ok(())
}

/// The coarse ETD1 solver stays bounded for [`ERROR_HORIZON`] steps from every training state.
pub fn check_coarse(equation: &Equation, at: &str) -> Result<(), CustomError> {
    let solver = Solver::coarse(equation);
    for (index, state) in RandomModes::family(TRAIN_SEED, equation.states)
        .iter()
        .enumerate()
    {
        let (_, stopped) = solver.trajectory(&state.state(equation.points), ERROR_HORIZON);
        if let Some(step) = stopped {
            return Err(CustomError::BlowsUp {
                solver: format!(
                    "coarse ETD1 solver (Δt = {}, {} sub-step(s))",
                    equation.dt, equation.coarse
                ),
                step,
                steps: ERROR_HORIZON,
                state: index,
                at: at.to_string(),
                advice: "take a smaller Δt or more coarse sub-steps (coarse=2)",
            });
        }
    }
    Ok(())
}

/// The truth stays bounded over the warm-up and the longer of a trajectory and a rollout.
pub fn check_truth(equation: &Equation, at: &str) -> Result<(), CustomError> {
    let solver = Solver::truth(equation);
    let steps = equation.warmup + equation.frames.max(equation.rollout);
    let u0 = RandomModes::nth(TRAIN_SEED, 0).state(equation.fine_points());
    if let (_, Some(step)) = solver.trajectory(&u0, steps) {
        return Err(CustomError::BlowsUp {
            solver: format!(
                "truth ({}, {} sub-steps per Δt = {}, {} points)",
                equation.scheme,
                equation.substeps,
                equation.dt,
                equation.fine_points()
            ),
            step,
            steps,
            state: 0,
            at: at.to_string(),
            advice: "the equation itself blows up from a bounded state (a growing reaction \
                     term without a saturating one?), or the truth needs more sub-steps",
        });
    }
    Ok(())
}
