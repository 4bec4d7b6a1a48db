//! A study's data and baseline made once and handed on: the training trajectories, the test
//! truths, the baseline's per-test metrics and the sample tests, as plain serialisable data
//! ([`Prepared`]). A worker pool makes them in one worker and ships them to the others, which
//! then start a study from them (`Study::with_prepared`) instead of regenerating them; a
//! study started from them computes the same numbers as one that made them itself (the bulk
//! floats travel as their bytes, [`super::packed`]).

use serde::{Deserialize, Serialize};

use super::packed::Packed;
use super::results::SampleTest;
use crate::types::{TestMetrics, TestSize};

/// The data and baseline of one study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    /// [`config_hash`](crate::system::config::config_hash) of the study they
    /// were made for.
    pub config_hash: String,
    /// The training trajectories, in the study's order.
    pub training: Vec<PreparedTrajectory>,
    /// The test truths, one entry per test size.
    pub tests: Vec<PreparedTests>,
    /// The baseline's metrics on every test (size-major).
    pub baseline_tests: Vec<TestMetrics>,
    /// The sample tests (truth and baseline) of the space–time maps.
    pub samples: Vec<SampleTest>,
}

/// One training trajectory: f32, row-major `[frames, N]` (N = values per state).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreparedTrajectory {
    /// The varied parameter's value.
    pub scale: f64,
    /// The domain parameter.
    pub domain_size: f64,
    /// Values per state `N`.
    pub resolution: usize,
    /// `frames · N` values (f32).
    pub values: Packed,
}

/// The ground truth of one test size, f64, flattened `[tests][rollout_steps + 1][N]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreparedTests {
    /// The varied parameter's value.
    pub scale: f64,
    /// `[tests, rollout_steps + 1, N]`.
    pub shape: [usize; 3],
    /// The values, row-major (f64).
    pub truth: Packed,
}

impl PreparedTests {
    /// The test size's truths, packed.
    pub fn pack(size: &TestSize) -> Self {
        let frames = size.truth.first().map_or(0, Vec::len);
        let n = size
            .truth
            .first()
            .and_then(|t| t.first())
            .map_or(0, Vec::len);
        Self {
            scale: size.scale,
            shape: [size.truth.len(), frames, n],
            truth: Packed::f64s(
                &size
                    .truth
                    .iter()
                    .flatten()
                    .flatten()
                    .copied()
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// The test size's truths, unpacked (in words, why they do not decode).
    pub fn unpack(&self) -> Result<TestSize, String> {
        let [tests, frames, n] = self.shape;
        let values = self.truth.to_f64s()?;
        if values.len() != tests * frames * n {
            return Err(format!(
                "{} truth values for a shape {tests}×{frames}×{n}",
                values.len()
            ));
        }
        Ok(TestSize {
            scale: self.scale,
            truth: values
                .chunks(frames.max(1) * n.max(1))
                .map(|test| test.chunks(n.max(1)).map(<[f64]>::to_vec).collect())
                .collect(),
        })
    }
}

impl Prepared {
    /// The baseline and the samples alone (no training trajectories, no test truths): what the
    /// page keeps for the merge while the bulk travels from worker to worker as text it never
    /// reads ([`crate::study::cells::batch::DataSource::Shipped`]).
    pub fn without_bulk(&self) -> Self {
        Self {
            config_hash: self.config_hash.clone(),
            training: Vec::new(),
            tests: Vec::new(),
            baseline_tests: self.baseline_tests.clone(),
            samples: self.samples.clone(),
        }
    }

    /// Bytes of the numbers it holds (4 per training value, 8 per truth value), a measure of
    /// what shipping it costs.
    pub fn value_bytes(&self) -> usize {
        let training: usize = self.training.iter().map(|t| t.values.bytes()).sum();
        let truth: usize = self.tests.iter().map(|s| s.truth.bytes()).sum();
        training + truth
    }
}
