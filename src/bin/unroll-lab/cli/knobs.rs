//! The experiment's knobs as clap flags, generated from the one knob table
//! ([`unroll_lab::experiment::KNOBS`]): `study` takes every knob, `train` the knobs of one
//! training config ([`Knob::trains`]). A value that does not parse is a clap error (exit 2, one
//! line); ranges are checked where the values are applied.

use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use unroll_lab::experiment::{Kind, Knob, Overrides, KNOBS};

/// The knob flags of `unroll-lab study` (`TRAIN = false`) or `unroll-lab train` (`TRAIN =
/// true`), parsed into typed [`Overrides`].
#[derive(Debug, Clone, Default)]
pub struct KnobArgs<const TRAIN: bool> {
    /// The knobs given on the command line.
    pub overrides: Overrides,
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
        knobs::<TRAIN>().fold(command, |command, knob| {
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
        Ok(Self { overrides })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
