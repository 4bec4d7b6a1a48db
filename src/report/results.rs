//! The results file `unroll-lab/results@1`. Defined next to the study that writes it
//! ([`crate::numerics::study::data`]) so that `numerics` never imports `report`; re-exported
//! here, where the other file schemas live, with its views as text ([`ResultsText`]: the paper's
//! table and the CSV).

use super::orderings::{orderings, summary};
pub use crate::numerics::study::data::results::*;
use crate::numerics::system::SystemFacts;

/// The words of a results file's system (metric, baseline, maps, parameter), found through the
/// registry: `numerics` cannot look a system up, so the lookup lives here.
pub trait SystemWords {
    /// The system's facts.
    fn facts(&self) -> SystemFacts;
}

impl SystemWords for StudyResults {
    fn facts(&self) -> SystemFacts {
        self.system().description().facts()
    }
}

/// The results as text for people: the paper's table and a flat CSV view.
pub trait ResultsText {
    /// One CSV row per variant.
    fn to_csv(&self) -> String;
    /// The table in the paper's layout (rows P-ONE … C-WIG; columns relative error mean ± std,
    /// relative to ONE, correlation time, stability counts) plus the C-NOG / P-WIG ratio.
    fn table(&self) -> String;
}

impl ResultsText for StudyResults {
    /// One CSV row per variant.
    fn to_csv(&self) -> String {
        let mut out = String::from(
            "variant,mode,modality,architecture,channels,depth,params,horizon,seeds,\
             relative_error_mean,relative_error_std,relative_to_one_mean,relative_to_one_std,\
             l2_mean,correlation_time_mean,correlation_time_std,divergence_time_mean,\
             static,unstable,recurring,regular,diverged\n",
        );
        let rows = self
            .variants
            .iter()
            .map(|v| {
                let id = &v.id;
                let m = &v.metrics;
                let (rel_mean, rel_std) = v
                    .relative_to_one
                    .as_ref()
                    .map_or((String::new(), String::new()), |r| {
                        (r.mean.to_string(), r.std.to_string())
                    });
                format!(
                    "{},{},{},{},{},{},{},{},{},{},{},{rel_mean},{rel_std},{},{},{},{},{},{},{},{},{}\n",
                    id.label(),
                    id.mode,
                    id.modality,
                    id.architecture,
                    id.channels,
                    id.depth,
                    v.params,
                    id.horizon,
                    v.seeds.len(),
                    m.relative_error.mean,
                    m.relative_error.std,
                    m.l2.mean,
                    m.correlation_time.mean,
                    m.correlation_time.std,
                    m.divergence_time.mean,
                    m.stability.r#static,
                    m.stability.unstable,
                    m.stability.recurring,
                    m.stability.regular,
                    v.diverged
                )
            });
        out.extend(rows);
        out
    }

    /// The table in the paper's layout (rows P-ONE … C-WIG; columns relative error mean ± std,
    /// relative to ONE, correlation time, stability counts) plus the C-NOG / P-WIG ratio.
    fn table(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "| {:<22} | {:>8} | {:>20} | {:>13} | {:>14} | {:>22} |\n",
            "variant",
            "params",
            format!("{} (mean±std)", self.facts().metric.short),
            "rel. to ONE",
            "corr. time",
            "stat/unst/recur/reg"
        ));
        out.push_str(&format!(
            "|{:-<24}|{:->10}|{:->22}|{:->15}|{:->16}|{:->24}|\n",
            "", "", "", "", "", ""
        ));
        for v in &self.variants {
            out.push_str(&row(
                &v.id.long_label(),
                Some(v.params),
                &v.metrics,
                v.relative_to_one.as_ref(),
                diverged_note(v),
            ));
        }
        out.push_str(&row(
            &format!("{} (baseline)", self.facts().baseline.name),
            None,
            &self.baseline,
            None,
            String::new(),
        ));
        if let Some(sentence) = self.ratio_sentence(self.facts().paper_c_nog_over_p_wig) {
            out.push_str(&format!("\n{sentence}\n"));
        }
        if let Some(sentence) = summary(&orderings(self)) {
            out.push_str(&format!("\n{sentence}\n"));
        }
        out
    }
}

