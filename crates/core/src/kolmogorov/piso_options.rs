//! The two choices of a PISO step ([`super::piso`]): how autodiff differentiates it and where
//! the advection's diagonal goes. Plain settings, named in the settings and results files.

/// How autodiff differentiates a PISO step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PisoGradient {
    /// The official code's: the advecting velocity and the solver's guess detached, the linear
    /// solves differentiated through their right-hand side only (the WIG default).
    #[default]
    Paper,
    /// The exact derivative of the computed step (the advecting velocity attached).
    Exact,
}

impl PisoGradient {
    /// The word in settings and results: `paper` or `exact`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Paper => "paper",
            Self::Exact => "exact",
        }
    }

    /// The gradient named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::Paper, Self::Exact]
            .into_iter()
            .find(|g| g.name() == name)
    }
}

/// Where the advection's diagonal `δ` (half the divergence of `w` over a momentum cell) goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PisoDiagonal {
    /// In `H`: the diagonal is the constant `d₀ = 1/dt + 4ν/h²` and the pressure equations are
    /// exact constant-coefficient Poisson solves.
    #[default]
    Constant,
    /// In the diagonal, as the official `advection_matrix_cuda`: `a = d₀ + δ` per face, the
    /// pressure equations `D(G p / a) = D u*` ([`super::piso::PRESSURE_ITERATIONS`]).
    Advective,
}
