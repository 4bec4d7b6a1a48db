//! A study cut into cells (one training and its evaluation each) for clusters and worker pools:
//! its counted [`cost`] before it runs, the [`plan::StudyPlan`] listing every cell under the
//! study's identity, what a [`cell`] leaves on record (result, failure, checkpoint), a
//! [`batch::CellBatch`] running some cells in one place through the run's `Driver`, and the
//! [`merge`] of the cells back into exactly the one-process study's results; a cell another
//! plan already ran is [`adopt`]ed. Imports the rooms
//! above it ([`crate::system`], [`super::data`], [`super::run`]).

pub mod adopt;
pub mod batch;
pub mod cell;
pub mod cost;
pub mod merge;
pub mod plan;
