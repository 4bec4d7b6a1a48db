//! The results table in the paper's layout (rows P-ONE … C-WIG, then the coarse-solver baseline;
//! the measure columns of the file's system) with the C-NOG / P-WIG ratio, the paper beside the
//! run and the orderings' verdicts (for a 2-D flow also by vorticity correlation time).

use leptos::prelude::*;
use unroll_report::system_words::SystemWords;

use unroll_core::study::data::results::{Metrics, StudyResults};
use unroll_report::columns::{measure_columns, KOCHKOV_NOTE};
use unroll_report::orderings::summary_of;
use unroll_report::paper::{paper_rows, verdict, PaperRow};
use unroll_report::ratio_to_one::{ratios_to_one, relative_cell};
use unroll_report::results_text::{diverged_note, error_cell};
use unroll_report::vorticity_orderings::{vorticity_orderings, vorticity_summary};

/// `results` as an HTML table (`#results-table`, one `tr.variant` per variant) with the ratio,
/// the paper beside the run and the orderings' verdicts.
#[component]
pub fn ResultsTable(results: StudyResults) -> impl IntoView {
    let facts = results.facts();
    let ratio = results.ratio_sentence(facts.paper_c_nog_over_p_wig);
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
    let orderings_line = summary_of(&results).unwrap_or_default();
    let vorticity_line = vorticity_summary(&vorticity_orderings(&results))
        .map(|line| view! { <p id="vorticity-orderings">{line}</p> });
    let paper = paper_rows(&results);
    let paper_line = verdict(&results, &paper).unwrap_or_else(|| {
        "No published setting matches this run (the paper's numbers are for the headline ratio, ONE/NOG/WIG, and ResNet1D 26×8 and 52×12).".to_string()
    });
    let paper_table = (!paper.is_empty()).then(|| view! { <PaperTable rows=paper /> });
    let meta = format!("preset '{}', {:.0} s", results.preset, results.wall_secs);
    view! {
        <MainTable results=results />
        <p id="ratio">
            {ratio.unwrap_or_else(|| "C-NOG / P-WIG ratio: not in this study.".to_string())}
        </p>
        {paper_table}
        <p id="paper-verdict">{paper_line}</p>
        <p id="orderings">{orderings_line}</p>
        {vorticity_line}
        <p class="meta">{meta}</p>
        {partial}
    }
}

/// The variants and the baseline: error, ratio to ONE and the system's measure columns
/// ([`measure_columns`]), with the note of any that are not the paper's.
#[component]
fn MainTable(results: StudyResults) -> impl IntoView {
    let facts = results.facts();
    let columns = measure_columns(&results);
    let error_header = format!("{} (mean ± std)", facts.metric.short);
    let headers = columns
        .iter()
        .map(|c| view! { <th scope="col">{c.header()}</th> })
        .collect_view();
    let note = columns
        .iter()
        .any(|c| c.kochkov)
        .then(|| view! { <caption class="note">{KOCHKOV_NOTE}</caption> });
    let measure_cells = move |m: &Metrics| {
        columns
            .iter()
            .map(|c| view! { <td>{c.cell(m, " ± ")}</td> })
            .collect_view()
    };
    let rows = results
        .variants
        .iter()
        .zip(ratios_to_one(&results))
        .map(|(v, ratio)| {
            let relative = relative_cell(v.relative_to_one.as_ref(), ratio.as_ref(), " ± ");
            let verdict = ratio.map(|r| r.verdict.words());
            view! {
                <tr class="variant" data-label=v.id.label()>
                    <td>{v.id.long_label()}{diverged_note(v)}</td>
                    <td>{v.params}</td>
                    <td>{error_cell(&v.metrics, " ± ")}</td>
                    <td class="relative" data-verdict=verdict>{relative}</td>
                    {measure_cells(&v.metrics)}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table id="results-table" class="results">
            {note}
            <thead>
                <tr>
                    <th scope="col">"variant"</th><th scope="col">"params"</th><th scope="col">{error_header}</th>
                    <th scope="col">"relative to ONE (95 % interval)"</th>{headers}
                </tr>
            </thead>
            <tbody>
                {rows}
                <tr class="baseline">
                    <td>{format!("{} (baseline)", facts.baseline.name)}</td><td>"—"</td>
                    <td>{error_cell(&results.baseline, " ± ")}</td><td>"—"</td>
                    {measure_cells(&results.baseline)}
                </tr>
            </tbody>
        </table>
    }
}

/// The paper's published values beside this run's (`#paper-table`).
#[component]
fn PaperTable(rows: Vec<PaperRow>) -> impl IntoView {
    let rows = rows
        .into_iter()
        .map(|row| {
            view! {
                <tr class="paper-row" data-reproduces=row.reproduces.to_string()>
                    <td>{row.quantity}</td>
                    <td>{row.published}</td>
                    <td>{row.measured}</td>
                    <td>{row.budget}</td>
                    <td>{row.judgement.clone()}</td>
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
                    <th scope="col">"budget (iterations per training)"</th><th scope="col">"verdict"</th><th scope="col">"source"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
