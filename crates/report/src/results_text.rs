//! The results file (`unroll-lab/results@1`, defined by the study that writes it:
//! [`unroll_core::study::data::results`]) as text for people ([`ResultsText`]): the paper's
//! table and the CSV.

use super::columns::{measure_columns, MeasureColumn, KOCHKOV_NOTE};
use super::csv::results_csv;
use super::orderings::summary_of;
use super::ratio_to_one::{ratios_to_one, relative_cell};
use super::vorticity_orderings::{vorticity_orderings, vorticity_summary};
use crate::system_words::SystemWords;
use unroll_core::study::data::results::*;

/// The results as text for people: the paper's table and a flat CSV view.
pub trait ResultsText {
    /// One CSV row per variant ([`results_csv`]).
    fn to_csv(&self) -> String;
    /// The table in the paper's layout (rows P-ONE … C-WIG; columns error mean ± std, relative
    /// to ONE, then the system's measures: [`measure_columns`]) plus the C-NOG / P-WIG ratio
    /// and the orderings' verdicts.
    fn table(&self) -> String;
}

impl ResultsText for StudyResults {
    fn to_csv(&self) -> String {
        results_csv(self)
    }

    fn table(&self) -> String {
        let columns = measure_columns(self);
        let mut rows = vec![header_cells(self, &columns)];
        for (v, ratio) in self.variants.iter().zip(ratios_to_one(self)) {
            let first = [
                format!("{}{}", v.id.long_label(), diverged_note(v)),
                v.params.to_string(),
                error_cell(&v.metrics, "±"),
                relative_cell(v.relative_to_one.as_ref(), ratio.as_ref(), "±"),
            ];
            rows.push(row_cells(&first, &v.metrics, &columns));
        }
        let first = [
            format!("{} (baseline)", self.facts().baseline.name),
            "—".to_string(),
            error_cell(&self.baseline, "±"),
            "—".to_string(),
        ];
        rows.push(row_cells(&first, &self.baseline, &columns));
        let mut out = aligned(&rows, &widths(&columns));
        if columns.iter().any(|c| c.kochkov) {
            out.push_str(&format!("\n{KOCHKOV_NOTE}\n"));
        }
        if let Some(sentence) = self.ratio_sentence(self.facts().paper_c_nog_over_p_wig) {
            out.push_str(&format!("\n{sentence}\n"));
        }
        if let Some(sentence) = summary_of(self) {
            out.push_str(&format!("\n{sentence}\n"));
        }
        if let Some(sentence) = vorticity_summary(&vorticity_orderings(self)) {
            out.push_str(&format!("\n{sentence}\n"));
        }
        out
    }
}

/// Least widths of the first four columns: variant, params, error, relative to ONE.
const WIDTHS: [usize; 4] = [22, 8, 20, 13];

/// Least widths of every column: [`WIDTHS`], then the measure columns'.
fn widths(columns: &[MeasureColumn]) -> Vec<usize> {
    WIDTHS
        .into_iter()
        .chain(columns.iter().map(|c| c.width))
        .collect()
}

/// `rows` (the header first) as a text table, each column as wide as its widest cell (at
/// least its `least` width): the first left-aligned, the others right-aligned, a rule below
/// the header.
fn aligned(rows: &[Vec<String>], least: &[usize]) -> String {
    let widths: Vec<usize> = least
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let widest = rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count());
            widest.fold(w, usize::max)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut out = String::from("|");
        for (i, (cell, &w)) in cells.iter().zip(&widths).enumerate() {
            if i == 0 {
                out.push_str(&format!(" {cell:<w$} |"));
            } else {
                out.push_str(&format!(" {cell:>w$} |"));
            }
        }
        out + "\n"
    };
    let rule: String = widths
        .iter()
        .map(|w| format!("{:-<1$}|", "", w + 2))
        .collect();
    let mut out = String::new();
    for (i, cells) in rows.iter().enumerate() {
        out.push_str(&line(cells));
        if i == 0 {
            out.push_str(&format!("|{rule}\n"));
        }
    }
    out
}

