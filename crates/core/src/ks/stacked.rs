//! The tensor solver of several domain sizes at once: the rows of a `[sizes·rows, N]` batch are
//! `sizes` equal groups (size-major), group `k` stepped with its own operators. Each operator is
//! stacked `[sizes, N, N]` and applied as one batched matmul on the `[sizes, rows, N]` view, so
//! a whole test set (every size) advances as one batch. Same sub-step as
//! [`super::TensorSolver`]: ETD1 `u' = u Eᵀ + u² P₁ᵀ`, ETRK2 adds `(a² − u²) P₂ᵀ`.

use burn::tensor::{Device, Int, Tensor, TensorData};

use super::config::{KsConfig, Scheme};
use super::error::KsError;
use super::operators::{transpose, EtdMatrices};
use super::tensor::Precision;
use crate::counted::matmul;

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

    /// One sub-step of `[groups, rows, N]` states with `operators` (`[groups, N, N]` each).
    fn substep(&self, u: Tensor<3>, operators: &Operators) -> Tensor<3> {
        let squared = u.clone() * u.clone();
        let a = matmul(u, operators.exp_t.clone())
            + matmul(squared.clone(), operators.nonlinear1_t.clone());
        match &operators.nonlinear2_t {
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
        let every: Vec<usize> = (0..self.sizes).collect();
        self.step_sizes(u, &every)
    }

    /// One learned step of `[groups·rows, N]` states in `sizes.len()` equal row groups, group
    /// `k` with the operators of size `sizes[k]` (gathered once per call when they are not
    /// every size in order).
    pub fn step_sizes(&self, u: Tensor<2>, sizes: &[usize]) -> Tensor<2> {
        let [batch, n] = u.dims();
        let groups = sizes.len().max(1);
        let rows = batch / groups;
        debug_assert_eq!(rows * groups, batch);
        debug_assert_eq!(n, self.resolution);
        let operators = self.operators(sizes);
        let grouped = u.reshape([groups, rows, n]);
        let stepped = (0..self.substeps).fold(grouped, |state, _| self.substep(state, &operators));
        stepped.reshape([batch, n])
    }

    /// The operators of `sizes`, in order: the stacks themselves when `sizes` is every size in
    /// order, else one `select` of each.
    fn operators(&self, sizes: &[usize]) -> Operators {
        let every = sizes.len() == self.sizes && sizes.iter().enumerate().all(|(k, &s)| k == s);
        let pick = |stack: &Tensor<3>| {
            if every {
                return stack.clone();
            }
            let indices: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
            let indices = Tensor::<1, Int>::from_data(
                TensorData::new(indices, [sizes.len()]),
                &stack.device(),
            );
            stack.clone().select(0, indices)
        };
        Operators {
            exp_t: pick(&self.exp_t),
            nonlinear1_t: pick(&self.nonlinear1_t),
            nonlinear2_t: self.nonlinear2_t.as_ref().map(pick),
        }
    }
}

/// The operators of one call, `[groups, N, N]` each (see [`StackedSolver`]'s fields).
struct Operators {
    exp_t: Tensor<3>,
    nonlinear1_t: Tensor<3>,
    nonlinear2_t: Option<Tensor<3>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::config::BASE_DOMAIN_SIZE;
    use crate::ks::initial::TestIc;
    use crate::ks::tensor::read_rows;
    use crate::ks::TensorSolver;

    /// Groups of 2 rows at `sizes` (indices into `configs`) stepped by the stacked solver
    /// match each size's own solver (f32: to 1e-6).
    fn check_groups(configs: &[KsConfig], sizes: &[usize]) {
        let device = backend::cpu();
        let stacked = StackedSolver::new(configs, &device, Precision::F32)
            .expect("builds")
            .expect("alike");
        let mut rows = Vec::new();
        let mut want = Vec::new();
        for (k, &size) in sizes.iter().enumerate() {
            let config = configs[size];
            let solver = TensorSolver::new(config, &device, Precision::F32).expect("solver");
            let group: Vec<Vec<f64>> = (0..2)
                .map(|t| TestIc::from_seed(10 * k as u64 + t).state(&config.grid()))
                .collect();
            want.extend(read_rows(solver.step(solver.states(&group))).expect("read"));
            rows.extend(group);
        }
        let values: Vec<f32> = rows.iter().flatten().map(|&v| v as f32).collect();
        let u = Tensor::<2>::from_data(TensorData::new(values, [rows.len(), 48]), &device);
        let got = read_rows(stacked.step_sizes(u, sizes)).expect("read");
        for (g, w) in got.iter().zip(&want) {
            for (a, b) in g.iter().zip(w) {
                assert!((a - b).abs() <= 1e-6, "{sizes:?}: {a} vs {b}");
            }
        }
    }

    /// Each group of rows steps as its own size's solver does: every size in order (a test
    /// set), and sizes repeated and out of order (an ensemble's members).
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
            check_groups(&configs, &[0, 1, 2]);
            check_groups(&configs, &[2, 0, 2, 1]);
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
