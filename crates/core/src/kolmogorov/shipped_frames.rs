//! The shipped coarse frames: the f32 32² velocity frames of the page's default Kolmogorov
//! study (the quick preset as the browser runs it: each training run's 200 frames from t = 50,
//! each test window's 251), one file per run under [`FOLDER`], served beside the page and read
//! from the checkout natively. With them the page's data cost a download instead of ≈ 8,800 fine
//! 128² steps, and the page and the CLI train and test on the same bits. They hold exactly what
//! the data paths compute (the down-sampled truth rounded to f32, as the training data and the
//! test truths store it): a test makes the first frames of every file again and compares them
//! bit for bit, and `unroll-lab assets` makes them all again.
//!
//! File format (little-endian): the 8 bytes [`MAGIC`], the run ([`Run::encode`]), `u8` sampling
//! (0 face average, 1 point-sampled), `u64` first coarse frame, `u64` frame count, then the
//! frames, each `2·32²` `f32` in the coarse state's layout.

use std::sync::{Mutex, OnceLock};

use super::run::{frame_values, Run, Sampling};
use super::spun_up::{self, test_starts, training_starts};
use super::KolmogorovError;
use crate::system::config::{Preset, StudyConfig};
use crate::train::config::TrainDataConfig;
use crate::types::EvalConfig;

/// The folder of the shipped frames, relative to the site root and to the checkout.
pub const FOLDER: &str = "static/kolmogorov/frames";
/// The first bytes of a frames file.
pub const MAGIC: &[u8; 8] = b"ULKFRAM1";
/// Bytes before the frames.
const HEADER_BYTES: usize = 8 + Run::BYTES + 1 + 8 + 8;

/// A window of coarse frames of one run: which run, how it was down-sampled, where it starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// The run.
    pub run: Run,
    /// How the 128² truth became the 32² velocity.
    pub sampling: Sampling,
    /// The first coarse frame (Δt = 0.02 each).
    pub start: usize,
    /// Frames in the window.
    pub frames: usize,
}

impl Window {
    /// Whether this window holds every frame of `wanted` (the same run and sampling).
    pub fn covers(&self, wanted: &Window) -> bool {
        self.run == wanted.run
            && self.sampling == wanted.sampling
            && self.start <= wanted.start
            && wanted.start + wanted.frames <= self.start + self.frames
    }

    /// The file's path, relative to the site root.
    pub fn path(&self) -> String {
        let sampled = match self.sampling {
            Sampling::FaceAverage => "",
            Sampling::PointSampled => "-point",
        };
        format!(
            "{FOLDER}/re{}-seed{}-from{}-{}{sampled}.bin",
            self.run.reynolds, self.run.seed, self.start, self.frames
        )
    }
}

/// A window's frames: `frames × 2·32²` f32, frame after frame.
#[derive(Debug, Clone, PartialEq)]
pub struct ShippedFrames {
    /// Which frames.
    pub window: Window,
    /// The values `[frames · 2·32²]`.
    pub values: Vec<f32>,
}

impl ShippedFrames {
    /// The file's bytes (the module's format).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + 4 * self.values.len());
        out.extend_from_slice(MAGIC);
        self.window.run.encode(&mut out);
        out.push(match self.window.sampling {
            Sampling::FaceAverage => 0,
            Sampling::PointSampled => 1,
        });
        out.extend_from_slice(&(self.window.start as u64).to_le_bytes());
        out.extend_from_slice(&(self.window.frames as u64).to_le_bytes());
        for value in &self.values {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out
    }

