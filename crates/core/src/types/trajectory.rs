//! A stored trajectory of any system (f32 frames of flattened states), and the ground truth of
//! one test size.

/// One stored trajectory, f32, row-major `[frames, N]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The system's parameter of this trajectory (KS: the scale `s`; Kolmogorov: Re).
    pub scale: f64,
    /// Domain length (KS: `L = 8·s`; other systems: their own).
    pub domain_size: f64,
    /// Values per frame (a flattened state: KS 48 points, Kolmogorov 2·32²).
    pub resolution: usize,
    /// `frames · N` values.
    pub values: Vec<f32>,
}

impl Trajectory {
    /// Number of frames.
    pub fn frames(&self) -> usize {
        self.values.len() / self.resolution.max(1)
    }

    /// Frame `i`, shape `[N]`.
    pub fn frame(&self, i: usize) -> &[f32] {
        &self.values[i * self.resolution..(i + 1) * self.resolution]
    }

    /// Number of windows with `unroll` targets: `frames − unroll` (0 if too short).
    pub fn window_count(&self, unroll: usize) -> usize {
        self.frames().saturating_sub(unroll)
    }

    /// Window `i`: input frame `i` `[N]` and targets `i+1..=i+unroll` `[unroll, N]` (row-major);
    /// `None` when `i ≥ window_count(unroll)`.
    pub fn window(&self, i: usize, unroll: usize) -> Option<(&[f32], &[f32])> {
        if i >= self.window_count(unroll) {
            return None;
        }
        let n = self.resolution;
        Some((
            self.frame(i),
            &self.values[(i + 1) * n..(i + 1 + unroll) * n],
        ))
    }
}

/// The ground truth of one test size (a study's test set is one per parameter value):
/// `truth[test][t]` for `t = 0..=rollout_steps` (f64).
#[derive(Debug, Clone)]
pub struct TestSize {
    /// The parameter value (KS: the scale `s`).
    pub scale: f64,
    /// `[tests][rollout_steps + 1][N]`, frame 0 = the evaluation start.
    pub truth: Vec<Vec<Vec<f64>>>,
}
