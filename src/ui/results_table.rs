//! The results table in the paper's layout (rows P-ONE … C-WIG, then the ETD1 baseline) with
//! the C-NOG / P-WIG ratio.

use leptos::prelude::*;

use crate::report::results::{cells, StudyResults};

/// `results` as an HTML table (`#results-table`, one `tr.variant` per variant).
#[component]
pub fn ResultsTable(results: StudyResults) -> impl IntoView {
    let ratio = results.ratio_sentence();
    let rows = results
        .variants
        .iter()
        .map(|v| {
            let [error, correlation, stability] = cells(&v.metrics, " ± ");
            let relative = v.relative_to_one.as_ref().map_or("—".to_string(), |r| {
                format!("{:.3} ± {:.3}", r.mean, r.std)
            });
            view! {
                <tr class="variant" data-label=v.id.label()>
                    <td>{v.id.long_label()}
                        {v.diverged.then_some(" (diverged)")}</td>
                    <td>{v.params}</td>
                    <td>{error}</td>
                    <td>{relative}</td>
                    <td>{correlation}</td>
                    <td>{stability}</td>
                </tr>
            }
        })
        .collect_view();
    let [error, correlation, stability] = cells(&results.baseline, " ± ");
    let partial = (!results.missing_cells.is_empty()).then(|| {
        let missing: Vec<String> = results
            .missing_cells
            .iter()
            .map(|m| format!("cell {} ({}): {}", m.cell, m.label, m.reason))
            .collect();
        view! {
            <p id="partial-results" class="notice">
                {format!(
                    "Partial results: {} training(s) of the cluster run are missing, and the variants above are over the seeds that finished. Missing: {}.",
                    missing.len(),
                    missing.join("; ")
                )}
            </p>
        }
    });
    view! {
        <table id="results-table" class="results">
            <thead>
                <tr>
                    <th>"variant"</th><th>"params"</th><th>"relative error (mean ± std)"</th>
                    <th>"relative to ONE"</th><th>"correlation time"</th>
                    <th>"static/unstable/recurring/regular"</th>
                </tr>
            </thead>
            <tbody>
                {rows}
                <tr class="baseline">
                    <td>"ETD1 only (baseline)"</td><td>"—"</td><td>{error}</td><td>"—"</td>
                    <td>{correlation}</td><td>{stability}</td>
                </tr>
            </tbody>
        </table>
        <p id="ratio">
            {ratio.unwrap_or_else(|| "C-NOG / P-WIG ratio: not in this study.".to_string())}
        </p>
        <p class="meta">{format!("preset '{}', {:.0} s", results.preset, results.wall_secs)}</p>
        {partial}
    }
}