    /// The frames of a file's bytes; an error says what is wrong with them.
    pub fn decode(bytes: &[u8]) -> Result<Self, KolmogorovError> {
        let bad = |why: String| KolmogorovError::BadStateFile(why);
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(bad(format!(
                "not a coarse frames file ({} bytes, expected the header {:?})",
                bytes.len(),
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let run = Run::decode(&bytes[8..]).expect("the header's length is checked");
        let at = 8 + Run::BYTES;
        let sampling = match bytes[at] {
            0 => Sampling::FaceAverage,
            1 => Sampling::PointSampled,
            other => return Err(bad(format!("sampling {other} is neither 0 nor 1"))),
        };
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (start, frames) = (u64_at(at + 1) as usize, u64_at(at + 9) as usize);
        let expected = frames
            .checked_mul(4 * frame_values())
            .and_then(|b| b.checked_add(HEADER_BYTES));
        if expected != Some(bytes.len()) {
            return Err(bad(format!(
                "{frames} frames of 2·32² f32 need {} bytes, this file has {}",
                expected.map_or("more than memory".into(), |b| b.to_string()),
                bytes.len()
            )));
        }
        let values: Vec<f32> = bytes[HEADER_BYTES..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(bad("the frames hold a value that is not finite".into()));
        }
        let window = Window {
            run,
            sampling,
            start,
            frames,
        };
        Ok(Self { window, values })
    }

    /// The values of `wanted`, a window this file covers.
    fn slice(&self, wanted: &Window) -> Vec<f32> {
        let from = (wanted.start - self.window.start) * frame_values();
        self.values[from..from + wanted.frames * frame_values()].to_vec()
    }
}

/// The installed frames.
static INSTALLED: Mutex<Vec<ShippedFrames>> = Mutex::new(Vec::new());

/// Installs a frames file's bytes: data made from then on read the frames it covers.
pub fn install(bytes: &[u8]) -> Result<(), KolmogorovError> {
    let shipped = ShippedFrames::decode(bytes)?;
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    installed.retain(|s| s.window != shipped.window);
    installed.push(shipped);
    Ok(())
}

/// Natively, installs every frames file of the checkout's [`FOLDER`] once (a file that does not
/// read or decode is skipped: those data are then computed). In the browser the worker fetches
/// and installs the files a study needs ([`needed_by`]).
fn install_from_checkout() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        spun_up::for_each_checkout_file(FOLDER, |bytes| {
            let _ = install(bytes);
        })
    });
}

/// The installed values of `wanted` `[frames · 2·32²]`, when a file covers it.
pub fn installed(wanted: &Window) -> Option<Vec<f32>> {
    install_from_checkout();
    let installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    installed
        .iter()
        .find(|s| s.window.covers(wanted))
        .map(|s| s.slice(wanted))
}

/// The windows of `data`'s training runs and `eval`'s tests (each `rollout_steps + 1` frames)
/// down-sampled by `sampling`.
pub fn windows_of(
    data: &TrainDataConfig,
    eval: Option<&EvalConfig>,
    sampling: Sampling,
) -> Result<Vec<Window>, KolmogorovError> {
    let window = |(run, start): (Run, usize), frames: usize| Window {
        run,
        sampling,
        start,
        frames,
    };
    let mut out: Vec<Window> = training_starts(&data.scales, data.warmup_steps)?
        .into_iter()
        .map(|start| window(start, data.frames))
        .collect();
    if let Some(eval) = eval {
        let tests = test_starts(
            &eval.scales,
            eval.test_seed,
            eval.start_frame,
            eval.tests_per_size,
        )?;
        out.extend(
            tests
                .into_iter()
                .map(|start| window(start, eval.rollout_steps + 1)),
        );
    }
    Ok(out)
}

/// The windows that ship: the page's default Kolmogorov study (the quick preset lightened for
/// the browser), face-averaged.
pub fn shipped() -> Result<Vec<Window>, KolmogorovError> {
    let config: StudyConfig = super::preset::config(Preset::Quick, 1);
    let mut browser = config.clone();
    super::preset::lighten_for_browser(&mut browser);
    windows_of(
        &browser.base.data,
        Some(&browser.eval),
        Sampling::FaceAverage,
    )
}

/// Whether a shipped file covers `wanted`.
pub fn ships(wanted: &Window) -> bool {
    shipped().is_ok_and(|all| all.iter().any(|s| s.covers(wanted)))
}

