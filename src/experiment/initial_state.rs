//! A reader's own initial state for the KS playground: one of the paper's two IC families with
//! its two coefficients, or a drawn curve kept as its lowest Fourier modes, on a domain of scale
//! `s` (L = 8·s). It lives in the URL (`ic=train:0.1,-0.1`, `ic=drawn:0,0.5,-1.2,…`, `ic-s=1.1`),
//! so a shared link shows the same state; reading never panics and words what is wrong.

use crate::numerics::study::contract::playground::Playground;

/// URL key of the state.
pub const STATE_KEY: &str = "ic";
/// URL key of its domain scale `s`.
pub const SCALE_KEY: &str = "ic-s";
/// Fourier modes kept of a drawn curve: `k = 0..=MODES` (the mean, then cos and sin of each).
pub const MODES: usize = 10;
/// Accepted domain scales in the playground (the study trains on 0.9–1.3, tests 0.85–1.4).
pub const SCALE_LIMITS: std::ops::RangeInclusive<f64> = 0.5..=2.0;
/// Largest |coefficient| accepted from a URL.
const MAX_COEFFICIENT: f64 = 10.0;

/// Where an initial state comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum StateSource {
    /// The study's training family `cos(2πx) + a·cos(2πx/L)·(1 + b·sin(2πx/L))`.
    Train { a: f64, b: f64 },
    /// The study's test family `cos(πx) + c·cos(2πx/L)·(1 − s'·sin(2πx/L))`.
    Test { c: f64, s_prime: f64 },
    /// A drawn curve: `[a0, a1, b1, a2, b2, …]`, `u_j = a0 + Σ_k a_k cos(2πkj/N) + b_k sin(2πkj/N)`.
    Drawn { coefficients: Vec<f64> },
}

/// An initial state on a domain of scale `scale`.
#[derive(Debug, Clone, PartialEq)]
pub struct InitialState {
    /// The state's recipe.
    pub source: StateSource,
    /// Domain scale `s` (L = 8·s).
    pub scale: f64,
}

impl Default for InitialState {
    /// The first training IC at s = 1.
    fn default() -> Self {
        Self {
            source: StateSource::Train { a: 0.1, b: 0.1 },
            scale: 1.0,
        }
    }
}

/// Rounds to 3 decimals and prints without trailing zeros (`0.25`, `-1`, `0`).
fn short(value: f64) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    let text = format!("{rounded:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".to_string(),
        other => other.to_string(),
    }
}

/// Parses a comma-separated list of finite numbers within ±[`MAX_COEFFICIENT`].
fn numbers(text: &str) -> Result<Vec<f64>, String> {
    text.split(',')
        .map(|part| {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("'{}' is not a number", clip(part)))?;
            if !value.is_finite() || value.abs() > MAX_COEFFICIENT {
                return Err(format!(
                    "{} is outside ±{MAX_COEFFICIENT}",
                    clip(part.trim())
                ));
            }
            Ok(value)
        })
        .collect()
}

fn clip(text: &str) -> String {
    text.chars().take(24).collect()
}

/// The lowest `modes` Fourier modes of `values` (`[a0, a1, b1, …]`, real, periodic on the grid).
pub fn fourier_modes(values: &[f64], modes: usize) -> Vec<f64> {
    let n = values.len();
    if n == 0 {
        return vec![0.0];
    }
    let tau = std::f64::consts::TAU;
    let modes = modes.min((n - 1) / 2);
    let mut out = vec![values.iter().sum::<f64>() / n as f64];
    for k in 1..=modes {
        let (mut a, mut b) = (0.0, 0.0);
        for (j, &v) in values.iter().enumerate() {
            let phase = tau * (k * j) as f64 / n as f64;
            a += v * phase.cos();
            b += v * phase.sin();
        }
        out.push(2.0 * a / n as f64);
        out.push(2.0 * b / n as f64);
    }
    out
}

/// The curve of Fourier `coefficients` (`[a0, a1, b1, …]`) on `n` grid points.
pub fn from_modes(coefficients: &[f64], n: usize) -> Vec<f64> {
    let tau = std::f64::consts::TAU;
    (0..n)
        .map(|j| {
            let mut v = coefficients.first().copied().unwrap_or(0.0);
            for (k, pair) in coefficients[1.min(coefficients.len())..]
                .chunks(2)
                .enumerate()
            {
                let phase = tau * ((k + 1) * j) as f64 / n as f64;
                v += pair[0] * phase.cos() + pair.get(1).copied().unwrap_or(0.0) * phase.sin();
            }
            v
        })
        .collect()
}

