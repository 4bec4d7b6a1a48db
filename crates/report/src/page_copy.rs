//! The page's copy of a committed run: its results without the weights the page cannot use.
//! The page rolls out only the first seed's network of each variant (the playground, where the
//! system has one), so the copy keeps that one and drops the others (every seed's where the
//! system has no playground); everything else is the committed file's, value for value. The
//! CLI, the book and `crates/report/tests/it/committed_results.rs` read the full files.

use unroll_core::study::data::results::StudyResults;

/// `results` as the page reads them: with the first seed's weights of each variant where
/// `rolls_out` (the system has a playground), with none otherwise.
pub fn page_copy(results: &StudyResults, rolls_out: bool) -> StudyResults {
    let mut copy = results.clone();
    for variant in &mut copy.variants {
        variant.weights.truncate(usize::from(rolls_out));
    }
    copy
}

/// Whether `copy` is `full` with, at most, weights dropped from the end of each variant's list.
pub fn same_but_weights(full: &StudyResults, copy: &StudyResults) -> bool {
    let kept = full.variants.len() == copy.variants.len()
        && full
            .variants
            .iter()
            .zip(&copy.variants)
            .all(|(full, copy)| full.weights.starts_with(&copy.weights));
    // Compared as the file writes them (NaN, `null` in a file, is not equal to itself).
    let text = |r: &StudyResults| serde_json::to_string(&r.without_weights()).ok();
    kept && text(full).is_some() && text(full) == text(copy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::fixture::fixture;
    use unroll_core::types::packed::Packed;

    fn with_weights() -> StudyResults {
        let mut results = fixture();
        for variant in &mut results.variants {
            variant.weights = vec![
                Some(Packed::f32s(&[1.0, 2.0])),
                None,
                Some(Packed::f32s(&[3.0])),
            ];
        }
        results
    }

    #[test]
    fn the_copy_keeps_the_first_seeds_weights_where_the_page_rolls_out() {
        let full = with_weights();
        let copy = page_copy(&full, true);
        assert!(copy.variants.iter().all(|v| v.weights.len() == 1));
        assert!(same_but_weights(&full, &copy));
        let none = page_copy(&full, false);
        assert!(none.variants.iter().all(|v| v.weights.is_empty()));
        assert!(same_but_weights(&full, &none));
    }

    #[test]
    fn a_copy_that_differs_elsewhere_is_caught() {
        let full = with_weights();
        let mut copy = page_copy(&full, true);
        copy.wall_secs += 1.0;
        assert!(!same_but_weights(&full, &copy));
        let mut copy = page_copy(&full, true);
        copy.variants[0].weights = vec![Some(Packed::f32s(&[9.0]))];
        assert!(!same_but_weights(&full, &copy), "other weights");
    }
}