/// ` (diverged)`, or ` (k of n diverged)` when models were left out of the means.
pub fn diverged_note(v: &VariantResult) -> String {
    match v.metrics.diverged_models {
        0 if v.diverged => " (diverged)".to_string(),
        0 => String::new(),
        k => format!(" ({k} of {} diverged)", v.seeds.len()),
    }
}

fn row(
    label: &str,
    params: Option<usize>,
    m: &Metrics,
    relative: Option<&SeedStat>,
    diverged: String,
) -> String {
    let rel = relative.map_or("—".to_string(), |r| format!("{:.3}±{:.3}", r.mean, r.std));
    let [error, correlation, stability] = cells(m, "±");
    format!(
        "| {:<22} | {:>8} | {:>20} | {:>13} | {:>14} | {:>22} |\n",
        format!("{label}{diverged}"),
        params.map_or("—".to_string(), |p| p.to_string()),
        error,
        rel,
        correlation,
        stability,
    )
}

/// The relative error (`8.276e-2±6.8e-3`), the correlation time (`18.4±1.5`) and the stability
/// counts (`0/0/27/93`) of `m`, with `plus_minus` between mean and std (the page spaces it).
pub fn cells(m: &Metrics, plus_minus: &str) -> [String; 3] {
    let s = m.stability;
    [
        format!(
            "{:.3e}{plus_minus}{:.1e}",
            m.relative_error.mean, m.relative_error.std
        ),
        format!(
            "{:.1}{plus_minus}{:.1}",
            m.correlation_time.mean, m.correlation_time.std
        ),
        format!(
            "{}/{}/{}/{}",
            s.r#static, s.unstable, s.recurring, s.regular
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::study::contract::config::Preset;
    use crate::numerics::system::System;

    /// Old files import unchanged; written back, everything but the config is the file's, and
    /// the config is written as a JSON value writes it (sorted keys, as the files always had
    /// them) with every old key kept (fields added since appear with their defaults).
    #[test]
    fn old_files_import_and_write_back_unchanged() {
        for text in [
            include_str!("../../tests/e2e/fixtures/cli-results.json"),
            include_str!("../../results.json"),
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
            assert!(old == new, "the rest of the file is unchanged");
            assert_eq!(StudyResults::from_json(&written).expect("again"), results);
        }
    }

    /// A config this version cannot read, or an unknown preset, is refused with its reason.
    #[test]
    fn an_unreadable_config_is_an_import_error() {
        let text = include_str!("../../tests/e2e/fixtures/cli-results.json");
        let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
        value["config"]["system"] = serde_json::json!("navier");
        let err = StudyResults::from_json(&value.to_string()).expect_err("unknown system");
        assert!(
            err.to_string().starts_with(
                "the results file's study config cannot be read: unknown variant `navier`"
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
        let text = include_str!("../../tests/e2e/fixtures/cli-results.json");
        let mut results = StudyResults::from_json(text).expect("fixture");
        assert!(results.table().contains("rel. error (mean±std)"));
        results.config.system = System::Kolmogorov;
        let table = results.table();
        assert!(table.contains("velocity MSE (mean±std)"), "{table}");
        assert!(table.contains("PISO only"), "{table}");
    }

    #[test]
    fn table_and_csv_of_the_cli_fixture() {
        let text = include_str!("../../tests/e2e/fixtures/cli-results.json");
        let results = StudyResults::from_json(text).expect("fixture");
        let table = results.table();
        assert!(table.contains("| C-NOG 16×10 m=3"));
        let mut fno = results.clone();
        fno.variants[0].id.architecture = crate::numerics::nets::Architecture::Fno;
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
