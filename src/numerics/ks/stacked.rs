//! The tensor solver of several domain sizes at once: the rows of a `[sizes·rows, N]` batch are
//! `sizes` equal groups (size-major), group `k` stepped with its own operators. Each operator is
//! stacked `[sizes, N, N]` and applied as one batched matmul on the `[sizes, rows, N]` view, so
//! a whole test set (every size) advances as one batch. Same sub-step as
//! [`super::TensorSolver`]: ETD1 `u' = u Eᵀ + u² P₁ᵀ`, ETRK2 adds `(a² − u²) P₂ᵀ`.

use burn::tensor::{Device, Tensor, TensorData};

use super::config::{KsConfig, Scheme};
use super::error::KsError;
use super::operators::{transpose, EtdMatrices};
use super::tensor::Precision;
use crate::numerics::counted::matmul;

/// ETD1 / ETRK2 of `sizes` configurations (same scheme, resolution and sub-steps, one domain
/// length each) on one device. Cheap to clone.
#[derive(Debug, Clone)]
pub struct StackedSolver {
    sizes: usize,
    resolution: usize,
    substeps: usize,
    /// `Eᵀ` per size, `[sizes, N, N]`.
    exp_t: Tensor<3>,
    /// `P₁ᵀ` per size, `[sizes, N, N]`.
    nonlinear1_t: Tensor<3>,
    /// `P₂ᵀ` per size (ETRK2 only).
    nonlinear2_t: Option<Tensor<3>>,
}

impl StackedSolver {
    /// The operators of every config, stacked in order; they must share scheme, resolution,
    /// sub-step count (ETRK2 or ETD1, not ETDRK4). `None` for no config or mixed ones.
    pub fn new(
        configs: &[KsConfig],
        device: &Device,
        precision: Precision,
    ) -> Result<Option<Self>, KsError> {
        let Some(first) = configs.first() else {
            return Ok(None);
        };
        let alike = |c: &KsConfig| {
            c.scheme == first.scheme
                && c.resolution == first.resolution
                && c.substeps == first.substeps
        };
        if first.scheme == Scheme::Etdrk4 || !configs.iter().all(alike) {
            return Ok(None);
        }
        let n = first.resolution;
        let mut exp = Vec::with_capacity(configs.len() * n * n);
        let mut p1 = Vec::with_capacity(configs.len() * n * n);
        let mut p2 = Vec::with_capacity(configs.len() * n * n);
        for config in configs {
            let matrices = EtdMatrices::new(&config.validate()?, config.substep);
            exp.extend(transpose(&matrices.exp, n));
            p1.extend(transpose(&matrices.nonlinear1, n));
            p2.extend(transpose(&matrices.nonlinear2, n));
        }
        let shape = [configs.len(), n, n];
        let upload = |values: Vec<f64>| {
            Tensor::<3>::from_data(TensorData::new(values, shape), (device, precision.dtype()))
        };
        Ok(Some(Self {
            sizes: configs.len(),
            resolution: n,
            substeps: first.substeps,
            exp_t: upload(exp),
            nonlinear1_t: upload(p1),
            nonlinear2_t: (first.scheme == Scheme::Etrk2).then(|| upload(p2)),
        }))
    }

    /// Domain sizes stacked.
    pub fn sizes(&self) -> usize {
        self.sizes
    }

    /// One sub-step of `[sizes, rows, N]` states.
    fn substep(&self, u: Tensor<3>) -> Tensor<3> {
        let squared = u.clone() * u.clone();
        let a = matmul(u, self.exp_t.clone()) + matmul(squared.clone(), self.nonlinear1_t.clone());
        match &self.nonlinear2_t {
            None => a,
            Some(p2) => {
                let difference = a.clone() * a.clone() - squared;
                a + matmul(difference, p2.clone())
            }
        }
    }

    /// One learned step of `[sizes·rows, N]` states, size-major: rows `k·rows..(k+1)·rows`
    /// with size `k`'s operators.
    pub fn step(&self, u: Tensor<2>) -> Tensor<2> {
        let [batch, n] = u.dims();
        let rows = batch / self.sizes.max(1);
        debug_assert_eq!(rows * self.sizes, batch);
        debug_assert_eq!(n, self.resolution);
        let grouped = u.reshape([self.sizes, rows, n]);
        let stepped = (0..self.substeps).fold(grouped, |state, _| self.substep(state));
        stepped.reshape([batch, n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend;
    use crate::numerics::ks::config::BASE_DOMAIN_SIZE;
    use crate::numerics::ks::initial::TestIc;
    use crate::numerics::ks::tensor::read_rows;
    use crate::numerics::ks::TensorSolver;

    /// Each group of rows steps as its own size's solver does (f32: to 1e-6).
    #[test]
    fn stacked_sizes_step_as_each_size_alone() {
        let device = backend::cpu();
        for scheme in [Scheme::Etd1, Scheme::Etrk2] {
            let configs: Vec<KsConfig> = [0.85, 1.15, 1.4]
                .iter()
                .map(|&scale| KsConfig {
                    scheme,
                    domain_size: BASE_DOMAIN_SIZE * scale,
                    ..KsConfig::default()
                })
                .collect();
            let stacked = StackedSolver::new(&configs, &device, Precision::F32)
                .expect("builds")
                .expect("alike");
            let mut rows = Vec::new();
            let mut want = Vec::new();
            for (k, config) in configs.iter().enumerate() {
                let solver = TensorSolver::new(*config, &device, Precision::F32).expect("solver");
                let group: Vec<Vec<f64>> = (0..2)
                    .map(|t| TestIc::from_seed(10 * k as u64 + t).state(&config.grid()))
                    .collect();
                want.extend(read_rows(solver.step(solver.states(&group))).expect("read"));
                rows.extend(group);
            }
            let values: Vec<f32> = rows.iter().flatten().map(|&v| v as f32).collect();
            let u = Tensor::<2>::from_data(TensorData::new(values, [rows.len(), 48]), &device);
            let got = read_rows(stacked.step(u)).expect("read");
            for (g, w) in got.iter().zip(&want) {
                for (a, b) in g.iter().zip(w) {
                    assert!((a - b).abs() <= 1e-6, "{scheme:?}: {a} vs {b}");
                }
            }
        }
        let mixed = [
            KsConfig {
                scheme: Scheme::Etd1,
                ..KsConfig::default()
            },
            KsConfig {
                scheme: Scheme::Etrk2,
                ..KsConfig::default()
            },
        ];
        assert!(StackedSolver::new(&mixed, &device, Precision::F32)
            .expect("valid")
            .is_none());
    }
}
