//! Kolmogorov flow's coarse-solver set-ups ([`SETUPS`]): the scheme, PISO's gradient and the
//! data path a study runs, chosen by name (`solver=` in the URL, `--solver` on the command
//! line). `piso` is the default: the paper's solver and gradient with exact forcing and
//! face-averaged down-sampling.

use burn::tensor::Device;

use super::coarse::{CoarseSolver, TimeScheme};
use super::config::{COARSE_DT, COARSE_RESOLUTION};
use super::piso_options::{PisoDiagonal, PisoGradient};
use super::run::Sampling;
use super::KolmogorovError;
use crate::types::solver_setup::find;
use crate::types::{Precision, SetupWords, SolverSetup};

/// The set-ups, the default first.
pub const SETUPS: [SetupWords; 5] = [
    SetupWords {
        name: "piso",
        label: "PISO, the paper's gradient",
        deviation: None,
    },
    SetupWords {
        name: "piso-exact",
        label: "PISO, exact gradient",
        deviation: Some(
            "WIG's gradient is the exact derivative of the PISO step (the paper's detaches the \
             advecting velocity and differentiates the linear solves through their right-hand \
             side only)",
        ),
    },
    SetupWords {
        name: "piso-advective",
        label: "PISO with the official advective diagonal",
        deviation: Some(
            "PISO's pressure equations with the advective diagonal (the official form) are \
             solved by 3 fixed-point corrections of exact Poisson solves (the official code: \
             an iterative solver)",
        ),
    },
    SetupWords {
        name: "piso-official",
        label: "PISO with the official code's quirks",
        deviation: Some(
            "the official code's quirks: forcing sin(linspace(0, 12π, N)) with the endpoint \
             (k = 6·N/(N−1) and a seam) and point-sampled down-sampling by linear \
             interpolation (not divergence-free on 32²)",
        ),
    },
    SetupWords {
        name: "ssp-rk3",
        label: "SSP-RK3 MAC projection (substitute for PISO)",
        deviation: Some(
            "coarse solver: SSP-RK3 with energy-conserving MAC advection instead of the \
             paper's PISO (third order, not dissipative)",
        ),
    },
];

/// What a set-up name means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// The coarse solver's time integrator.
    pub scheme: TimeScheme,
    /// PISO's gradient.
    pub gradient: PisoGradient,
    /// PISO's diagonal.
    pub diagonal: PisoDiagonal,
    /// The official forcing and point-sampled down-sampling.
    pub official_quirks: bool,
}

impl Setup {
    /// The set-up called `solver` (empty: `piso`).
    pub fn of(solver: &SolverSetup) -> Result<Self, KolmogorovError> {
        let words = find(&SETUPS, solver)
            .ok_or_else(|| KolmogorovError::UnknownSetup(solver.name().to_string()))?;
        let piso = Self {
            scheme: TimeScheme::Piso,
            gradient: PisoGradient::Paper,
            diagonal: PisoDiagonal::Constant,
            official_quirks: false,
        };
        Ok(match words.name {
            "piso-exact" => Self {
                gradient: PisoGradient::Exact,
                ..piso
            },
            "piso-advective" => Self {
                diagonal: PisoDiagonal::Advective,
                ..piso
            },
            "piso-official" => Self {
                official_quirks: true,
                ..piso
            },
            "ssp-rk3" => Self {
                scheme: TimeScheme::SspRk3,
                ..piso
            },
            _ => piso,
        })
    }

    /// How the truth is down-sampled to 32²: point-sampled with the official quirks.
    pub fn sampling(self) -> Sampling {
        if self.official_quirks {
            Sampling::PointSampled
        } else {
            Sampling::FaceAverage
        }
    }

    /// The study's coarse solver (32², Δt 0.02) of this set-up on `device` in `precision`.
    pub fn coarse_solver(
        self,
        device: &Device,
        precision: Precision,
    ) -> Result<CoarseSolver, KolmogorovError> {
        let solver = CoarseSolver::with_precision(COARSE_RESOLUTION, COARSE_DT, device, precision)?;
        Ok(self.configure(solver))
    }

    /// `solver` (any grid, time step) with this set-up's scheme, gradient, diagonal and
    /// forcing.
    pub fn configure(self, solver: CoarseSolver) -> CoarseSolver {
        let solver = solver
            .with_scheme(self.scheme)
            .with_gradient(self.gradient)
            .with_diagonal(self.diagonal);
        if self.official_quirks {
            solver.with_official_forcing()
        } else {
            solver
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;

    #[test]
    fn every_setup_builds_its_solver_and_unknown_names_are_refused() {
        for words in SETUPS {
            let setup = Setup::of(&SolverSetup::named(words.name)).expect("offered");
            let solver = setup
                .coarse_solver(&backend::cpu(), Precision::F32)
                .expect("solver");
            assert_eq!(solver.scheme(), setup.scheme, "{}", words.name);
            assert_eq!(solver.gradient(), setup.gradient, "{}", words.name);
            assert_eq!(solver.diagonal(), setup.diagonal, "{}", words.name);
            assert_eq!(words.deviation.is_none(), words.name == "piso");
        }
        assert_eq!(
            Setup::of(&SolverSetup::default()),
            Setup::of(&SolverSetup::named("piso"))
        );
        assert!(Setup::of(&SolverSetup::named("heun"))
            .expect_err("not offered")
            .to_string()
            .contains("heun"));
    }
}
