//! The browser's experiment: every knob the panel exposes — system, study preset, modes,
//! modalities, network (architecture, channels, depth), unroll (horizon m, warm-up, detach
//! interval), α of the transition mode, learning rate, iterations, seeds, training domain sizes
//! and the evaluation rollout — validated per field, encoded in the URL query with defaults
//! omitted (`?preset=horizons&modes=correct&m=4&lr=0.002`), turned into the [`StudyConfig`] the
//! CLI would run and into the equivalent, runnable `unroll-lab study …` command, with the
//! [`Workload`] (trainings, iterations, counted FLOPs, memory, time) shown before running.
//!
//! A preset sets the grid axis (network sizes for `sizes`, unroll horizons for `horizons`) and
//! the defaults of every field (the modes and modalities of its grid, the `quick` training
//! settings); the fields override the preset's base training config. In the `sizes` preset the
//! channels/depth fields do not apply (the preset's size list replaces them), in `horizons` the
//! m field does not apply (the horizon list replaces it).

use serde::{Deserialize, Serialize};

use crate::numerics::backend;
use crate::numerics::ks::{Precision, TensorSolver};
use crate::numerics::metrics::{ERROR_HORIZON, STABILITY_HORIZON};
use crate::numerics::nets::{Architecture, NetConfig};
use crate::numerics::study::runner::RESOLUTION;
use crate::numerics::study::{EvalConfig, NetSize, StudyConfig, StudyPreset};
use crate::numerics::train::flops::flops_per_iteration;
use crate::numerics::train::mode::mode_solver;
use crate::numerics::train::preset::{deviations, paper};
use crate::numerics::train::{Modality, Mode, TrainConfig};

/// The simulated system. Only Kuramoto–Sivashinsky for now; the menu leaves room for more
/// (see [`COMING_SYSTEMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum System {
    /// The 1-D Kuramoto–Sivashinsky equation of the study.
    Ks,
}

impl System {
    /// Every available system, default first.
    pub const ALL: [System; 1] = [System::Ks];

    /// URL name (`ks`).
    pub fn name(self) -> &'static str {
        match self {
            System::Ks => "ks",
        }
    }

    /// Menu title.
    pub fn title(self) -> &'static str {
        match self {
            System::Ks => "Kuramoto–Sivashinsky",
        }
    }

    /// Parses [`System::name`].
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Systems listed in the menu but not selectable yet: `(URL name, menu title)`.
pub const COMING_SYSTEMS: [(&str, &str); 1] = [("kolmogorov", "Kolmogorov flow (coming)")];

/// The panel's presets, the first being the default on page load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BrowserPreset {
    /// Correction vs prediction (paper headline): P/C × ONE/NOG/WIG.
    Headline,
    /// Network size (convergence).
    Sizes,
    /// Unroll length.
    Horizons,
}

impl BrowserPreset {
    /// Every preset, default first.
    pub const ALL: [BrowserPreset; 3] = [
        BrowserPreset::Headline,
        BrowserPreset::Sizes,
        BrowserPreset::Horizons,
    ];

    /// URL name.
    pub fn name(self) -> &'static str {
        match self {
            BrowserPreset::Headline => "headline",
            BrowserPreset::Sizes => "sizes",
            BrowserPreset::Horizons => "horizons",
        }
    }

    /// Menu title.
    pub fn title(self) -> &'static str {
        match self {
            BrowserPreset::Headline => "Correction vs prediction (paper headline)",
            BrowserPreset::Sizes => "Network size (convergence)",
            BrowserPreset::Horizons => "Unroll length",
        }
    }

    /// The study preset it runs.
    pub fn study(self) -> StudyPreset {
        match self {
            BrowserPreset::Headline => StudyPreset::Quick,
            BrowserPreset::Sizes => StudyPreset::Sizes,
            BrowserPreset::Horizons => StudyPreset::Horizons,
        }
    }

    /// Parses [`BrowserPreset::name`].
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The network sizes of the grid when the preset fixes them (`sizes`), else `None`.
    pub fn sizes(self) -> Option<Vec<NetSize>> {
        (self == BrowserPreset::Sizes).then(|| self.study().config(1).sizes)
    }

    /// The unroll horizons of the grid when the preset fixes them (`horizons`), else `None`.
    pub fn horizons(self) -> Option<Vec<usize>> {
        (self == BrowserPreset::Horizons).then(|| self.study().config(1).horizons)
    }
}

/// Default iterations per variant in the browser (CPU backend in wasm).
pub const BROWSER_ITERATIONS: usize = 300;
/// Largest accepted iterations per variant in the browser.
pub const MAX_BROWSER_ITERATIONS: usize = 20_000;
/// Largest accepted seeds in the browser.
pub const MAX_BROWSER_SEEDS: usize = 5;
/// Longest accepted evaluation rollout.
pub const MAX_ROLLOUT: usize = 5000;
/// Largest accepted channels C in the browser.
pub const MAX_CHANNELS: usize = 64;
/// Largest accepted depth D (residual blocks) in the browser.
pub const MAX_DEPTH: usize = 16;
/// Largest accepted unroll horizon m in the browser.
pub const MAX_HORIZON: usize = 32;
/// Largest accepted warm-up steps in the browser.
pub const MAX_WARMUP: usize = 32;
/// Largest accepted detach interval in the browser (0 = never cut).
pub const MAX_DETACH: usize = 32;
/// Most training domain sizes in the browser.
pub const MAX_SCALES: usize = 8;
/// Smallest accepted training domain scale `s` (L = 8·s).
pub const MIN_SCALE: f64 = 0.5;
/// Largest accepted training domain scale `s` (L = 8·s).
pub const MAX_SCALE: f64 = 2.0;
/// Estimated memory above which the browser refuses to run (1.5 GiB).
pub const MEMORY_LIMIT_BYTES: f64 = 1.5 * GIB;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// What the panel runs. Field names in the URL and the messages: `system`, `preset`, `modes`,
/// `modalities`, `arch`, `channels`, `depth`, `m`, `warmup`, `detach`, `alpha`, `lr`, `scales`,
/// `seeds`, `iterations`, `rollout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    /// The simulated system.
    pub system: System,
    /// The grid.
    pub preset: BrowserPreset,
    /// Simulation modes (in the order they are run).
    pub modes: Vec<Mode>,
    /// Training modalities (in the order they are run).
    pub modalities: Vec<Modality>,
    /// Network architecture.
    pub architecture: Architecture,
    /// Channels C (not used by the `sizes` preset).
    pub channels: usize,
    /// Residual blocks D (not used by the `sizes` preset).
    pub depth: usize,
    /// Unroll horizon m (not used by the `horizons` preset).
    pub horizon: usize,
    /// Warm-up steps w (detached, outside the loss).
    pub warmup: usize,
    /// Detach interval k of WIG (0 = never cut).
    pub detach: usize,
    /// α of the transition mode (used only when transition is selected).
    pub alpha: f64,
    /// Initial learning rate.
    pub learning_rate: f64,
    /// Seeds per variant.
    pub seeds: usize,
    /// Training iterations per variant.
    pub iterations: usize,
    /// Rollout length of the correlation-time and stability evaluation (the study: 750).
    pub rollout: usize,
    /// Training domain scales `s` (L = 8·s).
    pub scales: Vec<f64>,
}

