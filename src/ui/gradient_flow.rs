//! "Where the gradients flow": the unrolled computation of the chosen mode as inline SVG, one
//! row per modality (ONE, NOG, WIG), drawn from the pure model in
//! [`unroll_core::train::gradient_flow`](unroll_core::train::gradient_flow) — the same cut
//! positions the training loss uses. Forward edges are grey, edges that carry gradient are
//! coloured with backward arrowheads, edges cut by `detach` are dashed with a ✂ mark, warm-up
//! steps are shaded. Long unrolls keep the first and last steps and elide the middle.

use leptos::prelude::*;

use super::gradient_legend::{captions, drawable, figure_note, legend, MAX_SHOWN};
use unroll_core::train::gradient_flow::{gradient_graph, Edge, GradientGraph, Node};
use unroll_core::train::{Modality, Mode, UnrollConfig};
use unroll_report::gradient_captions::elided_steps;

/// Horizontal distance between consecutive states.
const COL: f64 = 110.0;
/// Room for the row label left of `u₀`.
const LEFT: f64 = 84.0;
/// Margin right of the last state.
const RIGHT: f64 = 36.0;
/// Height of one row.
const ROW_H: f64 = 178.0;
/// The parameter bus θ.
const Y_THETA: f64 = 22.0;
/// The network lane.
const Y_NET: f64 = 64.0;
/// The state (and solver) lane.
const Y_STATE: f64 = 114.0;
/// The loss lane.
const Y_LOSS: f64 = 158.0;
/// Box size of solver, network and loss nodes.
const BOX_W: f64 = 30.0;
/// Box height of solver, network and loss nodes.
const BOX_H: f64 = 24.0;
/// Radius of a state node.
const STATE_R: f64 = 13.0;

/// `n` in Unicode subscript digits (`12` → `₁₂`).
fn subscript(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => char::from_u32(0x2080 + d).unwrap_or(c),
            None => c,
        })
        .collect()
}

/// A coordinate as an SVG attribute value.
fn px(v: f64) -> String {
    format!("{v:.1}")
}

/// The horizontal layout of one row: which steps are drawn and where.
#[derive(Debug, Clone, Copy)]
struct Columns {
    /// The inclusive range of elided steps, if any.
    hidden: Option<(usize, usize)>,
}

impl Columns {
    /// The layout of an unroll of `steps` steps.
    fn new(steps: usize) -> Self {
        Self {
            hidden: elided_steps(steps, MAX_SHOWN),
        }
    }

    /// The column of state `i` (`None` when elided).
    fn state_col(self, i: usize) -> Option<f64> {
        match self.hidden {
            Some((a, b)) if (a..b).contains(&i) => None,
            Some((a, b)) if i >= b => Some((i - (b - a)) as f64),
            _ => Some(i as f64),
        }
    }

    /// The x of state `i`.
    fn state_x(self, i: usize) -> Option<f64> {
        self.state_col(i).map(|c| LEFT + c * COL)
    }

    /// The x of the ellipsis between the drawn halves.
    fn gap_x(self) -> Option<f64> {
        self.hidden
            .map(|(a, _)| LEFT + (a as f64 - 1.0 + 0.5) * COL)
    }

    /// The x of step `s`'s solver and network (`None` when elided).
    fn step_x(self, s: usize) -> Option<f64> {
        if s == 0 {
            return None;
        }
        Some((self.state_x(s - 1)? + self.state_x(s)?) / 2.0)
    }

    /// The x of state `i`, or of the ellipsis when it is elided.
    fn state_or_gap_x(self, i: usize) -> f64 {
        self.state_x(i).or(self.gap_x()).unwrap_or(LEFT)
    }
}

/// Where `node` is drawn in its row (θ is the bus: see [`edge_points`]).
fn position(graph: &GradientGraph, cols: Columns, node: Node) -> Option<(f64, f64)> {
    match node {
        Node::Params => None,
        Node::State(i) => Some((cols.state_x(i)?, Y_STATE)),
        Node::Solver(s) => Some((cols.step_x(s)?, Y_STATE)),
        Node::Network(s) => Some((cols.step_x(s)?, Y_NET)),
        Node::Loss(j) => Some((cols.state_x(graph.unroll.warmup + j)?, Y_LOSS)),
    }
}

/// How far an edge stops short of `node`'s centre.
fn radius(node: Node) -> f64 {
    match node {
        Node::Params => 0.0,
        Node::State(_) => STATE_R + 1.0,
        Node::Solver(_) | Node::Network(_) | Node::Loss(_) => BOX_H / 2.0 + 4.0,
    }
}

