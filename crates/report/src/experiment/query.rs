//! The experiment in the URL query: the preset, then every knob that differs from the preset's
//! default, in [`super::KNOBS`] order (`?preset=horizons&seeds=2&modes=correct&m=4`). Reading
//! never panics: every unknown key, repeated key, bad number, unknown name, empty list and
//! out-of-range value is named in a message and its default is used.

use super::knob::{Knob, Value};
use super::limits::Target;
use super::{Experiment, KNOBS};
use unroll_core::system::config::Preset;
use unroll_core::system::System;

/// The URL key of the preset (not a knob: it sets the knobs' defaults).
pub const PRESET_KEY: &str = "preset";
/// URL keys read elsewhere: `device` (the compute device), `device-slowdown` (a device's measured
/// time multiplied, for tests), `workers` (the worker pool's size),
/// `worker-fault` (a failure injected into a worker, for tests), `checkpoint-every` (how often a
/// CPU worker posts its training's checkpoint, in seconds, for tests), and `ic` / `ic-s` (the
/// playground's initial state and its domain scale, [`super::initial_state`]), read by the page.
pub const OTHER_KEYS: [&str; 8] = [
    "eval_h",
    "device",
    "device-slowdown",
    "workers",
    "worker-fault",
    "checkpoint-every",
    "ic",
    "ic-s",
];

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The preset named in a URL (`headline` is the old name of `quick`); only the browser's
/// presets.
fn preset_of(name: &str) -> Option<Preset> {
    let preset = match name {
        "headline" => Preset::Quick,
        other => other.parse().ok()?,
    };
    Preset::BROWSER.contains(&preset).then_some(preset)
}

impl Experiment {
    /// The URL query (without `?`): the preset unless it is the default, then every knob that
    /// differs from the preset's default; empty for the default experiment.
    pub fn to_query(&self) -> String {
        let mut parts = Vec::new();
        if self.preset != Preset::Quick {
            parts.push(format!("{PRESET_KEY}={}", self.preset));
        }
        let overrides = self.overrides();
        for knob in KNOBS {
            if let Some(value) = overrides.get(knob) {
                parts.push(format!("{}={value}", knob.key()));
            }
        }
        parts.join("&")
    }

    /// Reads a URL query (with or without `?`, percent-decoded) into a browser experiment; the
    /// messages name every parameter that was ignored. The preset is read first (it sets the
    /// defaults), wherever it appears.
    pub fn from_query(query: &str) -> (Self, Vec<String>) {
        let pairs = query_pairs(query);
        let mut ignored = repeated_keys(&pairs);
        let preset = query_preset(&pairs, &mut ignored);
        let system = query_system(&pairs);
        let mut experiment = Self::defaults_for(system, preset, Target::Browser);
        // Every other value is checked against the chosen system (its parameter's range).
        for (key, value) in pairs.iter().filter(|(key, _)| key != PRESET_KEY) {
            if OTHER_KEYS.contains(&key.as_str()) {
                continue;
            }
            let Some(knob) = Knob::from_key(key) else {
                ignored.push(format!("unknown parameter '{}' ignored", clip(key)));
                continue;
            };
            match knob.parse_checked(value, Target::Browser, system) {
                Ok(parsed) => knob.write(&mut experiment, parsed),
                Err(problem) => ignored.push(format!(
                    "{key} '{}' {}: using the default",
                    clip(value),
                    problem.for_url(knob, Target::Browser)
                )),
            }
        }
        ignored.extend(super::url_keys::problems(&pairs, system));
        (experiment, ignored)
    }
}

/// The query's `key=value` pairs, percent-decoded, in order (a key without `=` has an empty
/// value).
fn query_pairs(query: &str) -> Vec<(String, String)> {
    let decode = |s: &str| -> String {
        percent_encoding::percent_decode_str(s)
            .decode_utf8_lossy()
            .into()
    };
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// One message for every key given more than once.
fn repeated_keys(pairs: &[(String, String)]) -> Vec<String> {
    let mut messages = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (key, _) in pairs {
        if seen.contains(&key.as_str()) {
            let message = format!(
                "parameter '{}' is given more than once: using the last",
                clip(key)
            );
            if !messages.contains(&message) {
                messages.push(message);
            }
        } else {
            seen.push(key.as_str());
        }
    }
    messages
}

/// The last valid preset of the query (else the default), naming every unknown one.
fn query_preset(pairs: &[(String, String)], ignored: &mut Vec<String>) -> Preset {
    let mut preset = Preset::Quick;
    for (_, value) in pairs.iter().filter(|(key, _)| key == PRESET_KEY) {
        match preset_of(value) {
            Some(p) => preset = p,
            None => ignored.push(format!(
                "preset '{}' is unknown: using the default",
                clip(value)
            )),
        }
    }
    preset
}

/// The last valid system of the query (else the default): it picks the defaults every other
/// knob starts from and the limits it is checked against.
fn query_system(pairs: &[(String, String)]) -> System {
    pairs
        .iter()
        .rev()
        .filter(|(key, _)| Some(Knob::System) == Knob::from_key(key))
        .find_map(|(_, value)| match Knob::System.parse(value) {
            Ok(Value::System(system)) => Some(system),
            _ => None,
        })
        .unwrap_or_default()
}
