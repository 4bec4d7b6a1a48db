//! The captions of the gradient-flow diagram: for a [`GradientGraph`], the step formula, the
//! modality's rule and, per group of loss terms, which steps their gradients reach — written
//! from the graph itself, so the words cannot disagree with the drawing or with training.

use unroll_core::train::gradient_flow::GradientGraph;
use unroll_core::train::{Modality, Mode};

/// `"step 3"` or `"steps 1–3"` for a contiguous, non-empty list.
fn step_range(steps: &[usize]) -> String {
    match (steps.first(), steps.last()) {
        (Some(a), Some(b)) if a == b => format!("step {a}"),
        (Some(a), Some(b)) => format!("steps {a}–{b}"),
        _ => "no step".to_string(),
    }
}

/// The step formula of `mode`.
fn mode_line(mode: Mode) -> &'static str {
    match mode {
        Mode::Predict => "Prediction: each step is the network alone, u′ = N(u).",
        Mode::Correct => "Correction: each step runs the solver and adds the network's correction, u′ = S(u) + Δt·N(u).",
        Mode::Transition => "Transition: each step runs the solver over α of the step, then the network corrects it, u′ = v + (1 − α)·N(v), v = S_α(u).",
    }
}

/// The modality's one-line summary.
fn modality_line(graph: &GradientGraph) -> String {
    let m = graph.configured_horizon;
    match graph.modality {
        Modality::One => format!(
            "ONE: one step per sample from a ground-truth state (batch ×{m} to match the network calls of an m = {m} unroll)."
        ),
        Modality::Nog => format!(
            "NOG: {m} unrolled steps; every step's input is detached, so no gradient flows back through time."
        ),
        Modality::Wig => {
            let k = graph.unroll.detach_interval;
            if k == 0 {
                format!("WIG: {m} unrolled steps with gradients back through time (no detach).")
            } else {
                format!("WIG: {m} unrolled steps with gradients back through time, cut every {k} loss steps (detach interval k = {k}).")
            }
        }
    }
}

/// Consecutive loss terms described by one caption.
struct TermGroup {
    first: usize,
    last: usize,
    /// Every term so far reaches θ only through its own step's network call.
    own_only: bool,
    /// The last term's network steps.
    nets: Vec<usize>,
    /// The last term's solver steps.
    solvers: Vec<usize>,
}

/// Groups loss terms whose gradients reach back to the same step (or each only to its own).
fn term_groups(graph: &GradientGraph) -> Vec<TermGroup> {
    let mut groups: Vec<TermGroup> = Vec::new();
    for term in 1..=graph.loss_terms() {
        let nets = graph.network_steps_reached(term);
        let solvers = graph.solver_steps_reached(term);
        let own = nets.len() == 1;
        match groups.last_mut() {
            Some(group) if group.nets.first() == nets.first() || (group.own_only && own) => {
                group.last = term;
                group.own_only &= own;
                group.nets = nets;
                group.solvers = solvers;
            }
            _ => groups.push(TermGroup {
                first: term,
                last: term,
                own_only: own,
                nets,
                solvers,
            }),
        }
    }
    groups
}

/// `" and the solver of steps 2–3"`, `", never through the solver"` or nothing (prediction).
fn solver_phrase(graph: &GradientGraph, solvers: &[usize]) -> String {
    if !graph.has_solver() {
        String::new()
    } else if solvers.is_empty() {
        ", never through the solver".to_string()
    } else {
        format!(" and the solver of {}", step_range(solvers))
    }
}

/// The caption of one group of loss terms.
fn group_line(graph: &GradientGraph, group: &TermGroup) -> String {
    let (first, last) = (group.first, group.last);
    let solver = solver_phrase(graph, &group.solvers);
    let reach = format!("the network calls of {}{solver}", step_range(&group.nets));
    match (first == last, group.own_only) {
        (true, true) => format!(
            "L{last}'s gradient reaches θ only through the network call of its own {}{solver}.",
            step_range(&group.nets)
        ),
        (true, false) => format!("L{last}'s gradient reaches θ through {reach}."),
        (false, true) => format!(
            "L{first}–L{last}: each loss term's gradient reaches θ only through its own step's network call{solver}."
        ),
        (false, false) => format!(
            "L{first}–L{last}: each loss term's gradient reaches θ through every step from step {} up to its own; L{last}'s through {reach}.",
            group.nets.first().copied().unwrap_or(0)
        ),
    }
}

