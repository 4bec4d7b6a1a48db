//! The URL keys read outside the experiment ([`super::query::OTHER_KEYS`]) checked where the
//! query is read, so a refused value is named in the page's first notice like a knob's: the
//! playground's `ic` / `ic-s` (against the selected system's playground, or the lack of one),
//! `workers` (a whole number of workers), `worker-fault` (`panic`, `start`, `kill` or
//! `device-lost`), `checkpoint-every` (seconds > 0) and the results'
//! horizon `eval_h` (a whole number of steps ≥ 1; whether a run has that many is said when one
//! is shown). `device` and
//! `device-slowdown` have their own notices beside the device badge.

use super::initial_state::{InitialState, SCALE_KEY, STATE_KEY};
use unroll_core::system::System;
use unroll_pool::pool::MAX_WORKERS;

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The last value of `key` in `pairs`.
fn last<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// One message per refused value of the other keys of `pairs`, for `system`.
pub fn problems(pairs: &[(String, String)], system: System) -> Vec<String> {
    let mut out = Vec::new();
    let (state, scale) = (last(pairs, STATE_KEY), last(pairs, SCALE_KEY));
    if state.is_some() || scale.is_some() {
        match system.description().playground() {
            Some(playground) => out.extend(InitialState::from_query(playground, state, scale).1),
            None => out.push(format!(
                "{STATE_KEY} / {SCALE_KEY} ignored: {} has no playground",
                system.title()
            )),
        }
    }
    if let Some(text) = last(pairs, "workers") {
        if !matches!(text.parse::<usize>(), Ok(n) if (1..=MAX_WORKERS).contains(&n)) {
            out.push(format!(
                "workers '{}' is not a whole number in 1..={MAX_WORKERS}: using the default",
                clip(text)
            ));
        }
    }
    if let Some(text) = last(pairs, "eval_h") {
        if !matches!(text.trim().parse::<usize>(), Ok(h) if h >= 1) {
            out.push(format!(
                "eval_h '{}' is not a horizon (a whole number of steps ≥ 1): showing the run's own",
                clip(text)
            ));
        }
    }
    if let Some(text) = last(pairs, "worker-fault") {
        if !matches!(text, "panic" | "start" | "kill" | "device-lost") {
            out.push(format!(
                "worker-fault '{}' is not panic, start, kill or device-lost: ignored",
                clip(text)
            ));
        }
    }
    if let Some(text) = last(pairs, "checkpoint-every") {
        if !matches!(text.trim().parse::<f64>(), Ok(s) if s.is_finite() && s > 0.0) {
            out.push(format!(
                "checkpoint-every '{}' is not a number of seconds > 0: using the default",
                clip(text)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::experiment::Experiment;

    /// Every refused value of a key read outside the experiment is named in the notice.
    #[test]
    fn refused_other_keys_are_named() {
        for (query, needle) in [
            ("ic=drawn:zzz", "initial state 'drawn:zzz'"),
            ("ic=train:1", "initial state 'train:1'"),
            ("ic-s=abc", "'abc' is not a number"),
            ("system=kolmogorov&ic=drawn:1", "has no playground"),
            ("workers=0", "workers '0'"),
            ("workers=x", "workers 'x'"),
            ("worker-fault=boom", "worker-fault 'boom'"),
            ("checkpoint-every=0", "checkpoint-every '0'"),
            ("checkpoint-every=soon", "checkpoint-every 'soon'"),
            ("eval_h=zz", "eval_h 'zz' is not a horizon"),
            ("eval_h=0", "eval_h '0' is not a horizon"),
        ] {
            let (_, ignored) = Experiment::from_query(query);
            assert!(
                ignored.iter().any(|m| m.contains(needle)),
                "{query}: {ignored:?}"
            );
        }
        for query in [
            "ic=drawn:0,1",
            "workers=3",
            "worker-fault=panic",
            "worker-fault=device-lost",
            "checkpoint-every=1.5",
            "ic-s=1.1",
            "eval_h=24",
        ] {
            let (_, ignored) = Experiment::from_query(query);
            assert!(ignored.is_empty(), "{query}: {ignored:?}");
        }
    }
}
