//! The committed runs' figures as the README and the book state them: markdown tables made from
//! the results files, written between markers in the documents
//! (`<!-- generated: NAME -->` … `<!-- /generated -->`) by `unroll-lab docs-tables --write`
//! and checked by `crates/report/tests/it/committed_results.rs`, so a re-run cannot leave a stale number behind.
//!
//! Blocks: `headline` (the paper's orderings at the paper budget and in the quick preset, side
//! by side), `claims RUN` (a committed run's claims: ratio, 95 % interval, verdict) and
//! `variants RUN` (each variant's metric over seeds and its ratio to ONE).

use super::claim::judge_claim;
use super::committed::CommittedRun;
use super::orderings::{orderings, Ordering, SEED_LIMIT};
use super::system_words::SystemWords;
use unroll_core::study::data::results::StudyResults;

/// The run the headline's paper-budget column reads.
pub const HEADLINE_PAPER: &str = "ks-paper-official";
/// The run the headline's quick-preset column reads.
pub const HEADLINE_QUICK: &str = "ks-quick-official";

/// A committed run with its results, as the tables read it.
pub struct LoadedRun<'a> {
    /// Its index entry.
    pub run: &'a CommittedRun,
    /// Its merged results.
    pub results: &'a StudyResults,
}

/// `ratio (low–high)` or `ratio (one seed)`.
fn ratio_cell(ordering: &Ordering) -> String {
    match ordering.interval {
        Some(i) => match i.bounds {
            Some((low, high)) => format!("{:.3} ({low:.2}–{high:.2})", i.ratio),
            None => format!("{:.3} (one seed)", i.ratio),
        },
        None => "—".to_string(),
    }
}

/// The verdict in bold, and what would resolve it.
fn verdict_cell(ordering: &Ordering) -> String {
    let resolve = match ordering.interval {
        Some(i) if i.bounds.is_none() => "; one seed".to_string(),
        Some(i) if !i.resolved() => match i.seeds_to_resolve(SEED_LIMIT) {
            Some(n) => format!("; ≈ {n} seeds would resolve it"),
            None if i.tests_alone_span_one() => {
                "; more seeds alone would not resolve it".to_string()
            }
            None => format!("; not within {SEED_LIMIT} seeds"),
        },
        _ => String::new(),
    };
    format!("**{}**{resolve}", ordering.judgement())
}

/// `claims RUN`: every committed claim of `run` with its ratio, interval and verdict.
pub fn claims_table(loaded: &LoadedRun<'_>) -> Result<String, String> {
    let mut out = String::from(
        "| claim | ratio (95 % interval) | verdict | seeds × tests |\n|---|---|---|---|\n",
    );
    for claim in &loaded.run.claims {
        let judged = judge_claim(loaded.results, claim)?;
        let by = match claim.by {
            super::claim::ClaimMetric::RelativeError => String::new(),
            super::claim::ClaimMetric::StepsAbove095 => " (steps above 0.95)".to_string(),
        };
        let shape = judged
            .interval
            .map_or("—".to_string(), |i| format!("{} × {}", i.seeds, i.tests));
        out.push_str(&format!(
            "| {} better than {}{by} | {} | {} | {shape} |\n",
            claim.better,
            claim.worse,
            ratio_cell(&judged),
            verdict_cell(&judged),
        ));
    }
    Ok(out)
}

/// `variants RUN`: each variant's metric (mean ± population std over seeds) and its ratio to
/// ONE (the ratio of the seeds' means, as `ks_eval.py`).
pub fn variants_table(loaded: &LoadedRun<'_>) -> String {
    let results = loaded.results;
    let metric = results.facts().metric.short;
    let mut out =
        format!("| variant | seeds | {metric}, mean ± std | / ONE |\n|---|---|---|---|\n");
    for v in &results.variants {
        let stat = &v.metrics.relative_error;
        let ratio = v
            .relative_to_one
            .as_ref()
            .map_or("—".to_string(), |r| format!("{:.3}", r.mean));
        out.push_str(&format!(
            "| {} | {} | {} ± {} | {ratio} |\n",
            v.id.long_label(),
            v.seeds.len(),
            significant(stat.mean),
            significant(stat.std),
        ));
    }
    let base = &results.baseline.relative_error;
    out.push_str(&format!(
        "| {} | — | {} | |\n",
        results.facts().baseline.name,
        significant(base.mean)
    ));
    out
}