/// Plain-language captions of `graph`: the mode, the modality, the warm-up, where the graph is
/// cut and, per group of loss terms, which steps their gradients reach θ through.
pub fn describe(graph: &GradientGraph) -> Vec<String> {
    let mut lines = vec![mode_line(graph.mode).to_string(), modality_line(graph)];
    let w = graph.unroll.warmup;
    if w > 0 {
        let steps: Vec<usize> = (1..=w).collect();
        lines.push(format!(
            "Warm-up: {} run{} detached and outside the loss; no gradient flows there.",
            step_range(&steps),
            if w == 1 { "s" } else { "" }
        ));
    }
    let cuts: Vec<String> = graph
        .cut_loss_steps()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    if graph.modality == Modality::Wig && !cuts.is_empty() {
        lines.push(format!(
            "Detach cuts the state entering step{} {}.",
            if cuts.len() == 1 { "" } else { "s" },
            cuts.join(", ")
        ));
    }
    for group in term_groups(graph) {
        lines.push(group_line(graph, &group));
    }
    let differentiates_solver =
        (1..=graph.loss_terms()).any(|t| !graph.solver_steps_reached(t).is_empty());
    if graph.modality == Modality::Nog && graph.has_solver() {
        lines.push("The solver is never differentiated: a black-box solver works.".to_string());
    } else if differentiates_solver {
        lines.push("The solver is differentiated: WIG needs a differentiable solver.".to_string());
    }
    lines
}

/// Which steps a drawing of `steps` steps shows when at most `max_shown` fit: `None` when all
/// fit, else the inclusive range of hidden steps (the first few and the last few stay).
pub fn elided_steps(steps: usize, max_shown: usize) -> Option<(usize, usize)> {
    if steps <= max_shown || max_shown < 3 {
        return None;
    }
    let head = (max_shown - 1) / 2;
    let tail = max_shown - 1 - head;
    Some((head + 1, steps - tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::train::config::UnrollConfig;
    use unroll_core::train::gradient_flow::gradient_graph;

    #[test]
    fn captions_name_the_reach_of_each_loss_term() {
        let wig = describe(&gradient_graph(
            Mode::Correct,
            Modality::Wig,
            &UnrollConfig::new(3, 0, 0),
        ));
        assert!(wig
            .iter()
            .any(|l| l.contains("L1–L3") && l.contains("steps 1–3")));
        assert!(
            wig.iter().any(|l| l.contains("solver of steps 2–3")),
            "{wig:?}"
        );
        let nog = describe(&gradient_graph(
            Mode::Correct,
            Modality::Nog,
            &UnrollConfig::new(3, 2, 0),
        ));
        assert!(nog.iter().any(|l| l.contains("black-box")));
        assert!(nog.iter().any(|l| l.starts_with("Warm-up: steps 1–2")));
        assert!(nog.iter().any(|l| l.contains("only through its own step")));
        let cut = describe(&gradient_graph(
            Mode::Predict,
            Modality::Wig,
            &UnrollConfig::new(4, 0, 2),
        ));
        assert!(
            cut.iter().any(|l| l.contains("entering step 3.")),
            "{cut:?}"
        );
        assert!(cut.iter().any(|l| l.starts_with("L1–L2")), "{cut:?}");
        assert!(cut
            .iter()
            .any(|l| l.starts_with("L3–L4") && l.contains("steps 3–4")));
        let one = describe(&gradient_graph(
            Mode::Predict,
            Modality::One,
            &UnrollConfig::new(5, 1, 0),
        ));
        assert!(one.iter().any(|l| l.contains("batch ×5")));
        assert!(!one.iter().any(|l| l.starts_with("Warm-up")));
    }

    #[test]
    fn long_unrolls_elide_the_middle_steps() {
        assert_eq!(elided_steps(8, 8), None);
        assert_eq!(elided_steps(9, 8), Some((4, 5)));
        assert_eq!(elided_steps(32, 8), Some((4, 28)));
        // Shown: steps 1–3 and 29–32.
        let (a, b) = elided_steps(32, 8).unwrap_or((0, 0));
        assert_eq!(32 - (b - a + 1), 7);
    }
}
