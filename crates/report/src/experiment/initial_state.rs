//! A reader's own initial state for a system's playground: one of its families of initial states
//! with two coefficients, or a drawn curve kept as its lowest Fourier modes, at a value of the
//! playground's parameter (KS: the domain scale `s`, L = 8·s). It lives in the URL
//! (`ic=train:0.1,-0.1`, `ic=drawn:0,0.5,-1.2,…`, `ic-s=1.1`), so a shared link shows the same
//! state; reading never panics and words what is wrong. The families and the parameter are the
//! system's ([`Playground`]).

use unroll_core::system::playground::Playground;

/// URL key of the state.
pub const STATE_KEY: &str = "ic";
/// URL key of its parameter.
pub const SCALE_KEY: &str = "ic-s";
/// Fourier modes kept of a drawn curve: `k = 0..=MODES` (the mean, then cos and sin of each).
pub const MODES: usize = 10;
/// The family menu's value of a drawn state.
pub const DRAWN: &str = "drawn";
/// Largest |coefficient| accepted.
const MAX_COEFFICIENT: f64 = 10.0;

/// Where an initial state comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum StateSource {
    /// One of the playground's families (an index into [`Playground::families`]) with its two
    /// coefficients.
    Family {
        family: usize,
        coefficients: [f64; 2],
    },
    /// A drawn curve: `[a0, a1, b1, a2, b2, …]`, `u_j = a0 + Σ_k a_k cos(2πkj/N) + b_k sin(2πkj/N)`.
    Drawn { coefficients: Vec<f64> },
}