/// The header's cells.
fn header_cells(results: &StudyResults, columns: &[MeasureColumn]) -> Vec<String> {
    let mut cells = vec![
        "variant".to_string(),
        "params".to_string(),
        format!("{} (mean±std)", results.facts().metric.short),
        "rel. to ONE (95 %)".to_string(),
    ];
    cells.extend(columns.iter().map(MeasureColumn::short_header));
    cells
}

/// One row's cells: the `first` four, then the measure columns of `m`.
fn row_cells(first: &[String; 4], m: &Metrics, columns: &[MeasureColumn]) -> Vec<String> {
    let mut cells = first.to_vec();
    cells.extend(columns.iter().map(|c| c.cell(m, "±")));
    cells
}

/// ` (diverged)`, or ` (k of n diverged)` when models were left out of the means.
pub fn diverged_note(v: &VariantResult) -> String {
    match v.metrics.diverged_models {
        0 if v.diverged => " (diverged)".to_string(),
        0 => String::new(),
        k => format!(" ({k} of {} diverged)", v.seeds.len()),
    }
}

/// The error of `m` (`8.276e-2±6.8e-3`), with `plus_minus` between mean and std (the page
/// spaces it).
pub fn error_cell(m: &Metrics, plus_minus: &str) -> String {
    format!(
        "{:.3e}{plus_minus}{:.1e}",
        m.relative_error.mean, m.relative_error.std
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::system::config::Preset;
    use unroll_core::system::System;

    /// Old files import unchanged; written back, everything but the config is the file's, and
    /// the config is written as a JSON value writes it (sorted keys, as the files always had
    /// them) with every old key kept (fields added since appear with their defaults).
    #[test]
    fn old_files_import_and_write_back_unchanged() {
        for text in [
            include_str!("../../../tests/e2e/fixtures/cli-results.json"),
            // An old quick-preset file (first trained, before per-test curves were kept).
            include_str!("../../../tests/e2e/fixtures/old-quick-results.json"),
        ] {
            let results = StudyResults::from_json(text).expect("imports");
            assert_eq!(results.preset, Preset::Quick);
            assert_eq!(results.system(), System::Ks);
            let written = serde_json::to_string(&results).expect("json");
            let sorted = serde_json::to_value(&results.config).expect("value");
            assert!(written.contains(&format!(
                "\"preset\":\"quick\",\"config\":{sorted},\"variants\""
            )));
            let mut old: serde_json::Value = serde_json::from_str(text).expect("json");
            let mut new: serde_json::Value = serde_json::from_str(&written).expect("json");
            for (key, value) in old["config"].as_object().expect("object") {
                assert_eq!(&new["config"][key], value, "{key}");
            }
            old["config"].take();
            new["config"].take();
            // Relative to ONE is recomputed on import: the file's (the paired mean of per-seed
            // ratios) is the paired alternative now, beside ks_eval.py's ratio of means.
            let variants = |v: &mut serde_json::Value| v["variants"].as_array_mut().cloned();
            for (was, now) in variants(&mut old)
                .into_iter()
                .flatten()
                .zip(new["variants"].as_array_mut().expect("variants").iter_mut())
            {
                let paired = now["relative_to_one_paired"].take();
                let official = now["relative_to_one"].take();
                if was["relative_to_one"].is_null() {
                    assert!(paired.is_null() && official.is_null());
                } else {
                    let mean = |v: &serde_json::Value| v["mean"].as_f64().expect("mean");
                    assert!((mean(&paired) - mean(&was["relative_to_one"])).abs() < 1e-12);
                    assert!(official["mean"].is_f64());
                }
                now["relative_to_one"] = was["relative_to_one"].clone();
                now.as_object_mut()
                    .expect("variant")
                    .remove("relative_to_one_paired");
            }
            assert!(old == new, "the rest of the file is unchanged");
            assert_eq!(StudyResults::from_json(&written).expect("again"), results);
        }
    }

    /// A config this version cannot read, or an unknown preset, is refused with its reason.
    #[test]
    fn an_unreadable_config_is_an_import_error() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["config"]["system"] = serde_json::json!("navier");
        let err = StudyResults::from_json(&value.to_string()).expect_err("unknown system");
        assert!(
            err.to_string().starts_with(
                "the results file's study config cannot be read: unknown system 'navier'"
            ),
            "{err}"
        );
        value["config"] = serde_json::json!({"preset": "quick"});
        assert!(matches!(
            StudyResults::from_json(&value.to_string()),
            Err(ResultsError::Config(_))
        ));
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["preset"] = serde_json::json!("custom");
        let err = StudyResults::from_json(&value.to_string()).expect_err("unknown preset");
        assert!(
            err.to_string().contains("unknown variant `custom`"),
            "{err}"
        );
        // The browser's first files called the quick preset `headline`.
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["preset"] = serde_json::json!("headline");
        let results = StudyResults::from_json(&value.to_string()).expect("headline");
        assert_eq!(results.preset, Preset::Quick);
    }

    /// The table's metric and baseline come from the file's system.
    #[test]
    fn the_table_is_worded_by_the_system() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let mut results = StudyResults::from_json(text).expect("fixture");
        assert!(results.table().contains("rel. error (mean±std)"));
        results.config.system = System::Kolmogorov;
        let table = results.table();
        assert!(table.contains("velocity MSE (mean±std)"), "{table}");
        assert!(table.contains("PISO only"), "{table}");
    }

    /// A flow's table: no KS measures, the vorticity columns marked and explained, and both
    /// verdicts; without the measures in the file, neither their columns nor their note.
    #[test]
    fn a_flow_table_shows_kochkov_measures_beside_the_mse() {
        let mut results = crate::charts::fixture::kolmogorov_fixture();
        let table = results.table();
        assert_aligned(&table);
        for absent in ["corr. time", "stat/unst"] {
            assert!(!table.contains(absent), "{table}");
        }
        for present in [
            "early MSE (8 steps)†",
            "steps to ρ < 0.95†",
            "12.0±1.2 (1.5 τ)",
            "† Kochkov et al. 2021, not the paper's metric",
            "By vorticity correlation time (Kochkov et al., not the paper's metric",
        ] {
            assert!(table.contains(present), "{present}: {table}");
        }
        results.baseline.vorticity = None;
        results
            .variants
            .iter_mut()
            .for_each(|v| v.metrics.vorticity = None);
        let table = results.table();
        assert!(
            !table.contains('†') && !table.contains("Kochkov"),
            "{table}"
        );
        assert!(table
            .lines()
            .all(|l| !l.starts_with('|') || l.matches('|').count() == 5));
    }

    /// KS's table keeps its layout.
    #[test]
    fn the_ks_table_keeps_its_columns() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let table = StudyResults::from_json(text).expect("fixture").table();
        let head = "| variant                |   params | rel. error (mean±std) | rel. to ONE (95 %) |     corr. time |    stat/unst/recur/reg |";
        assert!(table.starts_with(head), "{table}");
        assert!(table.contains("\n|------------------------|----------|-----------------------|--------------------|----------------|------------------------|\n"));
        assert_aligned(&table);
    }

    /// Every line of the table's grid is as long as its header (each column as wide as its
    /// widest cell).
    fn assert_aligned(table: &str) {
        let grid: Vec<usize> = table
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.chars().count())
            .collect();
        assert!(grid.len() > 2, "{table}");
        assert!(grid.iter().all(|&n| n == grid[0]), "{table}");
    }

    #[test]
    fn table_and_csv_of_the_cli_fixture() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let results = StudyResults::from_json(text).expect("fixture");
        let table = results.table();
        assert!(table.contains("| C-NOG 16×10 m=3"));
        let mut fno = results.clone();
        fno.variants[0].id.architecture = unroll_core::nets::Architecture::Fno;
        assert!(fno.table().contains("fno 16×10 m=3"), "{}", fno.table());
        assert!(table.contains("ETD1 only (baseline)"));
        assert_eq!(results.to_csv().lines().count(), 7);
        assert!(results
            .to_csv()
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("P-ONE,predict,one,resnet,16,10,")));
    }
}
