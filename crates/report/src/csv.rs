//! The results as a flat CSV, one row per variant: its identity, the error and its ratio to ONE,
//! the ratio's 95 % interval and verdict ([`super::ratio_to_one`]), the measures its system has (correlation time and stability classes for 1-D systems), then
//! Kochkov et al.'s vorticity measures (empty where a file or system has none).

use super::ratio_to_one::{ratios_to_one, RatioToOne};
use super::system_words::SystemWords;
use unroll_core::study::data::results::{SeedStat, StudyResults, VariantResult};
use unroll_core::system::Measures;

/// A column group: its headers, whether the system has it, and its cells of one variant.
struct Group {
    headers: &'static str,
    applies: fn(&Measures) -> bool,
    cells: fn(&VariantResult) -> Vec<String>,
}

fn always(_: &Measures) -> bool {
    true
}

fn mean_std(stat: Option<&SeedStat>) -> [String; 2] {
    stat.map_or([String::new(), String::new()], |s| {
        [s.mean.to_string(), s.std.to_string()]
    })
}

const GROUPS: [Group; 6] = [
    Group {
        headers: "variant,mode,modality,architecture,channels,depth,params,horizon,seeds,\
                  relative_error_mean,relative_error_std,relative_to_one_mean,relative_to_one_std,\
                  l2_mean",
        applies: always,
        cells: |v| {
            let id = &v.id;
            let m = &v.metrics;
            let mut out = vec![
                id.label(),
                id.mode.to_string(),
                id.modality.to_string(),
                id.architecture.to_string(),
                id.channels.to_string(),
                id.depth.to_string(),
                v.params.to_string(),
                id.horizon.to_string(),
                v.seeds.len().to_string(),
                m.relative_error.mean.to_string(),
                m.relative_error.std.to_string(),
            ];
            out.extend(mean_std(v.relative_to_one.as_ref()));
            out.push(m.l2.mean.to_string());
            out
        },
    },
    Group {
        headers: "correlation_time_mean,correlation_time_std",
        applies: |m| m.correlation_time,
        cells: |v| mean_std(Some(&v.metrics.correlation_time)).to_vec(),
    },
    Group {
        headers: "divergence_time_mean",
        applies: always,
        cells: |v| vec![v.metrics.divergence_time.mean.to_string()],
    },
    Group {
        headers: "static,unstable,recurring,regular",
        applies: |m| m.stability_classes,
        cells: |v| {
            let s = v.metrics.stability;
            [s.r#static, s.unstable, s.recurring, s.regular]
                .map(|n| n.to_string())
                .to_vec()
        },
    },
    Group {
        headers: "diverged",
        applies: always,
        cells: |v| vec![v.diverged.to_string()],
    },
    Group {
        headers: "early_mse_mean,early_mse_std,steps_above_095_mean,steps_above_095_std,\
                  time_scales_above_095_mean,steps_above_080_mean,steps_above_080_std,\
                  time_scales_above_080_mean",
        applies: always,
        cells: |v| {
            let w = v.metrics.vorticity.as_ref();
            let mut out = Vec::new();
            out.extend(mean_std(w.map(|w| &w.early_mse)));
            out.extend(mean_std(w.map(|w| &w.steps_above_095)));
            out.push(mean_std(w.map(|w| &w.time_scales_above_095))[0].clone());
            out.extend(mean_std(w.map(|w| &w.steps_above_080)));
            out.push(mean_std(w.map(|w| &w.time_scales_above_080))[0].clone());
            out
        },
    },
];

const RATIO_HEADERS: &str = "relative_to_one_low95,relative_to_one_high95,relative_to_one_verdict";

/// The interval's bounds and the verdict on "better than ONE" (empty for ONE itself, and the
/// bounds for one seed).
fn ratio_cells(ratio: Option<&RatioToOne>) -> [String; 3] {
    let Some(ratio) = ratio else {
        return [String::new(), String::new(), String::new()];
    };
    let (low, high) = ratio
        .interval
        .bounds
        .map_or((String::new(), String::new()), |(l, h)| {
            (l.to_string(), h.to_string())
        });
    [low, high, ratio.verdict.words().to_string()]
}

/// One CSV row per variant of `results`, under a header of the groups its system has.
pub fn results_csv(results: &StudyResults) -> String {
    let measures = results.facts().measures;
    let groups: Vec<&Group> = GROUPS.iter().filter(|g| (g.applies)(&measures)).collect();
    let mut header: Vec<&str> = groups.iter().map(|g| g.headers).collect();
    header.insert(1, RATIO_HEADERS);
    let mut out = header.join(",") + "\n";
    for (v, ratio) in results.variants.iter().zip(ratios_to_one(results)) {
        let mut cells: Vec<String> = groups.iter().flat_map(|g| (g.cells)(v)).collect();
        let first = GROUPS[0].headers.split(',').count();
        let ratio_cells = ratio_cells(ratio.as_ref());
        cells.splice(first..first, ratio_cells);
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::fixture::kolmogorov_fixture;

    #[test]
    fn one_d_files_keep_their_columns_and_get_empty_vorticity_ones() {
        let text = include_str!("../../../tests/e2e/fixtures/cli-results.json");
        let results = StudyResults::from_json(text).expect("fixture");
        let csv = results_csv(&results);
        let header = csv.lines().next().expect("header");
        assert!(header.contains(
            "relative_to_one_std,l2_mean,relative_to_one_low95,relative_to_one_high95,\
             relative_to_one_verdict,correlation_time_mean,correlation_time_std,divergence_time_mean,\
             static,unstable,recurring,regular,diverged,early_mse_mean"
        ));
        let columns = header.split(',').count();
        for line in csv.lines().skip(1) {
            assert_eq!(line.split(',').count(), columns, "{line}");
            assert!(
                line.ends_with(",,,,,,,,"),
                "vorticity columns empty: {line}"
            );
        }
    }

    #[test]
    fn flows_have_vorticity_columns_and_no_one_d_measures() {
        let csv = results_csv(&kolmogorov_fixture());
        let header = csv.lines().next().expect("header");
        assert!(!header.contains("correlation_time") && !header.contains("static"));
        let columns = header.split(',').count();
        let row = csv.lines().nth(3).expect("C-WIG");
        assert!(row.starts_with("C-WIG,"), "{row}");
        assert_eq!(row.split(',').count(), columns);
        let cells: Vec<&str> = row.split(',').collect();
        let at = |name: &str| header.split(',').position(|h| h == name).expect(name);
        assert_eq!(cells[at("steps_above_095_mean")], "12");
        assert_eq!(cells[at("time_scales_above_080_mean")], "6");
    }
}