impl Default for Experiment {
    fn default() -> Self {
        Self::for_preset(BrowserPreset::Headline)
    }
}

/// A problem with one field: `(field, message)`; `field` is the URL name (or `workload`).
pub type FieldError = (&'static str, String);

/// The integer fields: `(URL name, smallest, largest, unit in messages)`.
const COUNTS: [(&str, usize, usize, &str); 8] = [
    ("channels", 1, MAX_CHANNELS, "channels"),
    ("depth", 0, MAX_DEPTH, "residual blocks"),
    ("m", 1, MAX_HORIZON, "loss steps"),
    ("warmup", 0, MAX_WARMUP, "warm-up steps"),
    ("detach", 0, MAX_DETACH, "steps (0 = never cut)"),
    ("seeds", 1, MAX_BROWSER_SEEDS, "seeds"),
    (
        "iterations",
        1,
        MAX_BROWSER_ITERATIONS,
        "iterations per variant",
    ),
    ("rollout", ERROR_HORIZON, MAX_ROLLOUT, "steps"),
];

/// `(smallest, largest, unit)` of the integer field `key`.
fn count_limits(key: &str) -> Option<(usize, usize, &'static str)> {
    COUNTS
        .iter()
        .find(|(name, ..)| *name == key)
        .map(|&(_, low, high, unit)| (low, high, unit))
}

/// Checks α (transition mode): `[0, 1)`.
fn check_alpha(alpha: f64) -> Result<(), String> {
    if alpha.is_finite() && (0.0..1.0).contains(&alpha) {
        Ok(())
    } else {
        Err("α must be in [0, 1) (at α = 1 the network term vanishes)".into())
    }
}

/// Checks the learning rate: `(0, 1]`.
fn check_learning_rate(lr: f64) -> Result<(), String> {
    if lr.is_finite() && lr > 0.0 && lr <= 1.0 {
        Ok(())
    } else {
        Err("a learning rate in (0, 1], e.g. 0.001".into())
    }
}

/// Checks the training domain scales: 1 to [`MAX_SCALES`] distinct values in
/// [`MIN_SCALE`]..=[`MAX_SCALE`].
fn check_scales(scales: &[f64]) -> Result<(), String> {
    if scales.is_empty() {
        return Err("at least one training domain size".into());
    }
    if scales.len() > MAX_SCALES {
        return Err(format!("at most {MAX_SCALES} training domain sizes"));
    }
    if let Some(bad) = scales
        .iter()
        .find(|s| !(s.is_finite() && (MIN_SCALE..=MAX_SCALE).contains(*s)))
    {
        return Err(format!(
            "domain scale {bad} is outside {MIN_SCALE}..={MAX_SCALE}"
        ));
    }
    if let Some((_, s)) = scales
        .iter()
        .enumerate()
        .find(|(i, s)| scales[..*i].contains(s))
    {
        return Err(format!("domain scale {s} is listed twice"));
    }
    Ok(())
}

/// Names joined by commas (URL, CLI).
fn join_names<T: Copy>(items: &[T], name: fn(T) -> &'static str) -> String {
    items.iter().map(|&i| name(i)).collect::<Vec<_>>().join(",")
}

fn join_numbers(values: &[f64]) -> String {
    values
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses a comma-separated list of names; the problem otherwise.
fn parse_names<T: Copy + PartialEq>(
    value: &str,
    parse: fn(&str) -> Option<T>,
    name: fn(T) -> &'static str,
    what: &str,
    expected: &str,
) -> Result<Vec<T>, String> {
    if value.trim().is_empty() {
        return Err("is an empty list".into());
    }
    let mut out: Vec<T> = Vec::new();
    for token in value.split(',').map(str::trim) {
        let item = parse(token).ok_or_else(|| {
            let shown: String = token.chars().take(40).collect();
            format!("names an unknown {what} '{shown}' (expected {expected})")
        })?;
        if out.contains(&item) {
            return Err(format!("lists {} twice", name(item)));
        }
        out.push(item);
    }
    Ok(out)
}

/// The cost of a study before it runs. See [`Experiment::workload`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Workload {
    /// Trainings (variants × seeds).
    pub trainings: usize,
    /// Training iterations in all.
    pub iterations: usize,
    /// Counted FLOPs of every training iteration ([`flops_per_iteration`]).
    pub training_flops: f64,
    /// Counted FLOPs of the evaluation rollouts (network forward + solver per step, per test).
    pub evaluation_flops: f64,
    /// Estimated peak memory in bytes (see [`Experiment::memory_bytes`]).
    pub memory_bytes: f64,
}

impl Workload {
    /// Counted FLOPs in all.
    pub fn flops(&self) -> f64 {
        self.training_flops + self.evaluation_flops
    }

    /// Estimated seconds at `flop_rate` FLOP/s (the browser measures it, see
    /// `ui::calibration`); `None` before the rate is known.
    pub fn seconds(&self, flop_rate: Option<f64>) -> Option<f64> {
        flop_rate
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|rate| self.flops() / rate)
    }

    /// One line for the panel: trainings, iterations, FLOPs, memory and time.
    pub fn summary(&self, flop_rate: Option<f64>) -> String {
        let time = match (self.seconds(flop_rate), flop_rate) {
            (Some(seconds), Some(rate)) => format!(
                "≈ {} at the measured {}/s",
                format_seconds(seconds),
                format_flops(rate)
            ),
            _ => "time estimate after calibration".to_string(),
        };
        format!(
            "{} trainings, {} iterations in all; {} counted ({} training, {} evaluation); \
             memory ≈ {}; {time}.",
            self.trainings,
            self.iterations,
            format_flops(self.flops()),
            format_flops(self.training_flops),
            format_flops(self.evaluation_flops),
            format_bytes(self.memory_bytes),
        )
    }
}