/// An initial state at a value of the playground's parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct InitialState {
    /// The state's recipe.
    pub source: StateSource,
    /// The playground's parameter (KS: the domain scale `s`).
    pub parameter: f64,
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
    /// The playground's first family with its starting coefficients, at the parameter's default.
    pub fn first(playground: &dyn Playground) -> Self {
        Self::of_family(playground, 0, playground.parameter().default)
    }

    /// Family `family` with its starting coefficients at `parameter`.
    pub fn of_family(playground: &dyn Playground, family: usize, parameter: f64) -> Self {
        let coefficients = playground
            .families()
            .get(family)
            .map_or([0.0; 2], |f| f.defaults);
        Self {
            source: StateSource::Family {
                family,
                coefficients,
            },
            parameter,
        }
    }

    /// A drawn state from samples on any number of points, kept as its [`MODES`] lowest modes
    /// (rounded as the URL keeps them).
    pub fn drawn(samples: &[f64], parameter: f64) -> Self {
        let coefficients = fourier_modes(samples, MODES)
            .into_iter()
            .map(|c| short(c).parse().unwrap_or(0.0))
            .collect();
        Self {
            source: StateSource::Drawn { coefficients },
            parameter,
        }
    }

    /// This state turned into the family the menu's `key` names (a family's starting
    /// coefficients, or [`DRAWN`]: the current curve as drawn), at the same parameter.
    pub fn with_family(&self, playground: &dyn Playground, key: &str, samples: usize) -> Self {
        match playground.families().iter().position(|f| f.key == key) {
            Some(family) => Self::of_family(playground, family, self.parameter),
            None => Self::drawn(&self.values_on(playground, samples), self.parameter),
        }
    }

    /// The menu's value of the state's family (`train`, or [`DRAWN`]).
    pub fn family_key(&self, playground: &dyn Playground) -> &'static str {
        match self.source {
            StateSource::Family { family, .. } => {
                playground.families().get(family).map_or(DRAWN, |f| f.key)
            }
            StateSource::Drawn { .. } => DRAWN,
        }
    }

    /// The family's two coefficients with their names (`None` for a drawn state).
    pub fn coefficients(&self, playground: &dyn Playground) -> Option<[(&'static str, f64); 2]> {
        match self.source {
            StateSource::Family {
                family,
                coefficients: [x, y],
            } => {
                let [first, second] = playground.families().get(family)?.names;
                Some([(first, x), (second, y)])
            }
            StateSource::Drawn { .. } => None,
        }
    }

    /// Sets coefficient `which` (0 or 1) of a family's state to the number `text`, or says why
    /// not (a drawn state has none to set).
    pub fn set_coefficient(&mut self, which: usize, text: &str) -> Result<(), String> {
        let value = text
            .trim()
            .parse::<f64>()
            .map_err(|_| "A coefficient must be a number.".to_string())?;
        if !value.is_finite() || value.abs() > MAX_COEFFICIENT {
            return Err(format!("A coefficient must be within ±{MAX_COEFFICIENT}."));
        }
        if let StateSource::Family { coefficients, .. } = &mut self.source {
            if let Some(slot) = coefficients.get_mut(which) {
                *slot = value;
            }
        }
        Ok(())
    }

    /// Sets the parameter to the number `text`, or says why not (outside the playground's
    /// limits).
    pub fn set_parameter(&mut self, playground: &dyn Playground, text: &str) -> Result<(), String> {
        let parameter = playground.parameter();
        match text.trim().parse::<f64>() {
            Ok(value) if parameter.limits.contains(&value) => {
                self.parameter = value;
                Ok(())
            }
            _ => Err(format!(
                "The {} {} must be a number in {}..={}.",
                parameter.noun,
                parameter.symbol,
                parameter.limits.start(),
                parameter.limits.end()
            )),
        }
    }

    /// The state on the playground's grid.
    pub fn values(&self, playground: &dyn Playground) -> Vec<f64> {
        self.values_on(playground, playground.points())
    }

    /// The state on `n` grid points; zeros where the family cannot be built.
    pub fn values_on(&self, playground: &dyn Playground, n: usize) -> Vec<f64> {
        let state = match &self.source {
            StateSource::Drawn { coefficients } => Ok(from_modes(coefficients, n)),
            StateSource::Family {
                family,
                coefficients,
            } => playground.family_state(*family, *coefficients, self.parameter, n),
        };
        state.unwrap_or_else(|_| vec![0.0; n])
    }

    /// The URL pairs (`ic=…`, and `ic-s=…` unless the parameter is the playground's default).
    pub fn to_query(&self, playground: &dyn Playground) -> Vec<(&'static str, String)> {
        let state = match &self.source {
            StateSource::Family {
                coefficients: [x, y],
                ..
            } => format!(
                "{}:{},{}",
                self.family_key(playground),
                short(*x),
                short(*y)
            ),
            StateSource::Drawn { coefficients } => {
                // Trailing zero modes are left out.
                let texts: Vec<String> = coefficients.iter().map(|c| short(*c)).collect();
                let keep = texts.iter().rposition(|t| t != "0").map_or(1, |i| i + 1);
                format!("{DRAWN}:{}", texts[..keep].join(","))
            }
        };
        let mut pairs = vec![(STATE_KEY, state)];
        if self.parameter != playground.parameter().default {
            pairs.push((SCALE_KEY, short(self.parameter)));
        }
        pairs
    }

    /// Reads `ic` and `ic-s` values (either may be absent); a bad value is named and the
    /// playground's first state used for it.
    pub fn from_query(
        playground: &dyn Playground,
        state: Option<&str>,
        parameter: Option<&str>,
    ) -> (Self, Vec<String>) {
        let mut problems = Vec::new();
        let mut out = Self::first(playground);
        if let Some(text) = state {
            match parse_source(playground, text) {
                Ok(source) => out.source = source,
                Err(why) => problems.push(format!(
                    "initial state '{}' {why}: using the default",
                    clip(text)
                )),
            }
        }
        if let Some(text) = parameter {
            if out.set_parameter(playground, text).is_err() {
                let words = playground.parameter();
                problems.push(format!(
                    "{} '{}' is not a number in {}..={}: using {}",
                    words.noun,
                    clip(text),
                    words.limits.start(),
                    words.limits.end(),
                    words.default
                ));
            }
        }
        (out, problems)
    }
}