/// One pointer position `(fx, fy)` in `[0, 1]²` of a drawing surface (top left = 0, 0) painted
/// into `samples` (evenly across one period; the surface spans ±`range`): the samples from the
/// previous position `last` to this one are set on the straight line between them, so a fast
/// stroke leaves no gaps. Returns this position's sample index (the next call's `last`).
pub fn paint(samples: &mut [f64], last: Option<usize>, (fx, fy): (f64, f64), range: f64) -> usize {
    let n = samples.len();
    if n == 0 {
        return 0;
    }
    let i = ((fx.clamp(0.0, 1.0) * n as f64) as usize).min(n - 1);
    let v = (0.5 - fy.clamp(0.0, 1.0)) * 2.0 * range;
    let from = last.filter(|&l| l < n).unwrap_or(i);
    let v_from = if from == i { v } else { samples[from] };
    let span = from.abs_diff(i).max(1) as f64;
    let (lo, hi) = (from.min(i), from.max(i));
    for (k, sample) in samples.iter_mut().enumerate().take(hi + 1).skip(lo) {
        let t = k.abs_diff(from) as f64 / span;
        *sample = v_from + (v - v_from) * t;
    }
    i
}

impl InitialState {
    /// A drawn state from samples on any number of points, kept as its [`MODES`] lowest modes
    /// (rounded as the URL keeps them).
    pub fn drawn(samples: &[f64], scale: f64) -> Self {
        let coefficients = fourier_modes(samples, MODES)
            .into_iter()
            .map(|c| short(c).parse().unwrap_or(0.0))
            .collect();
        Self {
            source: StateSource::Drawn { coefficients },
            scale,
        }
    }

    /// The state on the system's grid (KS: N = 48, L = 8·s).
    pub fn values(&self, playground: &dyn Playground) -> Vec<f64> {
        self.values_on(playground, playground.points())
    }

    /// The state on `n` grid points (KS: L = 8·s); zeros where the family cannot be built.
    pub fn values_on(&self, playground: &dyn Playground, n: usize) -> Vec<f64> {
        let state = match &self.source {
            StateSource::Drawn { coefficients } => Ok(from_modes(coefficients, n)),
            StateSource::Train { a, b } => playground.training_state(*a, *b, self.scale, n),
            StateSource::Test { c, s_prime } => playground.test_state(*c, *s_prime, self.scale, n),
        };
        state.unwrap_or_else(|_| vec![0.0; n])
    }

    /// The URL pairs (`ic=…`, and `ic-s=…` unless s = 1).
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let state = match &self.source {
            StateSource::Train { a, b } => format!("train:{},{}", short(*a), short(*b)),
            StateSource::Test { c, s_prime } => format!("test:{},{}", short(*c), short(*s_prime)),
            StateSource::Drawn { coefficients } => {
                // Trailing zero modes are left out.
                let texts: Vec<String> = coefficients.iter().map(|c| short(*c)).collect();
                let keep = texts.iter().rposition(|t| t != "0").map_or(1, |i| i + 1);
                format!("drawn:{}", texts[..keep].join(","))
            }
        };
        let mut pairs = vec![(STATE_KEY, state)];
        if self.scale != 1.0 {
            pairs.push((SCALE_KEY, short(self.scale)));
        }
        pairs
    }

    /// Reads `ic` and `ic-s` values (either may be absent); a bad value is named and the
    /// default used for it.
    pub fn from_query(state: Option<&str>, scale: Option<&str>) -> (Self, Vec<String>) {
        let mut problems = Vec::new();
        let mut out = Self::default();
        if let Some(text) = state {
            match parse_source(text) {
                Ok(source) => out.source = source,
                Err(why) => problems.push(format!(
                    "initial state '{}' {why}: using the default",
                    clip(text)
                )),
            }
        }
        if let Some(text) = scale {
            match text.trim().parse::<f64>() {
                Ok(s) if SCALE_LIMITS.contains(&s) => out.scale = s,
                _ => problems.push(format!(
                    "domain scale '{}' is not a number in {}..={}: using 1",
                    clip(text),
                    SCALE_LIMITS.start(),
                    SCALE_LIMITS.end()
                )),
            }
        }
        (out, problems)
    }
}