/// `3.2 GFLOP`.
pub fn format_flops(flops: f64) -> String {
    let units = [
        (1e15, "PFLOP"),
        (1e12, "TFLOP"),
        (1e9, "GFLOP"),
        (1e6, "MFLOP"),
        (1e3, "kFLOP"),
    ];
    for (scale, unit) in units {
        if flops >= scale {
            return format!("{:.1} {unit}", flops / scale);
        }
    }
    format!("{flops:.0} FLOP")
}

/// `412 MiB`, `1.6 GiB`.
pub fn format_bytes(bytes: f64) -> String {
    if bytes >= GIB {
        format!("{:.2} GiB", bytes / GIB)
    } else {
        format!("{:.0} MiB", (bytes / (1024.0 * 1024.0)).max(1.0))
    }
}

/// `45 s`, `12 min`, `3.5 h`.
pub fn format_seconds(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else if seconds < 90.0 * 60.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// Floats of every intermediate tensor of one forward pass of `net` on one sample of
/// `resolution` points (what autodiff keeps for the backward pass):
/// ResNet1D `(7D + 3)·C·N + 3N` (per block two padded inputs, two conv outputs, the inner
/// activation, the skip sum and the outer activation; stem and head around them),
/// GCN `(28C + 6)·D·N + (13C + 25)·N` (per edge convolution the three edge features
/// `[x_i, x_j − x_i, sign]`, the messages before and after the activation and their mean).
pub fn activation_floats_per_sample(net: &NetConfig, resolution: usize) -> f64 {
    let (c, d, n) = (net.channels as f64, net.depth as f64, resolution as f64);
    match net.architecture {
        Architecture::Resnet => (7.0 * d + 3.0) * c * n + 3.0 * n,
        Architecture::Gcn => (28.0 * c + 6.0) * d * n + (13.0 * c + 25.0) * n,
    }
}

/// Counted FLOPs of one learned solver step of `mode` for `batch` rows (0 without a solver).
fn solver_flops_per_step(mode: Mode, alpha: f64, batch: usize) -> f64 {
    mode_solver(mode, alpha, 1.0, RESOLUTION)
        .and_then(|ks| TensorSolver::new(ks, &backend::cpu(), Precision::F32).ok())
        .map_or(0.0, |solver| solver.flops_per_step(batch))
}

/// Counted FLOPs of evaluating one trained `variant`: every test size's rollout of
/// `rollout_steps` steps, batched over its tests (network forward + solver per step).
fn evaluation_flops(variant: &TrainConfig, eval: &EvalConfig) -> f64 {
    let tests = eval.tests_per_size;
    let net = variant.net.flops_per_sample(RESOLUTION) * tests as f64;
    let solver = solver_flops_per_step(variant.mode, variant.alpha, tests);
    (eval.scales.len() * eval.rollout_steps) as f64 * (net + solver)
}

impl Experiment {
    /// The defaults of `preset`: its grid's modes and modalities, its base training config's
    /// network, unroll, α, learning rate and domain sizes; 1 seed, [`BROWSER_ITERATIONS`], the
    /// study's rollout.
    pub fn for_preset(preset: BrowserPreset) -> Self {
        let config = preset.study().config(1);
        let base = &config.base;
        Self {
            system: System::Ks,
            preset,
            modes: config.modes.clone(),
            modalities: config.modalities.clone(),
            architecture: base.net.architecture,
            channels: base.net.channels,
            depth: base.net.depth,
            horizon: base.unroll.horizon,
            warmup: base.unroll.warmup,
            detach: base.unroll.detach_interval,
            alpha: base.alpha,
            learning_rate: base.optimizer.learning_rate,
            seeds: 1,
            iterations: BROWSER_ITERATIONS,
            rollout: STABILITY_HORIZON,
            scales: base.data.scales.clone(),
        }
    }

    /// Switches the preset: its grid's modes and modalities replace the current ones, every
    /// other field is kept.
    pub fn set_preset(&mut self, preset: BrowserPreset) {
        let defaults = Self::for_preset(preset);
        self.preset = preset;
        self.modes = defaults.modes;
        self.modalities = defaults.modalities;
    }

    /// Selects or deselects `mode` (the selection stays in the order predict, correct,
    /// transition).
    pub fn toggle_mode(&mut self, mode: Mode) {
        let on = !self.modes.contains(&mode);
        self.modes = Mode::ALL
            .into_iter()
            .filter(|&m| {
                if m == mode {
                    on
                } else {
                    self.modes.contains(&m)
                }
            })
            .collect();
    }

    /// Selects or deselects `modality` (in the order ONE, NOG, WIG).
    pub fn toggle_modality(&mut self, modality: Modality) {
        let on = !self.modalities.contains(&modality);
        self.modalities = Modality::ALL
            .into_iter()
            .filter(|&m| {
                if m == modality {
                    on
                } else {
                    self.modalities.contains(&m)
                }
            })
            .collect();
    }

    /// True when the channels/depth fields are used (every preset but `sizes`).
    pub fn uses_net_size(&self) -> bool {
        self.preset != BrowserPreset::Sizes
    }

    /// True when the m field is used (every preset but `horizons`).
    pub fn uses_horizon(&self) -> bool {
        self.preset != BrowserPreset::Horizons
    }

    /// True when α is used (transition selected).
    pub fn uses_alpha(&self) -> bool {
        self.modes.contains(&Mode::Transition)
    }

    /// The value of the integer field `key` (a [`COUNTS`] name).
    fn count(&self, key: &str) -> usize {
        match key {
            "channels" => self.channels,
            "depth" => self.depth,
            "m" => self.horizon,
            "warmup" => self.warmup,
            "detach" => self.detach,
            "seeds" => self.seeds,
            "iterations" => self.iterations,
            _ => self.rollout,
        }
    }

    fn set_count(&mut self, key: &str, value: usize) {
        let field = match key {
            "channels" => &mut self.channels,
            "depth" => &mut self.depth,
            "m" => &mut self.horizon,
            "warmup" => &mut self.warmup,
            "detach" => &mut self.detach,
            "seeds" => &mut self.seeds,
            "iterations" => &mut self.iterations,
            _ => &mut self.rollout,
        };
        *field = value;
    }

    /// Every field's problem except the workload's, in form order.
    fn field_errors(&self) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.modes.is_empty() {
            errors.push(("modes", "select at least one mode".to_string()));
        }
        if self.modalities.is_empty() {
            errors.push(("modalities", "select at least one modality".to_string()));
        }
        for (key, low, high, unit) in COUNTS {
            let applies = match key {
                "channels" | "depth" => self.uses_net_size(),
                "m" => self.uses_horizon(),
                _ => true,
            };
            if applies && !(low..=high).contains(&self.count(key)) {
                errors.push((key, format!("between {low} and {high} {unit}")));
            }
            if key == "detach" {
                // Form order: α and the learning rate follow the unroll.
                if self.uses_alpha() {
                    if let Err(message) = check_alpha(self.alpha) {
                        errors.push(("alpha", message));
                    }
                }
                if let Err(message) = check_learning_rate(self.learning_rate) {
                    errors.push(("lr", message));
                }
                if let Err(message) = check_scales(&self.scales) {
                    errors.push(("scales", message));
                }
            }
        }
        errors
    }

    /// Every field's problem (empty when valid), `(URL name, message)` in form order; the last
    /// may be `workload` when the estimated memory exceeds [`MEMORY_LIMIT_BYTES`].
    pub fn validate(&self) -> Vec<FieldError> {
        let mut errors = self.field_errors();
        if errors.is_empty() {
            let memory = self.memory_bytes();
            if memory > MEMORY_LIMIT_BYTES {
                errors.push((
                    "workload",
                    format!(
                        "estimated memory {} exceeds the browser limit of {}: use a smaller \
                         network, horizon, warm-up or rollout (or run it from the CLI)",
                        format_bytes(memory),
                        format_bytes(MEMORY_LIMIT_BYTES)
                    ),
                ));
            }
        }
        errors
    }

    /// The message of `field`, empty when it is valid.
    pub fn error_of(&self, field: &str) -> String {
        self.validate()
            .into_iter()
            .find(|(f, _)| *f == field)
            .map(|(_, message)| message)
            .unwrap_or_default()
    }

    /// The parameter count of the network the fields describe; `None` while channels or depth
    /// is out of range (or the `sizes` preset replaces them).
    pub fn parameter_count(&self) -> Option<usize> {
        let ok = |key: &str| {
            count_limits(key).is_some_and(|(low, high, _)| (low..=high).contains(&self.count(key)))
        };
        (self.uses_net_size() && ok("channels") && ok("depth")).then(|| {
            NetConfig {
                architecture: self.architecture,
                channels: self.channels,
                depth: self.depth,
            }
            .parameter_count()
        })
    }

    /// The preset's network sizes with their parameter counts at the selected architecture
    /// (`sizes` preset; empty otherwise).
    pub fn preset_sizes(&self) -> Vec<(NetSize, usize)> {
        self.preset
            .sizes()
            .unwrap_or_default()
            .into_iter()
            .map(|size| {
                let params = NetConfig {
                    architecture: self.architecture,
                    channels: size.channels,
                    depth: size.depth,
                }
                .parameter_count();
                (size, params)
            })
            .collect()
    }

    /// The study it runs: the preset's grid, with the fields overriding the base config (and
    /// the grid's single size / horizon where the preset does not fix them). α stays the
    /// preset's unless transition is selected. (Seeds beyond [`MAX_BROWSER_SEEDS`] are cut
    /// there, so an invalid entry never builds a huge seed list: check [`Self::validate`].)
    pub fn study_config(&self) -> StudyConfig {
        let mut config = self
            .preset
            .study()
            .config(self.seeds.min(MAX_BROWSER_SEEDS));
        config.modes = self.modes.clone();
        config.modalities = self.modalities.clone();
        let base = &mut config.base;
        base.net.architecture = self.architecture;
        if self.uses_net_size() {
            base.net.channels = self.channels;
            base.net.depth = self.depth;
            config.sizes = vec![NetSize {
                channels: self.channels,
                depth: self.depth,
            }];
        }
        if self.uses_horizon() {
            base.unroll.horizon = self.horizon;
            config.horizons = vec![self.horizon];
        }
        base.unroll.warmup = self.warmup;
        base.unroll.detach_interval = self.detach;
        if self.uses_alpha() {
            base.alpha = self.alpha;
        }
        base.optimizer.learning_rate = self.learning_rate;
        base.data.scales = self.scales.clone();
        base.iterations = self.iterations;
        config.eval.rollout_steps = self.rollout;
        config
    }

    /// Estimated peak memory of the run in bytes (f32 = 4 bytes, f64 = 8). Variants train one
    /// after the other, so the per-training terms are the largest variant's:
    ///
    /// ```text
    ///   8 · S·6·F·N                 training data (f32): the study's host copy + the trainer's device copy
    /// + 8 · S_t·T·(R+1)·N           test ground truth (f64)
    /// + 16 · T·(R+1)·N              one test size's rollout: f32 states on the device, f32 readback, f64 copy
    /// + max over variants of
    ///     16 · P                    parameters, gradients and Adam's two moments (f32)
    ///   + 4 · B·m·a(net)            the unrolled activations of one iteration: every loss step's network
    ///                               intermediates (a = activation_floats_per_sample), kept for the backward
    ///                               pass; warm-up steps are detached and freed, so they do not add up
    ///   + 4 · B·m·8K·N              WIG only: the solver's intermediates (K sub-steps) kept for the backward
    ///   + 4 · B·(w+m+1)·N           the gathered minibatch windows
    /// ```
    ///
    /// S = training sizes, F = frames per trajectory, N = grid points, S_t = test sizes,
    /// T = tests per size, R = rollout steps, P = parameters, B = effective batch (ONE: batch·m),
    /// m = effective horizon (ONE: 1), w = warm-up. Allocator and autodiff bookkeeping are not
    /// counted.
    pub fn memory_bytes(&self) -> f64 {
        let config = self.study_config();
        let n = RESOLUTION as f64;
        let data = config.base.data.scales.len() as f64 * 6.0 * config.base.data.frames as f64 * n;
        let eval = &config.eval;
        let rollout_values = eval.tests_per_size as f64 * (eval.rollout_steps + 1) as f64 * n;
        let shared =
            8.0 * data + 8.0 * eval.scales.len() as f64 * rollout_values + 16.0 * rollout_values;
        let per_training = config
            .variants()
            .iter()
            .map(|variant| {
                let batch = variant.effective_batch() as f64;
                let unroll = variant.effective_unroll();
                let m = unroll.horizon as f64;
                let params = 16.0 * variant.net.parameter_count() as f64;
                let activations =
                    4.0 * batch * m * activation_floats_per_sample(&variant.net, RESOLUTION);
                let substeps = mode_solver(variant.mode, variant.alpha, 1.0, RESOLUTION)
                    .map_or(0.0, |ks| ks.substeps as f64);
                let solver = match variant.modality {
                    Modality::Wig => 4.0 * batch * m * 8.0 * substeps * n,
                    _ => 0.0,
                };
                let windows = 4.0 * batch * (unroll.warmup + unroll.horizon + 1) as f64 * n;
                params + activations + solver + windows
            })
            .fold(0.0, f64::max);
        shared + per_training
    }

    /// Trainings, iterations, counted FLOPs and memory; `None` while a field is invalid. The
    /// FLOPs are training ([`flops_per_iteration`]: network forward per call ×
    /// `network_calls_per_iteration`, backward ≈ 2× forward, solver, loss, Adam) plus the
    /// evaluation rollouts (per test size, `rollout` steps of network forward + solver over
    /// its tests); data generation (f64 reference solver) is not counted.
    pub fn workload(&self) -> Option<Workload> {
        if !self.field_errors().is_empty() {
            return None;
        }
        let config = self.study_config();
        let seeds = config.seeds.len();
        let mut workload = Workload {
            trainings: 0,
            iterations: 0,
            training_flops: 0.0,
            evaluation_flops: 0.0,
            memory_bytes: self.memory_bytes(),
        };
        for variant in config.variants() {
            workload.trainings += seeds;
            workload.iterations += seeds * variant.iterations;
            workload.training_flops +=
                (seeds * variant.iterations) as f64 * flops_per_iteration(&variant, RESOLUTION);
            workload.evaluation_flops += seeds as f64 * evaluation_flops(&variant, &config.eval);
        }
        Some(workload)
    }

    /// Every deviation from the study, for the label next to the Run button.
    pub fn deviations(&self) -> Vec<String> {
        let study = paper(Mode::Correct, Modality::Wig);
        let config = self.study_config();
        let mut out = vec![format!(
            "iterations {} per variant (study: {})",
            self.iterations, study.iterations
        )];
        if self.rollout != STABILITY_HORIZON {
            out.push(format!(
                "evaluation rollout {} steps (study: {STABILITY_HORIZON})",
                self.rollout
            ));
        }
        out.extend(
            deviations(&config.base, &study)
                .into_iter()
                .filter(|d| !d.starts_with("iterations")),
        );
        let defaults = Self::for_preset(self.preset);
        if self.modes != defaults.modes {
            out.push(format!(
                "modes {} (preset: {})",
                join_names(&self.modes, Mode::name),
                join_names(&defaults.modes, Mode::name)
            ));
        }
        if self.modalities != defaults.modalities {
            out.push(format!(
                "modalities {} (preset: {})",
                join_names(&self.modalities, Modality::name),
                join_names(&defaults.modalities, Modality::name)
            ));
        }
        if self.uses_alpha() && self.alpha != defaults.alpha {
            out.push(format!(
                "transition α {} (default {})",
                self.alpha, defaults.alpha
            ));
        }
        out
    }

    /// The same study from the command line: `unroll-lab study` with the preset, seeds and
    /// iterations, and a flag for every other field that differs from the preset's default.
    /// Running it writes a results file whose `config` equals [`Experiment::study_config`].
    pub fn cli_command(&self) -> String {
        let defaults = Self::for_preset(self.preset);
        let mut command = format!(
            "unroll-lab study --preset {} --seeds {} --iterations {}",
            self.preset.study().name(),
            self.seeds,
            self.iterations
        );
        let mut flag = |name: &str, value: String| command.push_str(&format!(" --{name} {value}"));
        if self.system != defaults.system {
            flag("system", self.system.name().to_string());
        }
        if self.rollout != defaults.rollout {
            flag("rollout", self.rollout.to_string());
        }
        if self.modes != defaults.modes {
            flag("modes", join_names(&self.modes, Mode::name));
        }
        if self.modalities != defaults.modalities {
            flag("modalities", join_names(&self.modalities, Modality::name));
        }
        if self.architecture != defaults.architecture {
            flag("architecture", self.architecture.name().to_string());
        }
        if self.uses_net_size() {
            if self.channels != defaults.channels {
                flag("channels", self.channels.to_string());
            }
            if self.depth != defaults.depth {
                flag("depth", self.depth.to_string());
            }
        }
        if self.uses_horizon() && self.horizon != defaults.horizon {
            flag("horizon", self.horizon.to_string());
        }
        if self.warmup != defaults.warmup {
            flag("warmup", self.warmup.to_string());
        }
        if self.detach != defaults.detach {
            flag("detach-interval", self.detach.to_string());
        }
        if self.uses_alpha() && self.alpha != defaults.alpha {
            flag("alpha", self.alpha.to_string());
        }
        if self.learning_rate != defaults.learning_rate {
            flag("learning-rate", self.learning_rate.to_string());
        }
        if self.scales != defaults.scales {
            flag("scales", join_numbers(&self.scales));
        }
        command
    }

    /// The URL query (without `?`): every field that differs from its default (the preset's
    /// defaults for the fields a preset sets), in form order; empty for the default experiment.
    pub fn to_query(&self) -> String {
        let defaults = Self::for_preset(self.preset);
        let mut parts: Vec<String> = Vec::new();
        let mut push = |key: &str, value: String, default: String| {
            if value != default {
                parts.push(format!("{key}={value}"));
            }
        };
        push(
            "system",
            self.system.name().into(),
            System::Ks.name().into(),
        );
        push(
            "preset",
            self.preset.name().into(),
            BrowserPreset::Headline.name().into(),
        );
        push(
            "modes",
            join_names(&self.modes, Mode::name),
            join_names(&defaults.modes, Mode::name),
        );
        push(
            "modalities",
            join_names(&self.modalities, Modality::name),
            join_names(&defaults.modalities, Modality::name),
        );
        push(
            "arch",
            self.architecture.name().into(),
            defaults.architecture.name().into(),
        );
        for &(key, ..) in COUNTS.iter().take(5) {
            push(
                key,
                self.count(key).to_string(),
                defaults.count(key).to_string(),
            );
        }
        push("alpha", self.alpha.to_string(), defaults.alpha.to_string());
        push(
            "lr",
            self.learning_rate.to_string(),
            defaults.learning_rate.to_string(),
        );
        push(
            "scales",
            join_numbers(&self.scales),
            join_numbers(&defaults.scales),
        );
        for &(key, ..) in COUNTS.iter().skip(5) {
            push(
                key,
                self.count(key).to_string(),
                defaults.count(key).to_string(),
            );
        }
        parts.join("&")
    }

    /// Sets field `key` from its URL text; the problem (to be shown after `key 'value'`)
    /// otherwise, the field unchanged. `Ok(false)` for an unknown key.
    fn set_from_query(&mut self, key: &str, value: &str) -> Result<bool, String> {
        if let Some((low, high, _)) = count_limits(key) {
            let v = value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|v| (low..=high).contains(v))
                .ok_or_else(|| format!("is not a number in {low}..={high}"))?;
            self.set_count(key, v);
            return Ok(true);
        }
        match key {
            "system" => {
                self.system = System::parse(value).ok_or_else(|| {
                    if COMING_SYSTEMS.iter().any(|(name, _)| *name == value) {
                        "is not available yet".to_string()
                    } else {
                        "is unknown (expected ks)".to_string()
                    }
                })?;
            }
            "modes" => {
                self.modes = parse_names(
                    value,
                    Mode::parse,
                    Mode::name,
                    "mode",
                    "predict, correct or transition",
                )?;
            }
            "modalities" => {
                self.modalities = parse_names(
                    value,
                    Modality::parse,
                    Modality::name,
                    "modality",
                    "one, nog or wig",
                )?;
            }
            "arch" => {
                self.architecture = Architecture::parse(value)
                    .ok_or_else(|| "is unknown (expected resnet or gcn)".to_string())?;
            }
            "alpha" => {
                self.alpha = value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|&a| check_alpha(a).is_ok())
                    .ok_or_else(|| "is not a number in [0, 1)".to_string())?;
            }
            "lr" => {
                self.learning_rate = value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|&lr| check_learning_rate(lr).is_ok())
                    .ok_or_else(|| "is not a number in (0, 1]".to_string())?;
            }
            "scales" => {
                if value.trim().is_empty() {
                    return Err("is an empty list".into());
                }
                let scales = value
                    .split(',')
                    .map(|s| s.trim().parse::<f64>())
                    .collect::<Result<Vec<f64>, _>>()
                    .map_err(|_| "is not a comma-separated list of numbers".to_string())?;
                check_scales(&scales).map_err(|message| format!("is invalid ({message})"))?;
                self.scales = scales;
            }
            // Read by `platform` (the compute device), not part of the experiment.
            "device" => {}
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Reads a URL query (with or without `?`, percent-decoded). Never panics: every unknown
    /// key, repeated key, bad number, unknown name, empty list and out-of-range value is named
    /// in a message and its default is used. The preset is read first (it sets the defaults).
    pub fn from_query(query: &str) -> (Self, Vec<String>) {
        let pairs: Vec<(String, String)> = query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let decode = |s: &str| -> String {
                    percent_encoding::percent_decode_str(s)
                        .decode_utf8_lossy()
                        .into()
                };
                (decode(key), decode(value))
            })
            .collect();
        let clip = |s: &str| -> String { s.chars().take(40).collect() };
        let mut ignored = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (key, _) in &pairs {
            if seen.contains(&key.as_str()) {
                let message = format!(
                    "parameter '{}' is given more than once: using the last",
                    clip(key)
                );
                if !ignored.contains(&message) {
                    ignored.push(message);
                }
            } else {
                seen.push(key.as_str());
            }
        }
        let mut preset = BrowserPreset::Headline;
        for (_, value) in pairs.iter().filter(|(key, _)| key == "preset") {
            match BrowserPreset::parse(value) {
                Some(p) => preset = p,
                None => ignored.push(format!(
                    "preset '{}' is unknown: using the default",
                    clip(value)
                )),
            }
        }
        let mut experiment = Self::for_preset(preset);
        for (key, value) in pairs.iter().filter(|(key, _)| key != "preset") {
            match experiment.set_from_query(key, value) {
                Ok(true) => {}
                Ok(false) => ignored.push(format!("unknown parameter '{}' ignored", clip(key))),
                Err(problem) => ignored.push(format!(
                    "{key} '{}' {problem}: using the default",
                    clip(value)
                )),
            }
        }
        (experiment, ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field differs from the headline defaults.
    fn custom() -> Experiment {
        Experiment {
            system: System::Ks,
            preset: BrowserPreset::Headline,
            modes: vec![Mode::Correct, Mode::Transition],
            modalities: vec![Modality::Nog, Modality::Wig],
            architecture: Architecture::Gcn,
            channels: 8,
            depth: 4,
            horizon: 5,
            warmup: 2,
            detach: 2,
            alpha: 0.25,
            learning_rate: 0.002,
            seeds: 2,
            iterations: 1200,
            rollout: 200,
            scales: vec![0.9, 1.0, 1.25],
        }
    }

    #[test]
    fn the_default_experiment_has_an_empty_query_and_the_short_command() {
        let default = Experiment::default();
        assert_eq!(default.to_query(), "");
        assert_eq!(
            Experiment::from_query(""),
            (default.clone(), Vec::<String>::new())
        );
        assert_eq!(
            default.cli_command(),
            "unroll-lab study --preset quick --seeds 1 --iterations 300"
        );
        assert!(default.validate().is_empty());
    }

    #[test]
    fn a_fully_non_default_experiment_round_trips() {
        let experiment = custom();
        let query = experiment.to_query();
        assert_eq!(
            query,
            "modes=correct,transition&modalities=nog,wig&arch=gcn&channels=8&depth=4&m=5\
             &warmup=2&detach=2&alpha=0.25&lr=0.002&scales=0.9,1,1.25&seeds=2\
             &iterations=1200&rollout=200"
        );
        let (back, ignored) = Experiment::from_query(&format!("?{query}"));
        assert_eq!(back, experiment);
        assert!(ignored.is_empty(), "{ignored:?}");
        // Other presets, and percent-encoded commas.
        for preset in BrowserPreset::ALL {
            let mut e = custom();
            e.preset = preset;
            let encoded = e.to_query().replace(',', "%2C");
            assert_eq!(Experiment::from_query(&encoded), (e, Vec::<String>::new()));
        }
    }

    #[test]
    fn the_preset_sets_the_defaults_wherever_it_appears() {
        let (e, ignored) = Experiment::from_query("seeds=2&preset=horizons");
        assert!(ignored.is_empty());
        assert_eq!(e.preset, BrowserPreset::Horizons);
        assert_eq!(e.modes, vec![Mode::Correct]);
        assert_eq!(e.modalities, vec![Modality::Nog, Modality::Wig]);
        assert_eq!(e.to_query(), "preset=horizons&seeds=2");
        let mut switched = custom();
        switched.set_preset(BrowserPreset::Sizes);
        assert_eq!(switched.modes, vec![Mode::Predict, Mode::Correct]);
        assert_eq!(switched.modalities, vec![Modality::Wig]);
        assert_eq!(switched.channels, 8, "other fields are kept");
    }

    #[test]
    fn hostile_queries_fall_back_to_defaults_with_messages() {
        let (e, ignored) = Experiment::from_query(
            "preset=<script>&seeds=-1&iterations=99999999999999999999&x=1&device=cpu",
        );
        assert_eq!(e, Experiment::default());
        assert_eq!(ignored.len(), 4, "{ignored:?}");
        assert!(ignored[0].contains("preset '<script>' is unknown"));
        assert!(ignored[1].starts_with("seeds '-1' is not a number in 1..=5"));
        assert!(ignored[2].starts_with("iterations '99999999999999999999' is not a number"));
        assert!(ignored[3].contains("unknown parameter 'x'"));

        let cases: [(&str, &str); 27] = [
            (
                "system=kolmogorov",
                "system 'kolmogorov' is not available yet",
            ),
            ("system=navier", "system 'navier' is unknown (expected ks)"),
            ("modes=", "modes '' is an empty list"),
            ("modes=predict,fast", "names an unknown mode 'fast'"),
            (
                "modes=predict,predict",
                "modes 'predict,predict' lists predict twice",
            ),
            (
                "modalities=all",
                "modalities 'all' names an unknown modality 'all'",
            ),
            ("modalities=", "modalities '' is an empty list"),
            (
                "arch=transformer",
                "arch 'transformer' is unknown (expected resnet or gcn)",
            ),
            ("channels=0", "channels '0' is not a number in 1..=64"),
            ("channels=65", "channels '65' is not a number in 1..=64"),
            ("depth=17", "depth '17' is not a number in 0..=16"),
            ("depth=1.5", "depth '1.5' is not a number in 0..=16"),
            ("m=0", "m '0' is not a number in 1..=32"),
            ("m=33", "m '33' is not a number in 1..=32"),
            ("warmup=99", "warmup '99' is not a number in 0..=32"),
            ("detach=-1", "detach '-1' is not a number in 0..=32"),
            ("alpha=1", "alpha '1' is not a number in [0, 1)"),
            ("alpha=NaN", "alpha 'NaN' is not a number in [0, 1)"),
            ("lr=0", "lr '0' is not a number in (0, 1]"),
            ("lr=inf", "lr 'inf' is not a number in (0, 1]"),
            ("scales=", "scales '' is an empty list"),
            (
                "scales=1,abc",
                "scales '1,abc' is not a comma-separated list of numbers",
            ),
            ("scales=1,9", "domain scale 9 is outside 0.5..=2"),
            ("scales=1,1", "domain scale 1 is listed twice"),
            ("rollout=11", "rollout '11' is not a number in 12..=5000"),
            ("seeds", "seeds '' is not a number in 1..=5"),
            ("%ZZ=%FF%FE", "unknown parameter '%ZZ' ignored"),
        ];
        for (query, needle) in cases {
            let (e, ignored) = Experiment::from_query(query);
            assert_eq!(e, Experiment::default(), "{query}");
            assert_eq!(ignored.len(), 1, "{query}: {ignored:?}");
            assert!(ignored[0].contains(needle), "{query}: {ignored:?}");
            if !needle.starts_with("unknown") {
                assert!(ignored[0].ends_with("using the default"), "{query}");
            }
        }
        // Long and repeated keys, and a key without a value.
        let long = "k".repeat(500);
        let (_, ignored) = Experiment::from_query(&format!("{long}=1&seeds=2&seeds=3&=&&"));
        assert_eq!(ignored.len(), 3, "{ignored:?}");
        assert!(ignored[0].contains("'seeds' is given more than once"));
        assert!(ignored.iter().all(|m| m.len() < 120));
        assert_eq!(Experiment::from_query("seeds=2&seeds=3").0.seeds, 3);
        // Arbitrary bytes never panic.
        for query in [
            "%",
            "=%",
            "&=&=",
            "a=b=c",
            "modes=,",
            "scales=,,",
            "é=ü",
            "\u{0}=\u{0}",
        ] {
            let _ = Experiment::from_query(query);
        }
    }

    #[test]
    fn validation_names_every_field() {
        type Break = fn(&mut Experiment);
        let expected: [(&str, Break, &str); 14] = [
            ("modes", |e| e.modes.clear(), "select at least one mode"),
            (
                "modalities",
                |e| e.modalities.clear(),
                "select at least one modality",
            ),
            ("channels", |e| e.channels = 65, "between 1 and 64 channels"),
            (
                "depth",
                |e| e.depth = 17,
                "between 0 and 16 residual blocks",
            ),
            ("m", |e| e.horizon = 0, "between 1 and 32 loss steps"),
            (
                "warmup",
                |e| e.warmup = 33,
                "between 0 and 32 warm-up steps",
            ),
            ("detach", |e| e.detach = 33, "between 0 and 32 steps"),
            ("lr", |e| e.learning_rate = 2.0, "a learning rate in (0, 1]"),
            (
                "scales",
                |e| e.scales.clear(),
                "at least one training domain size",
            ),
            ("scales", |e| e.scales = vec![1.0; 9], "at most 8"),
            ("scales", |e| e.scales = vec![0.1], "outside 0.5..=2"),
            ("seeds", |e| e.seeds = 6, "between 1 and 5 seeds"),
            (
                "iterations",
                |e| e.iterations = 20_001,
                "between 1 and 20000 iterations per variant",
            ),
            ("rollout", |e| e.rollout = 3, "between 12 and 5000 steps"),
        ];
        for (field, break_it, message) in expected {
            let mut e = Experiment::default();
            break_it(&mut e);
            let errors = e.validate();
            assert_eq!(errors.len(), 1, "{field}: {errors:?}");
            assert_eq!(errors[0].0, field);
            assert!(errors[0].1.contains(message), "{field}: {errors:?}");
            assert_eq!(e.error_of(field), errors[0].1);
            assert!(e.workload().is_none());
        }
        // α only matters with transition.
        let mut e = Experiment {
            alpha: 1.0,
            ..Experiment::default()
        };
        assert!(e.validate().is_empty());
        e.toggle_mode(Mode::Transition);
        assert_eq!(e.modes, Mode::ALL.to_vec());
        assert_eq!(e.validate()[0].0, "alpha");
        assert!(e.error_of("alpha").contains("[0, 1)"));
        // channels/depth do not apply to the sizes preset, m not to the horizons preset.
        let mut sizes = Experiment::for_preset(BrowserPreset::Sizes);
        sizes.channels = 0;
        assert!(sizes.validate().is_empty());
        assert_eq!(sizes.parameter_count(), None);
        assert_eq!(sizes.preset_sizes().len(), 4);
        let mut horizons = Experiment::for_preset(BrowserPreset::Horizons);
        horizons.horizon = 0;
        assert!(horizons.validate().is_empty());
        // Several at once, in form order.
        let bad = Experiment {
            seeds: 0,
            iterations: 0,
            rollout: 3,
            learning_rate: 0.0,
            ..Experiment::default()
        };
        let fields: Vec<&str> = bad.validate().iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["lr", "seeds", "iterations", "rollout"]);
    }

    #[test]
    fn the_memory_limit_refuses_huge_unrolls() {
        let huge = Experiment {
            architecture: Architecture::Gcn,
            channels: 64,
            depth: 16,
            horizon: 32,
            ..Experiment::default()
        };
        let errors = huge.validate();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].0, "workload");
        assert!(errors[0]
            .1
            .contains("exceeds the browser limit of 1.50 GiB"));
        let workload = huge.workload().expect("fields are valid");
        assert!(workload.memory_bytes > MEMORY_LIMIT_BYTES);
        // The default fits easily; memory grows with the horizon.
        let default = Experiment::default();
        let small = default.memory_bytes();
        assert!(small < 0.1 * MEMORY_LIMIT_BYTES, "{small}");
        let longer = Experiment {
            horizon: 12,
            ..Experiment::default()
        };
        assert!(longer.memory_bytes() > small);
    }

    #[test]
    fn the_workload_counts_trainings_flops_and_time() {
        let default = Experiment::default();
        let w = default.workload().expect("valid");
        assert_eq!((w.trainings, w.iterations), (6, 6 * BROWSER_ITERATIONS));
        let config = default.study_config();
        let training: f64 = config
            .variants()
            .iter()
            .map(|v| BROWSER_ITERATIONS as f64 * flops_per_iteration(v, RESOLUTION))
            .sum();
        assert!((w.training_flops - training).abs() <= 1e-9 * training);
        assert!(w.evaluation_flops > 0.0);
        assert_eq!(w.seconds(None), None);
        let rate = w.flops() / 120.0;
        assert!((w.seconds(Some(rate)).expect("rate") - 120.0).abs() < 1e-6);
        assert!(w.summary(None).contains("time estimate after calibration"));
        assert!(
            w.summary(Some(rate)).contains("≈ 2 min"),
            "{}",
            w.summary(Some(rate))
        );
        assert!(w
            .summary(None)
            .starts_with("6 trainings, 1800 iterations in all;"));
        // Two seeds double everything but the memory.
        let two = Experiment {
            seeds: 2,
            ..Experiment::default()
        }
        .workload()
        .expect("valid");
        assert!((two.flops() - 2.0 * w.flops()).abs() < 1e-6 * w.flops());
        assert_eq!(two.memory_bytes, w.memory_bytes);
        assert_eq!(default.parameter_count(), Some(15_841));
        assert_eq!(format_flops(3.2e9), "3.2 GFLOP");
        assert_eq!(format_bytes(1.5 * GIB), "1.50 GiB");
        assert_eq!(format_seconds(30.0), "30 s");
        assert_eq!(format_seconds(7200.0), "2.0 h");
    }

    #[test]
    fn the_study_config_follows_every_field() {
        let e = custom();
        let config = e.study_config();
        config.validate().expect("valid study");
        assert_eq!(config.modes, e.modes);
        assert_eq!(config.modalities, e.modalities);
        assert_eq!(
            config.sizes,
            vec![NetSize {
                channels: 8,
                depth: 4
            }]
        );
        assert_eq!(config.horizons, vec![5]);
        assert_eq!(config.seeds, vec![0, 1]);
        let base = &config.base;
        assert_eq!(base.net.architecture, Architecture::Gcn);
        assert_eq!((base.unroll.warmup, base.unroll.detach_interval), (2, 2));
        assert_eq!(base.alpha, 0.25);
        assert_eq!(base.optimizer.learning_rate, 0.002);
        assert_eq!(base.data.scales, e.scales);
        assert_eq!(base.iterations, 1200);
        assert_eq!(config.eval.rollout_steps, 200);
        let labels: Vec<String> = config
            .variants()
            .iter()
            .map(TrainConfig::variant_label)
            .collect();
        assert_eq!(labels, ["C-NOG", "C-WIG", "T-NOG", "T-WIG"]);
        // Without transition α stays the preset's.
        let no_transition = Experiment {
            alpha: 0.75,
            ..Experiment::default()
        };
        assert_eq!(
            no_transition.study_config(),
            Experiment::default().study_config()
        );
        // The presets keep their grid axis.
        let sizes = Experiment::for_preset(BrowserPreset::Sizes).study_config();
        assert_eq!(sizes.sizes.len(), 4);
        let horizons = Experiment::for_preset(BrowserPreset::Horizons).study_config();
        assert_eq!(horizons.horizons, vec![1, 2, 4, 8]);
        for preset in BrowserPreset::ALL {
            Experiment::for_preset(preset)
                .study_config()
                .validate()
                .expect("valid");
        }
        let devs = e.deviations();
        assert!(devs[0].contains("study: 44892"));
        assert!(devs.iter().any(|d| d.starts_with("architecture gcn")));
        assert!(devs.iter().any(|d| d.starts_with("horizon m 5")));
        assert!(devs
            .iter()
            .any(|d| d.starts_with("modes correct,transition")));
        assert!(devs.iter().any(|d| d.starts_with("transition α 0.25")));
    }

    #[test]
    fn the_cli_command_names_every_non_default_field() {
        assert_eq!(
            custom().cli_command(),
            "unroll-lab study --preset quick --seeds 2 --iterations 1200 --rollout 200 \
             --modes correct,transition --modalities nog,wig --architecture gcn --channels 8 \
             --depth 4 --horizon 5 --warmup 2 --detach-interval 2 --alpha 0.25 \
             --learning-rate 0.002 --scales 0.9,1,1.25"
        );
        let horizons = Experiment {
            seeds: 3,
            iterations: 1200,
            ..Experiment::for_preset(BrowserPreset::Horizons)
        };
        assert_eq!(
            horizons.cli_command(),
            "unroll-lab study --preset horizons --seeds 3 --iterations 1200"
        );
        // Fields a preset replaces are left out; α only with transition.
        let mut sizes = custom();
        sizes.preset = BrowserPreset::Sizes;
        sizes.modes = vec![Mode::Predict];
        let command = sizes.cli_command();
        assert!(command.starts_with("unroll-lab study --preset sizes"));
        assert!(!command.contains("--channels") && !command.contains("--depth"));
        assert!(command.contains("--horizon 5") && !command.contains("--alpha"));
        let mut horizons = custom();
        horizons.preset = BrowserPreset::Horizons;
        assert!(!horizons.cli_command().contains("--horizon"));
        assert!(horizons.cli_command().contains("--channels 8"));
    }
}
