//! The counted FLOPs of making a Kolmogorov study's data: the fine steps of the 128² truth
//! that are neither shipped as coarse frames ([`super::shipped_frames`]) nor covered by a
//! shipped spun-up state ([`super::spun_up`]). A fine ETDRK4 step
//! evaluates N̂ four times, each three complex 2-D FFTs (`2n` FFTs of n) and ≈ 30·n² pointwise
//! operations, plus ≈ 20·n² for the stages' combinations.

use super::config::FINE_RESOLUTION;
use super::run::{test_start, Run, Sampling, FRAME_EVERY};
use super::shipped_frames::{self, Window};
use super::spun_up::{shipped, test_starts, training_starts};
use super::KolmogorovError;
use crate::fft_count::complex_fft_flops;
use crate::train::config::TrainDataConfig;
use crate::types::EvalConfig;

/// Counted FLOPs of one fine step on `n`².
pub fn fine_step_flops(n: usize) -> f64 {
    let points = (n * n) as f64;
    let fft2 = 2.0 * n as f64 * complex_fft_flops(n);
    4.0 * (3.0 * fft2 + 30.0 * points) + 20.0 * points
}

/// Counted FLOPs of the training data of `data` and, when given, the test truths of `eval`,
/// down-sampled by `sampling`.
pub fn data_flops(
    data: &TrainDataConfig,
    eval: Option<&EvalConfig>,
    sampling: Sampling,
) -> Result<f64, KolmogorovError> {
    let shipped = shipped()?;
    let is_shipped = |run: &Run, frame: usize| shipped.contains(&(*run, frame));
    let is_downloaded = |run: Run, start: usize, frames: usize| {
        shipped_frames::ships(&Window {
            run,
            sampling,
            start,
            frames,
        })
    };
    let mut frames = 0;
    for (run, start) in training_starts(&data.scales, data.warmup_steps)? {
        if is_downloaded(run, start, data.frames) {
            continue;
        }
        let from = if is_shipped(&run, start) { start } else { 0 };
        frames += start - from + data.frames.saturating_sub(1);
    }
    if let Some(eval) = eval {
        frames += test_frames(eval, &is_shipped, &is_downloaded)?;
    }
    Ok((frames * FRAME_EVERY) as f64 * fine_step_flops(FINE_RESOLUTION))
}

/// Coarse frames stepped for the tests of `eval` that are not downloaded: each long run from
/// its latest state (a shipped test start, the previous test's end, or the seeded field) to
/// each test's end.
fn test_frames(
    eval: &EvalConfig,
    is_shipped: &dyn Fn(&Run, usize) -> bool,
    is_downloaded: &dyn Fn(Run, usize, usize) -> bool,
) -> Result<usize, KolmogorovError> {
    let mut frames = 0;
    let starts = test_starts(&eval.scales, eval.test_seed, eval.start_frame, 1)?;
    for (run, _) in starts {
        // The run's latest kept states: the previous test's start and end.
        let (mut previous_start, mut at) = (0, 0);
        for test in 0..eval.tests_per_size {
            let start = test_start(eval.start_frame, test);
            if is_downloaded(run, start, eval.rollout_steps + 1) {
                continue;
            }
            let from = match () {
                _ if is_shipped(&run, start) => start,
                _ if at <= start => at,
                _ => previous_start,
            };
            frames += start + eval.rollout_steps - from;
            (previous_start, at) = (start, start + eval.rollout_steps);
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::preset;
    use crate::system::config::Preset;

    /// The shipped states take the spin-up out: the quick study's data cost its frames alone.
    #[test]
    fn shipped_states_take_the_spin_up_out_of_the_count() {
        let config = preset::config(Preset::Quick, 1);
        let (data, eval) = (&config.base.data, &config.eval);
        let counted = data_flops(data, Some(eval), Sampling::FaceAverage).expect("count");
        // The tests of the quick study are the page's, downloaded: only training is stepped.
        let frames = 6 * (data.frames - 1);
        let expected = (frames * FRAME_EVERY) as f64 * fine_step_flops(FINE_RESOLUTION);
        assert_eq!(counted, expected);
        let point = data_flops(data, Some(eval), Sampling::PointSampled).expect("count");
        let frames = 6 * (data.frames - 1) + 2 * 2 * eval.rollout_steps;
        let expected = (frames * FRAME_EVERY) as f64 * fine_step_flops(FINE_RESOLUTION);
        assert_eq!(point, expected, "no point-sampled frames ship");
        let mut unshipped = data.clone();
        unshipped.warmup_steps += 1;
        let more = data_flops(&unshipped, None, Sampling::FaceAverage).expect("count");
        let spin_up = 6 * unshipped.warmup_steps * FRAME_EVERY;
        assert!(more > spin_up as f64 * fine_step_flops(FINE_RESOLUTION));
    }

    /// The page's default study downloads all its data: nothing is counted.
    #[test]
    fn the_page_default_study_costs_no_data() {
        let mut config = preset::config(Preset::Quick, 1);
        preset::lighten_for_browser(&mut config);
        let counted = data_flops(&config.base.data, Some(&config.eval), Sampling::FaceAverage);
        assert_eq!(counted.expect("count"), 0.0);
    }
}
