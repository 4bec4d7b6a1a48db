//! Enums named by one lower-case word each (modes, modalities, architectures, presets,
//! systems): [`named_enum!`](crate::named_enum) gives them `ALL`, `name()`, `Display` (the name) and `FromStr`
//! (the name back, or an [`UnknownName`] that lists what is expected) — one definition per enum
//! instead of a hand-written `parse` each.

/// A name that is not one of an enum's: what was read and what is expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{got}' (expected {expected})")]
pub struct UnknownName {
    /// What kind of name (`mode`, `modality`, …).
    pub what: &'static str,
    /// The text read, clipped to 40 characters.
    pub got: String,
    /// The accepted names in words (`predict, correct or transition`).
    pub expected: String,
}

impl UnknownName {
    /// `got` (clipped) is not one of `names`.
    pub fn new(what: &'static str, got: &str, names: &[&str]) -> Self {
        Self {
            what,
            got: got.chars().take(40).collect(),
            expected: in_words(names),
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
pub fn in_words(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `ALL`, `name()`, `Display` and `FromStr` for a fieldless enum:
/// `named_enum!(Mode, "mode", { Predict => "predict", Correct => "correct" });`
#[macro_export]
macro_rules! named_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in menu order.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The name used in configs, URLs and on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|value| value.name() == text)
                    .ok_or_else(|| {
                        $crate::names::UnknownName::new($what, text, &[$($name),+])
                    })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::Mode;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_choices() {
        for mode in Mode::ALL {
            assert_eq!(mode.to_string().parse::<Mode>(), Ok(mode));
        }
        let err = "fast".parse::<Mode>().expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "unknown mode 'fast' (expected predict, correct or transition)"
        );
        assert_eq!(in_words(&["a", "b"]), "a or b");
    }
}
