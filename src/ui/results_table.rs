//! The results table in the paper's layout (rows P-ONE … C-WIG, then the coarse-solver baseline) with
//! the C-NOG / P-WIG ratio.

use crate::report::results::SystemWords;
use leptos::prelude::*;

use crate::report::orderings::{orderings, summary};
use crate::report::paper::{paper_rows, verdict};
use crate::report::results::{cells, diverged_note, StudyResults};

/// `results` as an HTML table (`#results-table`, one `tr.variant` per variant).
#[component]
pub fn ResultsTable(results: StudyResults) -> impl IntoView {
    let facts = results.facts();
    let ratio = results.ratio_sentence(facts.paper_c_nog_over_p_wig);
    let error_header = format!("{} (mean ± std)", facts.metric.short);
    let baseline_label = format!("{} (baseline)", facts.baseline.name);
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
                        {diverged_note(v)}</td>
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
    let orderings_line = summary(&orderings(&results)).unwrap_or_default();
    let paper = paper_rows(&results);
    let paper_line = verdict(&paper).unwrap_or_else(|| {
        "No published setting matches this run (the paper's numbers are for the headline ratio, ONE/NOG/WIG, and ResNet1D 26×8 and 52×12).".to_string()
    });
    let paper_table = (!paper.is_empty()).then(|| {
        let rows = paper
            .into_iter()
            .map(|row| {
                view! {
                    <tr class="paper-row" data-reproduces=row.reproduces.to_string()>
                        <td>{row.quantity}</td>
                        <td>{row.published}</td>
                        <td>{row.measured}</td>
                        <td>{row.budget}</td>
                        <td>{if row.reproduces { "yes" } else { "not at this budget" }}</td>
                        <td class="source">{row.source}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table id="paper-table" class="results">
                <caption>"The paper beside you: published values and this run's"</caption>
                <thead>
                    <tr>
                        <th scope="col">"quantity"</th><th scope="col">"published"</th><th scope="col">"measured here"</th>
                        <th scope="col">"budget (iterations per training)"</th><th scope="col">"reproduces?"</th><th scope="col">"source"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    view! {
        <table id="results-table" class="results">
            <thead>
                <tr>
                    <th scope="col">"variant"</th><th scope="col">"params"</th><th scope="col">{error_header}</th>
                    <th scope="col">"relative to ONE"</th><th scope="col">"correlation time"</th>
                    <th scope="col">"static/unstable/recurring/regular"</th>
                </tr>
            </thead>
            <tbody>
                {rows}
                <tr class="baseline">
                    <td>{baseline_label}</td><td>"—"</td><td>{error}</td><td>"—"</td>
                    <td>{correlation}</td><td>{stability}</td>
                </tr>
            </tbody>
        </table>
        <p id="ratio">
            {ratio.unwrap_or_else(|| "C-NOG / P-WIG ratio: not in this study.".to_string())}
        </p>
        {paper_table}
        <p id="paper-verdict">{paper_line}</p>
        <p id="orderings">{orderings_line}</p>
        <p class="meta">{format!("preset '{}', {:.0} s", results.preset, results.wall_secs)}</p>
        {partial}
    }
}
