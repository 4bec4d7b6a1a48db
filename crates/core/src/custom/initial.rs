//! The initial states of a reader's equation: the seeded family of smooth random states
//! ([`RandomModes`], the Burgers system's too) on the equation's grid, `θ_j = 2π·j/N`, so one
//! draw is the same function on every grid and every `L` (modes `k = m/L`).

pub use crate::random_modes::RandomModes;

/// Seed of the training states (the same for every parameter value).
pub const TRAIN_SEED: u64 = 0xC057_0001;
/// Base seed of the test states (plus the evaluation's seed and the test size).
pub const TEST_SEED: u64 = 0xC057_1000;