/// Parses `train:a,b`, `test:c,s'` or `drawn:a0,a1,b1,…`.
fn parse_source(text: &str) -> Result<StateSource, String> {
    let (kind, rest) = text
        .split_once(':')
        .ok_or("is not 'train:a,b', 'test:c,s' or 'drawn:a0,a1,b1,…'")?;
    let values = numbers(rest)?;
    let pair = |name: &str| -> Result<(f64, f64), String> {
        match values[..] {
            [x, y] => Ok((x, y)),
            _ => Err(format!(
                "needs two coefficients for the {name} family, got {}",
                values.len()
            )),
        }
    };
    match kind {
        "train" => pair("training").map(|(a, b)| StateSource::Train { a, b }),
        "test" => pair("test").map(|(c, s_prime)| StateSource::Test { c, s_prime }),
        "drawn" if values.len() <= 2 * MODES + 1 => Ok(StateSource::Drawn {
            coefficients: values,
        }),
        "drawn" => Err(format!(
            "has {} Fourier coefficients (at most {})",
            values.len(),
            2 * MODES + 1
        )),
        other => Err(format!("names an unknown family '{}'", clip(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::ks::grid::Grid;
    use crate::numerics::ks::initial::train_ic;
    use crate::numerics::system::System;

    fn ks() -> &'static dyn Playground {
        System::Ks
            .description()
            .playground()
            .expect("KS has a playground")
    }

    #[test]
    fn low_modes_round_trip_exactly() {
        let coefficients = vec![0.5, 1.0, -0.25, 0.0, 0.75, 0.125, 0.0];
        let curve = from_modes(&coefficients, 48);
        let back = fourier_modes(&curve, 3);
        for (a, b) in coefficients.iter().zip(&back) {
            assert!((a - b).abs() < 1e-12, "{coefficients:?} vs {back:?}");
        }
    }

    #[test]
    fn a_drawn_state_keeps_its_smooth_part() {
        let samples: Vec<f64> = (0..200)
            .map(|j| (std::f64::consts::TAU * 2.0 * j as f64 / 200.0).sin() * 1.5 + 0.2)
            .collect();
        let state = InitialState::drawn(&samples, 1.2);
        let values = state.values(ks());
        assert_eq!(values.len(), 48);
        let want = (std::f64::consts::TAU * 2.0 * 5.0 / 48.0).sin() * 1.5 + 0.2;
        assert!((values[5] - want).abs() < 0.01, "{} vs {want}", values[5]);
    }

    #[test]
    fn the_url_round_trips_every_source() {
        let states = [
            InitialState::default(),
            InitialState {
                source: StateSource::Test {
                    c: -0.05,
                    s_prime: 1.5,
                },
                scale: 1.4,
            },
            InitialState {
                source: StateSource::Drawn {
                    coefficients: vec![0.0, 1.0, -0.5, 0.0, 0.0],
                },
                scale: 0.85,
            },
        ];
        for state in states {
            let pairs = state.to_query();
            let get = |key| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.as_str())
            };
            let (back, problems) = InitialState::from_query(get(STATE_KEY), get(SCALE_KEY));
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!(back.values(ks()), state.values(ks()));
            assert_eq!(back.scale, state.scale);
        }
        let drawn = InitialState {
            source: StateSource::Drawn {
                coefficients: vec![0.0, 1.0, -0.5, 0.0, 0.0],
            },
            scale: 1.0,
        };
        assert_eq!(drawn.to_query(), vec![(STATE_KEY, "drawn:0,1,-0.5".into())]);
    }

    #[test]
    fn the_training_family_is_the_studys() {
        let grid = Grid::new(48, 8.0).expect("grid");
        let state = InitialState {
            source: StateSource::Train { a: 0.1, b: 0.1 },
            scale: 1.0,
        };
        assert_eq!(state.values(ks()), train_ic(&grid, 0).expect("ic"));
    }

    #[test]
    fn a_stroke_fills_the_samples_between_two_positions() {
        let mut samples = vec![0.0; 10];
        let first = paint(&mut samples, None, (0.05, 0.25), 4.0);
        assert_eq!((first, samples[0]), (0, 2.0));
        let second = paint(&mut samples, Some(first), (0.45, 0.75), 4.0);
        assert_eq!(second, 4);
        assert_eq!(samples[..6], [2.0, 1.0, 0.0, -1.0, -2.0, 0.0]);
        // Backwards, and out of the surface: clamped.
        let third = paint(&mut samples, Some(second), (-1.0, 2.0), 4.0);
        assert_eq!(third, 0);
        assert_eq!(samples[0], -4.0);
        assert_eq!(paint(&mut [], None, (0.5, 0.5), 4.0), 0);
    }

    #[test]
    fn bad_urls_are_worded_and_never_panic() {
        let cases = [
            ("nonsense", "is not 'train:a,b'"),
            ("train:1", "needs two coefficients"),
            ("test:x,1", "'x' is not a number"),
            ("drawn:1e9", "outside ±10"),
            ("drawn:NaN", "outside ±10"),
            ("wave:1,2", "unknown family 'wave'"),
        ];
        for (text, want) in cases {
            let (state, problems) = InitialState::from_query(Some(text), None);
            assert_eq!(state, InitialState::default());
            assert_eq!(problems.len(), 1, "{text}");
            assert!(problems[0].contains(want), "{text}: {}", problems[0]);
        }
        let long = format!("drawn:{}", vec!["1"; 30].join(","));
        assert!(InitialState::from_query(Some(&long), None).1[0].contains("at most 21"));
        let (_, problems) = InitialState::from_query(None, Some("9"));
        assert!(problems[0].contains("domain scale '9'"));
    }
}
