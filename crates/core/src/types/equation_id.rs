//! The process-wide interner of reader's equations: [`EquationId`], a small `Copy` handle the
//! `Copy` enum [`super::System`] carries.

use std::sync::Mutex;

use super::equation::{Equation, EquationError};

/// An interned equation: a small `Copy` handle to a process-wide, deduplicated, never-freed
/// [`Equation`] (one per distinct canonical text; a session interns what it reads, a few
/// hundred bytes each). `EquationId::DEFAULT` is [`Equation::default`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EquationId(u32);

/// One interned equation: its canonical text, its system name (`custom:TEXT`) and the equation.
type Interned = (&'static str, &'static str, &'static Equation);

fn leak(equation: Equation, text: String) -> Interned {
    let name: &'static str = Box::leak(format!("custom:{text}").into_boxed_str());
    let text: &'static str = Box::leak(text.into_boxed_str());
    (text, name, Box::leak(Box::new(equation)))
}

static INTERNED: Mutex<Vec<Interned>> = Mutex::new(Vec::new());

fn interned() -> std::sync::MutexGuard<'static, Vec<Interned>> {
    let mut table = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if table.is_empty() {
        let equation = Equation::default();
        let text = equation.text();
        table.push(leak(equation, text));
    }
    table
}

impl EquationId {
    /// [`Equation::default`], interned first.
    pub const DEFAULT: EquationId = EquationId(0);

    /// The id of `equation` (checked by the caller), interning it if new.
    pub fn intern(equation: Equation) -> Self {
        let text = equation.text();
        let mut table = interned();
        if let Some(index) = table.iter().position(|(t, _, _)| *t == text) {
            return EquationId(index as u32);
        }
        table.push(leak(equation, text));
        EquationId((table.len() - 1) as u32)
    }

    /// Parses and interns `text` ([`Equation::parse`]).
    pub fn parse(text: &str) -> Result<Self, EquationError> {
        Equation::parse(text).map(Self::intern)
    }

    /// The entry of this id (the default one for an id this process never made).
    fn entry(self) -> Interned {
        let table = interned();
        *table.get(self.0 as usize).unwrap_or(&table[0])
    }

    /// The equation.
    pub fn equation(self) -> &'static Equation {
        self.entry().2
    }

    /// Its canonical text.
    pub fn text(self) -> &'static str {
        self.entry().0
    }

    /// `custom:` and the canonical text: the system's name.
    pub fn name(self) -> &'static str {
        self.entry().1
    }
}