/// The drawn segment `(x1, y1, x2, y2)` of `edge` (`None` when an end is elided).
fn edge_points(graph: &GradientGraph, cols: Columns, edge: &Edge) -> Option<(f64, f64, f64, f64)> {
    let (tx, ty) = position(graph, cols, edge.to)?;
    let (fx, fy) = match edge.from {
        Node::Params => (tx, Y_THETA),
        node => position(graph, cols, node)?,
    };
    let (dx, dy) = (tx - fx, ty - fy);
    let length = (dx * dx + dy * dy).sqrt();
    if length <= radius(edge.from) + radius(edge.to) {
        return None;
    }
    let (ux, uy) = (dx / length, dy / length);
    let (rf, rt) = (radius(edge.from), radius(edge.to));
    Some((fx + ux * rf, fy + uy * rf, tx - ux * rt, ty - uy * rt))
}

/// One edge: grey with a forward arrowhead, or coloured with a backward arrowhead when it
/// carries gradient; dashed with ✂ when detached.
fn edge_view(graph: &GradientGraph, cols: Columns, edge: &Edge) -> Option<impl IntoView> {
    let (x1, y1, x2, y2) = edge_points(graph, cols, edge)?;
    let class = match (edge.gradient, edge.detached) {
        (true, _) => "edge grad",
        (false, true) => "edge cut",
        (false, false) => "edge fwd",
    };
    let mark = edge.detached.then(|| {
        view! {
            <text class="cut-mark" x=px((x1 + x2) / 2.0) y=px((y1 + y2) / 2.0 + 4.0)>"✂"</text>
        }
    });
    Some(view! {
        <line class=class x1=px(x1) y1=px(y1) x2=px(x2) y2=px(y2)
            marker-end=(!edge.gradient).then_some("url(#gf-fwd)")
            marker-start=edge.gradient.then_some("url(#gf-back)")/>
        {mark}
    })
}

/// The label and CSS class of `node`.
fn node_label(graph: &GradientGraph, node: Node) -> (String, String) {
    let warm = |i: usize| (1..=graph.unroll.warmup).contains(&i);
    match node {
        Node::Params => ("θ".into(), "theta".into()),
        Node::State(0) => ("u₀".into(), "state truth".into()),
        Node::State(i) if warm(i) => (format!("u{}", subscript(i)), "state warm".into()),
        Node::State(i) => (format!("u{}", subscript(i)), "state".into()),
        Node::Solver(_) if graph.mode == Mode::Transition => ("Sα".into(), "solver".into()),
        Node::Solver(_) => ("S".into(), "solver".into()),
        Node::Network(_) => ("N".into(), "net".into()),
        Node::Loss(j) => (format!("L{}", subscript(j)), "loss".into()),
    }
}

/// One node: a circle for a state, a box for solver, network and loss term.
fn node_view(graph: &GradientGraph, cols: Columns, node: Node) -> Option<impl IntoView> {
    let (x, y) = position(graph, cols, node)?;
    let (label, kind) = node_label(graph, node);
    let on_path = if graph.carries_gradient(node) {
        " grad"
    } else {
        ""
    };
    let class = format!("node {kind}{on_path}");
    let shape = match node {
        Node::State(_) => view! { <circle cx=px(x) cy=px(y) r=px(STATE_R)/> }.into_any(),
        _ => view! {
            <rect x=px(x - BOX_W / 2.0) y=px(y - BOX_H / 2.0) width=px(BOX_W) height=px(BOX_H)
                rx="4"/>
        }
        .into_any(),
    };
    Some(view! {
        <g class=class>
            {shape}
            <text x=px(x) y=px(y + 4.0)>{label}</text>
        </g>
    })
}

/// The shaded warm-up region of a row (none without warm-up).
fn warmup_view(graph: &GradientGraph, cols: Columns) -> Option<impl IntoView> {
    let w = graph.unroll.warmup;
    if w == 0 {
        return None;
    }
    let x0 = cols.state_or_gap_x(0) - STATE_R - 5.0;
    let x1 = cols.state_or_gap_x(w) + STATE_R + 5.0;
    let (y0, y1) = (Y_NET - BOX_H / 2.0 - 6.0, Y_LOSS + BOX_H / 2.0);
    Some(view! {
        <rect class="warmup" x=px(x0) y=px(y0) width=px(x1 - x0) height=px(y1 - y0) rx="6"/>
        <text class="warmup-label" x=px((x0 + x1) / 2.0) y=px(Y_LOSS + 4.0)>
            {format!("warm-up w = {w}")}
        </text>
    })
}

/// "detach" labels on the loss steps whose input state is cut (not on the data state u₀).
fn detach_labels(graph: &GradientGraph, cols: Columns) -> impl IntoView {
    graph
        .cut_loss_steps()
        .into_iter()
        .filter(|&s| s > 1)
        .filter_map(|s| {
            let x = cols.state_x(s - 1)? + COL * 0.3;
            cols.step_x(s)?;
            Some(view! {
                <text class="detach-label" x=px(x) y=px(Y_STATE + 27.0)>"detach"</text>
            })
        })
        .collect_view()
}