/// Three significant figures.
fn significant(value: f64) -> String {
    if !value.is_finite() || value == 0.0 {
        return format!("{value}");
    }
    let digits = (2 - value.abs().log10().floor() as i32).max(0) as usize;
    format!("{value:.digits$}")
}

/// `headline`: the paper's orderings in the paper-budget and quick-preset runs, side by side.
pub fn headline_table(paper: &LoadedRun<'_>, quick: &LoadedRun<'_>) -> String {
    let (at_paper, at_quick) = (orderings(paper.results), orderings(quick.results));
    let mut out = format!(
        "| the paper's ordering | paper budget, {} seeds | quick preset, {} seeds |\n|---|---|---|\n",
        paper.run.seeds, quick.run.seeds
    );
    for ordering in &at_paper {
        let quick_cell = at_quick
            .iter()
            .find(|o| o.claim == ordering.claim)
            .map_or("—".to_string(), |o| {
                format!("{}: {}", ratio_cell(o), verdict_cell(o))
            });
        out.push_str(&format!(
            "| {} | {}: {} | {quick_cell} |\n",
            ordering.claim,
            ratio_cell(ordering),
            verdict_cell(ordering)
        ));
    }
    out
}

/// The table a block named `name` holds, from `runs`.
pub fn block(name: &str, runs: &[LoadedRun<'_>]) -> Result<String, String> {
    let find = |id: &str| {
        runs.iter()
            .find(|r| r.run.id == id)
            .ok_or_else(|| format!("block '{name}': no committed run '{id}'"))
    };
    let mut words = name.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("headline"), None, _) => {
            Ok(headline_table(find(HEADLINE_PAPER)?, find(HEADLINE_QUICK)?))
        }
        (Some("claims"), Some(id), None) => claims_table(find(id)?),
        (Some("variants"), Some(id), None) => Ok(variants_table(find(id)?)),
        _ => Err(format!(
            "unknown block '{name}' (blocks: headline, claims RUN, variants RUN)"
        )),
    }
}

/// The documents that may hold blocks under the repository `root`: README.md, then every
/// chapter of the book (docs/src/*.md) in name order.
#[cfg(not(target_arch = "wasm32"))]
pub fn documents(root: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut chapters: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("docs/src"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    chapters.insert(0, root.join("README.md"));
    Ok(chapters)
}

const OPEN: &str = "<!-- generated: ";
const CLOSE: &str = "<!-- /generated -->";

/// `text` with every block's content replaced by [`block`]'s table (blank lines around it);
/// the names of its blocks, in order.
pub fn fill_blocks(text: &str, runs: &[LoadedRun<'_>]) -> Result<(String, Vec<String>), String> {
    let mut out = String::with_capacity(text.len());
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after_open = &rest[start + OPEN.len()..];
        let name_end = after_open
            .find("-->")
            .ok_or("a '<!-- generated:' marker is not closed by '-->'")?;
        let name = after_open[..name_end].trim().to_string();
        let body = &after_open[name_end + 3..];
        let end = body
            .find(CLOSE)
            .ok_or_else(|| format!("block '{name}' has no '{CLOSE}'"))?;
        out.push_str(&rest[..start]);
        out.push_str(&format!(
            "{OPEN}{name} -->\n\n{}\n{CLOSE}",
            block(&name, runs)?
        ));
        names.push(name);
        rest = &body[end + CLOSE.len()..];
    }
    out.push_str(rest);
    Ok((out, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_and_unknown_ones_refused() {
        let text = "a\n<!-- generated: nonsense -->\nold\n<!-- /generated -->\nb";
        let err = fill_blocks(text, &[]).expect_err("unknown");
        assert!(err.contains("unknown block 'nonsense'"), "{err}");
        let err = fill_blocks("<!-- generated: claims x -->", &[]).expect_err("open");
        assert!(err.contains("has no"), "{err}");
        let (same, names) = fill_blocks("no blocks here", &[]).expect("none");
        assert_eq!((same.as_str(), names.len()), ("no blocks here", 0));
        let err = fill_blocks("<!-- generated: claims ks -->\n<!-- /generated -->", &[])
            .expect_err("no run");
        assert!(err.contains("no committed run 'ks'"), "{err}");
    }

    #[test]
    fn three_significant_figures() {
        assert_eq!(significant(0.0079720), "0.00797");
        assert_eq!(significant(0.217), "0.217");
        assert_eq!(significant(181.66), "182");
        assert_eq!(significant(13.6), "13.6");
    }
}
