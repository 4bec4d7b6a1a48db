//! The checks every system makes of a state or an index, with one wording: a state of the
//! wrong length or holding a non-finite value, an index outside its range.

/// A refused state or index (each system's error wraps it: `KsError::State`, …).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StateError {
    /// A state has the wrong number of values.
    #[error("state has {got} values, expected {expected}")]
    WrongLength {
        /// Values of a state (the grid's points × channels).
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A state holds a NaN or infinity.
    #[error("state value {index} is not finite")]
    NotFinite {
        /// Position of the first offending value.
        index: usize,
    },
    /// An index (trajectory, test size, test) outside its range.
    #[error("{what} {got} does not exist (there are {count})")]
    NoSuch {
        /// What was asked for (`test size`).
        what: &'static str,
        /// How many there are.
        count: usize,
        /// The rejected index.
        got: usize,
    },
}

/// `values` as a state of `expected` finite values, or why not.
pub fn check_state(values: &[f64], expected: usize) -> Result<(), StateError> {
    if values.len() != expected {
        return Err(StateError::WrongLength {
            expected,
            got: values.len(),
        });
    }
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(StateError::NotFinite { index }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_refused_for_its_length_then_its_first_non_finite_value() {
        assert_eq!(check_state(&[0.0, 1.0], 2), Ok(()));
        assert_eq!(
            check_state(&[0.0], 2),
            Err(StateError::WrongLength {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            check_state(&[0.0, f64::NAN, f64::INFINITY], 3),
            Err(StateError::NotFinite { index: 1 })
        );
    }
}