/// The θ bus over every drawn network call.
fn theta_view(graph: &GradientGraph, cols: Columns) -> impl IntoView {
    let x_end = cols.state_x(graph.steps()).unwrap_or(LEFT) - COL / 2.0 + 24.0;
    let x_start = LEFT + 10.0;
    view! {
        <line class="theta-bus" x1=px(x_start) y1=px(Y_THETA) x2=px(x_end) y2=px(Y_THETA)/>
        <text class="theta" x=px(x_start - 8.0) y=px(Y_THETA + 5.0)>"θ"</text>
    }
}

/// The ellipsis over the elided steps (none when every step is drawn).
fn ellipsis_view(cols: Columns) -> Option<impl IntoView> {
    let (a, b) = cols.hidden?;
    let x = cols.gap_x()?;
    Some(view! {
        <text class="ellipsis" x=px(x) y=px(Y_STATE + 6.0)>"⋯"</text>
        <text class="ellipsis-label" x=px(x) y=px(Y_NET + 4.0)>{format!("steps {a}–{b}")}</text>
    })
}

/// One row: the unrolled graph of one modality.
fn row_view(graph: &GradientGraph, index: usize) -> impl IntoView {
    let cols = Columns::new(graph.steps());
    let edges = graph
        .edges
        .iter()
        .filter_map(|edge| edge_view(graph, cols, edge))
        .collect_view();
    let nodes = graph
        .nodes
        .iter()
        .filter_map(|&node| node_view(graph, cols, node))
        .collect_view();
    let note = (graph.modality == Modality::One).then(|| format!("batch ×{}", graph.batch_factor));
    view! {
        <g class="row" data-modality=graph.modality.name()
            data-gradient-edges=graph.gradient_edges().to_string()
            data-steps=graph.steps().to_string()
            transform=format!("translate(0 {})", px(index as f64 * ROW_H))>
            <line class="row-rule" x1="0" y1="1" x2="4000" y2="1"/>
            {warmup_view(graph, cols)}
            <text class="row-label" x="8" y=px(Y_STATE + 5.0)>{graph.modality.label()}</text>
            <text class="row-note" x="8" y=px(Y_STATE + 22.0)>{note}</text>
            {theta_view(graph, cols)}
            {edges}
            {nodes}
            {detach_labels(graph, cols)}
            {ellipsis_view(cols)}
        </g>
    }
}

/// Arrowheads: grey forward, coloured backward (the backward pass).
fn markers() -> impl IntoView {
    view! {
        <defs>
            <marker id="gf-fwd" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"
                markerHeight="7" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" fill="#9aa1a9"/>
            </marker>
            <marker id="gf-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"
                markerHeight="7" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" fill="#c2410c"/>
            </marker>
        </defs>
    }
}

/// The three rows as one SVG.
fn diagram(graphs: &[GradientGraph]) -> impl IntoView {
    let width = graphs
        .iter()
        .map(|g| {
            let cols = Columns::new(g.steps());
            cols.state_x(g.steps()).unwrap_or(LEFT) + RIGHT
        })
        .fold(LEFT + COL + RIGHT, f64::max);
    let height = ROW_H * graphs.len() as f64;
    let rows = graphs
        .iter()
        .enumerate()
        .map(|(i, graph)| row_view(graph, i))
        .collect_view();
    view! {
        <svg class="gf-diagram" viewBox=format!("0 0 {} {}", px(width), px(height))
            width=px(width) role="img"
            aria-label="The unrolled computation per modality, with the edges that carry gradients">
            {markers()}
            {rows}
        </svg>
    }
}

/// The diagram of the unrolled computation for `mode` and `unroll` (horizon m, warm-up w,
/// detach interval k), one row per modality; redraws whenever either signal changes.
#[component]
pub fn GradientFlow(
    /// The simulation mode drawn.
    #[prop(into)]
    mode: Signal<Mode>,
    /// Horizon, warm-up and detach interval.
    #[prop(into)]
    unroll: Signal<UnrollConfig>,
) -> impl IntoView {
    let drawn = move || drawable(unroll.get());
    let body = move || {
        let (mode, requested) = (mode.get(), unroll.get());
        let config = drawable(requested);
        let graphs: Vec<GradientGraph> = Modality::ALL
            .into_iter()
            .map(|modality| gradient_graph(mode, modality, &config))
            .collect();
        view! {
            {diagram(&graphs)}
            {legend()}
            {captions(&graphs, figure_note(requested, config))}
        }
    };
    view! {
        <figure id="gradient-flow" data-mode=move || mode.get().name()
            data-m=move || drawn().horizon.to_string()
            data-warmup=move || drawn().warmup.to_string()
            data-detach=move || drawn().detach_interval.to_string()>
            <figcaption>"Where the gradients flow: one minibatch's unrolled computation"</figcaption>
            {body}
        </figure>
    }
}
