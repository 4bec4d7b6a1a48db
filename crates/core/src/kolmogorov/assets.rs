//! Making the shipped files (`unroll-lab assets`): the spun-up states ([`super::spun_up`]) and
//! the frame windows ([`super::shipped_frames`]), computed by the data path from the seeded
//! fields alone.

use super::data::{computed_frames, spectrum_from_scratch, spectrum_stepped};
use super::run::Run;
use super::shipped_frames::{self, ShippedFrames, Window};
use super::spun_up::{self, path_of, SpunUpState};
use super::KolmogorovError;

/// Makes every shipped state (each run on its own thread, its states in frame order so that
/// each steps on from the one before): `(path, bytes)` per file.
pub fn spun_up_files() -> Result<Vec<(String, Vec<u8>)>, KolmogorovError> {
    let mut runs: Vec<(Run, Vec<usize>)> = Vec::new();
    for (run, frame) in spun_up::shipped()? {
        match runs.iter_mut().find(|(r, _)| *r == run) {
            Some((_, frames)) => frames.push(frame),
            None => runs.push((run, vec![frame])),
        }
    }
    let made = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|(run, frames)| scope.spawn(move || make_run(run, frames)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a state-making thread panicked"))
            .collect::<Result<Vec<_>, _>>()
    })?;
    Ok(made.into_iter().flatten().collect())
}

/// The files of `run`'s states at `frames` (ascending), each stepped on from the one before.
fn make_run(run: &Run, frames: &[usize]) -> Result<Vec<(String, Vec<u8>)>, KolmogorovError> {
    let mut sorted = frames.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut at = 0;
    let mut spectrum = spectrum_from_scratch(run, 0)?;
    for frame in sorted {
        spectrum = spectrum_stepped(run, spectrum, frame - at)?;
        at = frame;
        let state = SpunUpState {
            run: *run,
            frame,
            spectrum: spectrum.clone(),
        };
        out.push((path_of(run, frame), state.encode()));
    }
    Ok(out)
}

/// Makes every shipped file (each on its own thread, from the shipped spun-up states):
/// `(path, bytes)` per file.
pub fn frame_files() -> Result<Vec<(String, Vec<u8>)>, KolmogorovError> {
    let windows = shipped_frames::shipped()?;
    std::thread::scope(|scope| {
        let handles: Vec<_> = windows
            .iter()
            .map(|window| scope.spawn(move || make(window)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a frames-making thread panicked"))
            .collect()
    })
}

/// The file of `window`, computed by the data path.
fn make(window: &Window) -> Result<(String, Vec<u8>), KolmogorovError> {
    let values = computed_frames(window)?;
    let file = ShippedFrames {
        window: *window,
        values,
    };
    Ok((window.path(), file.encode()))
}
