//! The experiment's knobs as clap flags, generated from the one knob table
//! ([`unroll_report::experiment::KNOBS`]): `study` takes every knob, `train` the knobs of one
//! training config ([`Knob::trains`]). A value that does not parse is a clap error (exit 2, one
//! line); ranges are checked where the values are applied.

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use unroll_core::backend::NativeDevice;

use super::CliError;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_report::experiment::{Experiment, Target};
use unroll_report::experiment::{Kind, Knob, Overrides, Value, KNOBS};

/// The knob flags of `unroll-lab study` (`TRAIN = false`) or `unroll-lab train` (`TRAIN =
/// true`), parsed into typed [`Overrides`].
#[derive(Debug, Clone, Default)]
pub struct KnobArgs<const TRAIN: bool> {
    /// The knobs given on the command line (`study`: `--equation` folded into the system).
    pub overrides: Overrides,
    /// `--equation` as given (`train` resolves it with its own `--system`).
    pub equation: Option<String>,
}

/// The help of `--equation`.
pub const EQUATION_HELP: &str = "With --system custom: the equation, as text \
    ('a2=-1,a4=-1,b=-1;L=8;N=48') or a file holding its text or JSON";

/// `--system custom --equation TEXT|FILE`: the system of the equation (its text, or the text or
/// JSON of the file it names), or `system` unchanged without `--equation`. A usage error says
/// what is wrong: `--equation` without `--system custom`, an unreadable file, a refused
/// equation (naming its key).
pub fn equation_system(
    system: Option<System>,
    equation: Option<&str>,
) -> Result<Option<System>, String> {
    let Some(equation) = equation else {
        return Ok(system);
    };
    if system.is_none_or(|s| s.equation().is_none()) {
        return Err("--equation applies to --system custom".to_string());
    }
    let path = std::path::Path::new(equation);
    let text = if path.is_file() || equation.ends_with(".json") {
        std::fs::read_to_string(path).map_err(|err| format!("cannot read {equation}: {err}"))?
    } else {
        equation.to_string()
    };
    format!("custom:{}", text.trim())
        .parse::<System>()
        .map(Some)
        .map_err(|err| format!("--equation: {}", err.expected))
}

fn knobs<const TRAIN: bool>() -> impl Iterator<Item = Knob> {
    KNOBS.into_iter().filter(|knob| !TRAIN || knob.trains())
}

fn value_name(knob: Knob) -> &'static str {
    match knob.kind() {
        Kind::Count => "N",
        Kind::Real => "X",
        Kind::Reals => "X,…",
        Kind::Names => "NAME",
    }
}

