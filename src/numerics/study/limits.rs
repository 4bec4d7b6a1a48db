//! The evaluation's bounds, for every system.

/// Longest accepted evaluation rollout (steps).
pub const MAX_ROLLOUT: usize = 5000;
/// Most accepted tests per test size.
pub const MAX_TESTS_PER_SIZE: usize = 100;
