//! A study's data and baseline made once and handed on: the training trajectories, the test
//! truths, the baseline's per-test metrics and the sample tests, as plain serialisable data
//! ([`Prepared`]). A worker pool makes them in one worker and ships them to the others, which
//! then start a [`Study`] from them ([`Study::with_prepared`]) instead of regenerating them; a
//! study started from them computes the same numbers as one that made them itself (the bulk
//! floats travel as their bytes, [`super::packed`]).

use serde::{Deserialize, Serialize};

use super::evaluate::{TestMetrics, TestSize};
use super::packed::Packed;
use super::plan::config_hash;
use super::results::SampleTest;
use super::runner::DATA_WORK;
use super::stage::Stage;
use super::Study;
use crate::numerics::types::Trajectory;

/// The data and baseline of one study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    /// [`config_hash`] of the study they were made for.
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
    fn pack(size: &TestSize) -> Self {
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

    fn unpack(&self) -> Result<TestSize, String> {
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
    /// reads ([`super::batch::DataSource::Shipped`]).
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

impl Study {
    /// True once the data and the baseline are made (the first training is next).
    pub fn data_ready(&self) -> bool {
        self.baseline.is_some()
    }

    /// The study's data and baseline, once made (`None` before).
    pub fn prepared(&self) -> Option<Prepared> {
        self.data_ready().then(|| Prepared {
            config_hash: config_hash(&self.config),
            training: self
                .training_data
                .iter()
                .map(|t| PreparedTrajectory {
                    scale: t.scale,
                    domain_size: t.domain_size,
                    resolution: t.resolution,
                    values: Packed::f32s(&t.values),
                })
                .collect(),
            tests: self.test_sets.iter().map(PreparedTests::pack).collect(),
            baseline_tests: self.baseline_tests.clone(),
            samples: self.samples.clone(),
        })
    }

    /// Starts the study from `prepared` (made for this config: the caller checks
    /// [`Prepared::config_hash`]) instead of making the data: the first training is next. Call
    /// before the first [`Self::advance`]. Fails (in words) on packed data that does not decode.
    pub fn with_prepared(mut self, prepared: Prepared) -> Result<Self, String> {
        self.training_data = prepared
            .training
            .iter()
            .map(|t| {
                Ok(Trajectory {
                    scale: t.scale,
                    domain_size: t.domain_size,
                    resolution: t.resolution,
                    values: t.values.to_f32s()?,
                })
            })
            .collect::<Result<_, String>>()?;
        self.test_sets = prepared
            .tests
            .iter()
            .map(PreparedTests::unpack)
            .collect::<Result<_, String>>()?;
        self.baseline = Some(super::aggregate::metrics(&[prepared
            .baseline_tests
            .as_slice()]));
        self.baseline_tests = prepared.baseline_tests;
        self.samples = prepared.samples;
        let sizes = self.config.eval.scales.len();
        self.work_done = DATA_WORK * (self.training_data.len() + sizes + 1) as f64;
        self.stage = Stage::NextJob { next: 0 };
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::backend;
    use crate::numerics::study::tiny_config;

    fn finished(mut study: Study) -> Study {
        let mut guard = 0;
        while !study.finished() {
            pollster::block_on(study.advance(8)).expect("advance");
            guard += 1;
            assert!(guard < 500, "does not finish");
        }
        study
    }

    /// A study started from shipped data (through JSON) gives the results of one that made
    /// them, number for number.
    #[test]
    fn a_study_from_shipped_data_matches_one_that_made_it() {
        let new = || {
            Study::new(
                tiny_config(),
                crate::numerics::system::System::physics,
                &backend::cpu(),
                Box::new(|| 0.0),
            )
            .expect("study")
        };
        let mut maker = new();
        while !maker.data_ready() {
            assert!(maker.prepared().is_none());
            pollster::block_on(maker.advance(8)).expect("advance");
        }
        let prepared = maker.prepared().expect("prepared");
        assert_eq!(prepared.config_hash, config_hash(&tiny_config()));
        assert!(prepared.value_bytes() > 0);
        let json = serde_json::to_string(&prepared).expect("json");
        let shipped: Prepared = serde_json::from_str(&json).expect("parse");
        assert_eq!(shipped, prepared);
        let receiver = new().with_prepared(shipped).expect("decodes");
        assert!(receiver.data_ready());
        assert_eq!(
            receiver.prepared().as_ref(),
            Some(&prepared),
            "unpacked as made"
        );
        let (made, received) = (
            finished(maker),
            finished(new().with_prepared(prepared).expect("decodes")),
        );
        assert_eq!(made.results(0.0), received.results(0.0));
        assert_eq!(finished(receiver).results(0.0), made.results(0.0));
    }
}
