//! The words around the gradient-flow diagram: its legend, the captions of every row (from
//! [`describe`]), and the note on clamped or elided unrolls.

use leptos::prelude::*;

use unroll_core::train::config::MAX_UNROLL;
use unroll_core::train::gradient_flow::GradientGraph;
use unroll_core::train::UnrollConfig;
use unroll_report::gradient_captions::{describe, elided_steps};

/// Steps drawn at most (the middle of longer unrolls is elided).
pub(super) const MAX_SHOWN: usize = 8;

/// A legend entry: a small line sample and its meaning.
fn legend_line(class: &'static str, back: bool, text: &'static str) -> impl IntoView {
    view! {
        <li>
            <svg width="44" height="12" viewBox="0 0 44 12" aria-hidden="true">
                <line class=class x1="6" y1="6" x2="38" y2="6" marker-end=(!back).then_some("url(#gf-fwd)")
                    marker-start=back.then_some("url(#gf-back)")/>
            </svg>
            {text}
        </li>
    }
}

/// The legend.
pub(super) fn legend() -> impl IntoView {
    view! {
        <ul class="gf-legend">
            {legend_line("edge fwd", false, "forward only (no gradient)")}
            {legend_line("edge grad", true, "carries gradient back to θ")}
            {legend_line("edge cut", false, "cut by detach (✂)")}
            <li><span class="gf-swatch warmup"></span>"warm-up: detached, not in the loss"</li>
            <li>"u state (u₀ ground truth) · S solver · N network · L loss term · θ parameters"</li>
        </ul>
    }
}

/// The captions of every row, after one line on the mode.
pub(super) fn captions(graphs: &[GradientGraph], note: Option<String>) -> impl IntoView {
    let mode_line = graphs
        .first()
        .and_then(|g| describe(g).into_iter().next())
        .unwrap_or_default();
    let rows = graphs
        .iter()
        .map(|graph| {
            let lines = describe(graph)
                .into_iter()
                .skip(1)
                .map(|line| view! { <li>{line}</li> })
                .collect_view();
            view! { <ul class="gf-caption" data-modality=graph.modality.name()>{lines}</ul> }
        })
        .collect_view();
    view! {
        <div class="gf-captions">
            <p class="gf-mode">{mode_line}</p>
            {rows}
            {note.map(|n| view! { <p class="gf-note">{n}</p> })}
        </div>
    }
}

/// `unroll` limited to what the diagram (and training) accepts: `1 ≤ m`, `w + m ≤ MAX_UNROLL`.
pub(super) fn drawable(unroll: UnrollConfig) -> UnrollConfig {
    let warmup = unroll.warmup.min(MAX_UNROLL - 1);
    UnrollConfig {
        horizon: unroll.horizon.clamp(1, MAX_UNROLL - warmup),
        warmup,
        detach_interval: unroll.detach_interval,
    }
}

/// What the figure says beyond the captions: clamping and elided steps.
pub(super) fn figure_note(requested: UnrollConfig, drawn: UnrollConfig) -> Option<String> {
    let mut notes = Vec::new();
    if requested != drawn {
        notes.push(format!(
            "The unroll is outside what training accepts; drawn with m = {}, w = {}.",
            drawn.horizon, drawn.warmup
        ));
    }
    if let Some((a, b)) = elided_steps(drawn.warmup + drawn.horizon, MAX_SHOWN) {
        notes.push(format!(
            "Steps {a}–{b} are elided (⋯) to keep the diagram legible; the captions and edge counts cover every step."
        ));
    }
    (!notes.is_empty()).then(|| notes.join(" "))
}