impl<const TRAIN: bool> Args for KnobArgs<TRAIN> {
    fn augment_args(command: Command) -> Command {
        let equation = Arg::new("equation")
            .long("equation")
            .value_name("EQUATION")
            .help(EQUATION_HELP)
            .allow_hyphen_values(true)
            .value_parser(clap::value_parser!(String))
            .action(ArgAction::Set);
        knobs::<TRAIN>().fold(command.arg(equation), |command, knob| {
            let mut arg = Arg::new(knob.key())
                .long(knob.flag())
                .value_name(value_name(knob))
                .help(knob.label())
                .allow_negative_numbers(true)
                .allow_hyphen_values(true)
                .value_parser(clap::value_parser!(String))
                .action(ArgAction::Set);
            if let Some(alias) = knob.alias().filter(|a| *a != knob.flag()) {
                arg = arg.visible_alias(alias);
            }
            command.arg(arg)
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl<const TRAIN: bool> FromArgMatches for KnobArgs<TRAIN> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut overrides = Overrides::default();
        for knob in knobs::<TRAIN>() {
            if let Some(text) = matches.get_one::<String>(knob.key()) {
                let value = knob.parse(text).map_err(|problem| {
                    clap::Error::raw(
                        ErrorKind::ValueValidation,
                        format!("{}\n", problem.for_cli(knob, text)),
                    )
                })?;
                overrides.set(knob, value);
            }
        }
        let equation = matches.get_one::<String>("equation").cloned();
        if !TRAIN && equation.is_some() {
            let system = match overrides.get(Knob::System) {
                Some(Value::System(system)) => Some(*system),
                _ => None,
            };
            let resolved = equation_system(system, equation.as_deref())
                .map_err(|message| clap::Error::raw(ErrorKind::ValueValidation, message + "\n"))?;
            if let Some(system) = resolved {
                overrides.set(Knob::System, Value::System(system));
            }
        }
        Ok(Self {
            overrides,
            equation,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// How many trainings run at once (`study` and `study run-cell`): not a knob of the experiment
/// (the results do not depend on it), so not in [`KNOBS`]; parsed here beside them, with the
/// same one-line usage error (exit 2).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct JobsArg {
    /// Trainings run at once, each on one thread (default: the available cores).
    #[arg(long, value_name = "N", value_parser = parse_jobs, allow_negative_numbers = true)]
    jobs: Option<usize>,
}

impl JobsArg {
    /// The trainings to run at once: `--jobs`, else the cores this process may use.
    pub fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
    }
}

/// `--device`: where the trainings run (the results do not depend on it beyond rounding, so
/// not in [`KNOBS`]).
#[derive(Debug, Clone, Copy, Args)]
pub struct DeviceArg {
    /// The device to train on: cpu, wgpu (built with `--features gpu`) or cuda (`--features cuda`).
    #[arg(long, default_value = "cpu", value_parser = NativeDevice::parse)]
    pub device: NativeDevice,
}

/// `--ensemble`: whether a variant's seeds train as one model (the results agree to rounding,
/// so not in [`KNOBS`]).
#[derive(Debug, Clone, Args)]
pub struct EnsembleArg {
    /// Train each variant's seeds as one ensemble (`nets::Ensemble`, the architectures with a
    /// member axis): `on`, `off`, or `auto` (on for the GPU devices; off on the CPU, where an
    /// ensemble measured slower per network: the book, docs/src/ensembles.md).
    #[arg(long, default_value = "auto", value_parser = ["auto", "on", "off"])]
    ensemble: String,
}

impl EnsembleArg {
    /// Whether trainings on `device` run as ensembles.
    pub fn on(&self, device: NativeDevice) -> bool {
        match self.ensemble.as_str() {
            "on" => true,
            "off" => false,
            _ => device != NativeDevice::Cpu,
        }
    }
}

/// How a study's trainings run (`study` and `study run-cell`): how many at once, on which
/// device, and whether a variant's seeds train as one ensemble.
#[derive(Debug, Clone, Args)]
pub struct RunnerArgs {
    #[command(flatten)]
    pub jobs: JobsArg,
    #[command(flatten)]
    pub device: DeviceArg,
    #[command(flatten)]
    pub ensemble: EnsembleArg,
}

impl RunnerArgs {
    /// The device the trainings run on.
    pub fn device(&self) -> NativeDevice {
        self.device.device
    }

    /// Whether a variant's trainings run as ensembles on that device.
    pub fn ensembles(&self) -> bool {
        self.ensemble.on(self.device.device)
    }
}

/// `--jobs`: a whole number ≥ 1.
fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("--jobs must be at least 1".to_string()),
        Ok(jobs) => Ok(jobs),
        Err(_) => Err(format!(
            "--jobs takes a whole number of trainings, got '{text}'"
        )),
    }
}

/// The experiment of `preset` with the knobs given on the command line (a bad knob is a usage
/// error naming its flag).
pub fn experiment(preset: Preset, knobs: &KnobArgs<false>) -> Result<Experiment, CliError> {
    let system = match knobs.overrides.get(Knob::System) {
        Some(Value::System(system)) => *system,
        _ => System::default(),
    };
    let mut experiment = Experiment::defaults_for(system, preset, Target::Native);
    experiment
        .apply(&knobs.overrides)
        .map_err(|(knob, problem)| {
            let text = knobs
                .overrides
                .get(knob)
                .map(ToString::to_string)
                .unwrap_or_default();
            CliError::Usage(problem.for_cli(knob, &text))
        })?;
    Ok(experiment)
}