/// Parses `<family>:x,y` or `drawn:a0,a1,b1,…` for `playground`'s families.
fn parse_source(playground: &dyn Playground, text: &str) -> Result<StateSource, String> {
    let families = playground.families();
    let (kind, rest) = text.split_once(':').ok_or_else(|| {
        let forms: Vec<String> = families
            .iter()
            .map(|f| format!("'{}:{},{}'", f.key, f.names[0], f.names[1]))
            .collect();
        format!("is not {} or '{DRAWN}:a0,a1,b1,…'", forms.join(", "))
    })?;
    let values = numbers(rest)?;
    if let Some(family) = families.iter().position(|f| f.key == kind) {
        return match values[..] {
            [x, y] => Ok(StateSource::Family {
                family,
                coefficients: [x, y],
            }),
            _ => Err(format!(
                "needs two coefficients for the {} family, got {}",
                families[family].key,
                values.len()
            )),
        };
    }
    match kind {
        DRAWN if values.len() <= 2 * MODES + 1 => Ok(StateSource::Drawn {
            coefficients: values,
        }),
        DRAWN => Err(format!(
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
    use unroll_core::system::System;

    /// The first system with a playground.
    fn playground() -> &'static dyn Playground {
        System::ALL
            .into_iter()
            .find_map(|s| s.description().playground())
            .expect("a system has a playground")
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
        let values = state.values(playground());
        let n = playground().points();
        assert_eq!(values.len(), n);
        let want = (std::f64::consts::TAU * 2.0 * 5.0 / n as f64).sin() * 1.5 + 0.2;
        assert!((values[5] - want).abs() < 0.01, "{} vs {want}", values[5]);
    }

    #[test]
    fn the_url_round_trips_every_source() {
        let states = [
            InitialState::first(playground()),
            InitialState {
                source: StateSource::Family {
                    family: 1,
                    coefficients: [-0.05, 1.5],
                },
                parameter: 1.4,
            },
            InitialState {
                source: StateSource::Drawn {
                    coefficients: vec![0.0, 1.0, -0.5, 0.0, 0.0],
                },
                parameter: 0.85,
            },
        ];
        for state in states {
            let pairs = state.to_query(playground());
            let get = |key| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.as_str())
            };
            let (back, problems) =
                InitialState::from_query(playground(), get(STATE_KEY), get(SCALE_KEY));
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!(back.values(playground()), state.values(playground()));
            assert_eq!(back.parameter, state.parameter);
        }
        let drawn = InitialState {
            source: StateSource::Drawn {
                coefficients: vec![0.0, 1.0, -0.5, 0.0, 0.0],
            },
            parameter: 1.0,
        };
        assert_eq!(
            drawn.to_query(playground()),
            vec![(STATE_KEY, "drawn:0,1,-0.5".into())]
        );
    }

    #[test]
    fn a_family_is_picked_set_and_drawn_over() {
        let playground = playground();
        let mut state = InitialState::first(playground);
        let [(first, _), _] = state.coefficients(playground).expect("a family");
        assert_eq!(first, playground.families()[0].names[0]);
        state.set_coefficient(0, "0.3").expect("a number");
        assert_eq!(state.coefficients(playground).expect("family")[0].1, 0.3);
        assert!(state.set_coefficient(1, "x").is_err());
        assert!(state.set_coefficient(1, "11").is_err());
        let key = playground.families()[1].key;
        let other = state.with_family(playground, key, 96);
        assert_eq!(other.family_key(playground), key);
        let drawn = state.with_family(playground, DRAWN, 96);
        assert_eq!(drawn.family_key(playground), DRAWN);
        assert_eq!(drawn.coefficients(playground), None);
        let limits = playground.parameter().limits;
        assert!(state
            .set_parameter(playground, &limits.end().to_string())
            .is_ok());
        assert_eq!(state.parameter, *limits.end());
        let far = (limits.end() + 1.0).to_string();
        assert!(state.set_parameter(playground, &far).is_err());
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
            let (state, problems) = InitialState::from_query(playground(), Some(text), None);
            assert_eq!(state, InitialState::first(playground()));
            assert_eq!(problems.len(), 1, "{text}");
            assert!(problems[0].contains(want), "{text}: {}", problems[0]);
        }
        let long = format!("drawn:{}", vec!["1"; 30].join(","));
        assert!(
            InitialState::from_query(playground(), Some(&long), None).1[0].contains("at most 21")
        );
        let (_, problems) = InitialState::from_query(playground(), None, Some("9"));
        assert!(problems[0].contains("domain scale '9'"));
    }
}
