//! How a finished run is looked at: its error horizon (the paper's 12, or any H its per-test
//! curves allow, re-scored exactly) and the aggregation of ratios to ONE (`ks_eval.py`'s ratio
//! of means, or the paired mean of per-seed ratios). The page keeps the horizon in its URL as
//! `eval_h=`.

use unroll_core::study::data::results::{Aggregation, StudyResults};

/// The URL key of the horizon.
pub const HORIZON_KEY: &str = "eval_h";

/// A view of results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lens {
    /// The horizon to re-score at (`None`: the file's own).
    pub horizon: Option<usize>,
    /// The aggregation of ratios to ONE.
    pub aggregation: Aggregation,
}

impl Lens {
    /// The horizon of a URL value, or why it is refused.
    pub fn parse_horizon(value: &str) -> Result<usize, String> {
        match value.trim().parse::<usize>() {
            Ok(h) if h >= 1 => Ok(h),
            _ => Err(format!(
                "{HORIZON_KEY} '{}' is not a horizon (a whole number of steps ≥ 1): showing the run's own",
                value.chars().take(20).collect::<String>()
            )),
        }
    }

    /// `results` through this lens; a horizon the run cannot show is refused with its reason
    /// (and the view keeps the run's own horizon).
    pub fn apply(&self, results: &StudyResults) -> (StudyResults, Option<String>) {
        let own = results.config.eval.error_horizon;
        let (rescored, problem) = match self.horizon {
            Some(h) if h != own => match results.at_horizon(h) {
                Ok(at) => (at, None),
                Err(err) => (results.clone(), Some(format!("{HORIZON_KEY}={h}: {err}"))),
            },
            _ => (results.clone(), None),
        };
        (rescored.with_aggregation(self.aggregation), problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::fixture::{every_test_fixture, fixture};

    #[test]
    fn a_lens_rescores_swaps_the_aggregation_and_refuses_what_it_cannot_show() {
        let results = every_test_fixture();
        let lens = Lens {
            horizon: Some(24),
            aggregation: Aggregation::Paired,
        };
        let (view, problem) = lens.apply(&results);
        assert_eq!(problem, None);
        assert_eq!(view.config.eval.error_horizon, 24);
        assert_eq!(view.aggregation, Aggregation::Paired);
        let p_wig = view
            .variants
            .iter()
            .find(|v| v.id.label() == "P-WIG")
            .expect("P-WIG");
        let official = results.at_horizon(24).expect("at 24");
        let want = official.variants[3].relative_to_one_paired.clone();
        assert_eq!(p_wig.relative_to_one, want);
        let (same, problem) = Lens {
            horizon: Some(99),
            ..Lens::default()
        }
        .apply(&results);
        assert!(problem.expect("refused").contains("outside 1..=40"));
        assert_eq!(same.config.eval.error_horizon, 12);
        let (_, problem) = Lens {
            horizon: Some(20),
            ..Lens::default()
        }
        .apply(&fixture());
        assert!(problem
            .expect("refused")
            .contains("keep no per-test error curves"));
        assert_eq!(Lens::parse_horizon("24"), Ok(24));
        assert!(Lens::parse_horizon("0").is_err() && Lens::parse_horizon("zz").is_err());
    }
}