/// The shipped files the data of `data` and `eval` down-sampled by `sampling` are read from:
/// the frames file that holds a window, else the spun-up state it starts from, if one ships.
pub fn needed_by(
    data: &TrainDataConfig,
    eval: &EvalConfig,
    sampling: Sampling,
) -> Result<Vec<String>, KolmogorovError> {
    let shipped = shipped()?;
    let (mut paths, mut computed) = (Vec::<String>::new(), Vec::new());
    for wanted in windows_of(data, Some(eval), sampling)? {
        match shipped.iter().find(|s| s.covers(&wanted)) {
            Some(file) if !paths.contains(&file.path()) => paths.push(file.path()),
            Some(_) => {}
            None => computed.push((wanted.run, wanted.start)),
        }
    }
    paths.extend(spun_up::needed(&computed)?);
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(seed: u64, start: usize, frames: usize) -> Window {
        Window {
            run: Run::study(500.0, seed).expect("run"),
            sampling: Sampling::FaceAverage,
            start,
            frames,
        }
    }

    #[test]
    fn a_frames_file_round_trips_and_bad_bytes_say_why() {
        let made = ShippedFrames {
            window: window(41_001, 3, 2),
            values: (0..2 * frame_values()).map(|i| i as f32 * 0.5).collect(),
        };
        let bytes = made.encode();
        assert_eq!(bytes.len(), HEADER_BYTES + 2 * 4 * frame_values());
        assert_eq!(ShippedFrames::decode(&bytes).expect("decodes"), made);
        let short = ShippedFrames::decode(&bytes[..20]).unwrap_err().to_string();
        assert!(short.contains("not a coarse frames file"), "{short}");
        let cut = ShippedFrames::decode(&bytes[..bytes.len() - 4])
            .unwrap_err()
            .to_string();
        assert!(cut.contains("2 frames of 2·32² f32 need"), "{cut}");
        let mut nan = bytes.clone();
        nan[HEADER_BYTES..HEADER_BYTES + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let nan = ShippedFrames::decode(&nan).unwrap_err().to_string();
        assert!(nan.contains("not finite"), "{nan}");
        let mut sampling = bytes;
        sampling[8 + Run::BYTES] = 7;
        let sampling = ShippedFrames::decode(&sampling).unwrap_err().to_string();
        assert!(sampling.contains("sampling 7"), "{sampling}");
    }

    #[test]
    fn a_window_covers_its_own_frames_of_its_own_run_only() {
        let file = window(41_002, 10, 5);
        assert!(file.covers(&window(41_002, 10, 5)));
        assert!(file.covers(&window(41_002, 11, 3)));
        assert!(!file.covers(&window(41_002, 9, 2)), "starts before");
        assert!(!file.covers(&window(41_002, 12, 4)), "ends after");
        assert!(!file.covers(&window(41_003, 10, 5)), "another run");
        let point = Window {
            sampling: Sampling::PointSampled,
            ..file
        };
        assert!(!file.covers(&point), "another sampling");
    }

    /// Installed frames are what the data read; a sub-window reads its own slice.
    #[test]
    fn installed_frames_are_read_by_window() {
        let file = ShippedFrames {
            window: window(41_004, 20, 3),
            values: (0..3 * frame_values()).map(|i| i as f32).collect(),
        };
        install(&file.encode()).expect("install");
        let later = installed(&window(41_004, 21, 2)).expect("covered");
        assert_eq!(later, file.values[frame_values()..]);
        assert_eq!(installed(&window(41_004, 22, 2)), None);
    }

    /// The browser's default study needs one frames file per training run and test window;
    /// data not shipped as frames need the spun-up states they start from.
    #[test]
    fn the_default_study_needs_its_files() {
        let mut config = crate::kolmogorov::preset::config(Preset::Quick, 1);
        crate::kolmogorov::preset::lighten_for_browser(&mut config);
        let (data, eval) = (&config.base.data, &config.eval);
        let needed = needed_by(data, eval, Sampling::FaceAverage).expect("needed");
        assert_eq!(needed.len(), 6 + 2 * 2, "{needed:?}");
        assert!(needed.iter().all(|p| p.starts_with(FOLDER)), "{needed:?}");
        assert!(needed.contains(&format!("{FOLDER}/re600-seed2000-from3750-251.bin")));
        let point = needed_by(data, eval, Sampling::PointSampled).expect("needed");
        assert_eq!(point, spun_up::needed_by(data, eval).expect("states"));
        let mut longer = data.clone();
        longer.frames += 1;
        let longer = needed_by(&longer, eval, Sampling::FaceAverage).expect("needed");
        let frames_files = longer.iter().filter(|p| p.starts_with(FOLDER)).count();
        assert_eq!((frames_files, longer.len()), (4, 4 + 6), "{longer:?}");
    }

    /// The committed files are this solver's: every shipped file is there, and its first two
    /// frames, made again from the shipped spun-up states, are equal bit for bit.
    #[test]
    fn the_committed_frames_are_this_solvers() {
        let folder = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        for window in shipped().expect("shipped") {
            let path = window.path();
            let bytes = std::fs::read(folder.join(&path))
                .unwrap_or_else(|e| panic!("{path}: {e} (make them: unroll-lab assets)"));
            let file = ShippedFrames::decode(&bytes).expect("decodes");
            assert_eq!(file.window, window, "{path}");
            let first = Window {
                frames: 2,
                ..window
            };
            let again = crate::kolmogorov::data::computed_frames(&first).expect("frames");
            assert!(
                again == file.values[..2 * frame_values()],
                "{path}: not this solver's"
            );
        }
    }
}
