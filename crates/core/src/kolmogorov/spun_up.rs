//! The shipped spun-up states: the exact f64 spectra of the study's 128² runs at the coarse
//! frames its data start from — each training run at its spin-up's end (t = 50), each test
//! window's start of the long test runs — one file each under [`FOLDER`], served beside the page
//! and read from the checkout natively. Making a study's data then steps each run on from its
//! shipped state instead of from the seeded field (the spin-up alone is 10,000 fine steps per
//! run). The files hold the solver's own spectra, so the data are the same either way: a test
//! steps the probe state ([`PROBE_FRAME`]) from scratch and compares it bit for bit, and
//! `unroll-lab assets` makes them all again.
//!
//! File format (little-endian): the 8 bytes [`MAGIC`], the run (`u32` resolution N, `f64` Re,
//! `f64` fine dt, `f64` forcing amplitude, `u64` seed), `u64` coarse frame, then N² complex
//! values as (`f64` re, `f64` im), row-major `[ky][kx]` as [`super::fft2::Fft2`] lays them out.

use std::sync::{Mutex, OnceLock};

use num_complex::Complex64;

use super::config::{TEST_REYNOLDS, TRAIN_REYNOLDS};
use super::preset::{PAPER_SPINUP_FRAMES, TESTS_PER_RE};
use super::run::{test_start, training_seed, Run, TEST_SEED, TRAIN_SEED};
use super::KolmogorovError;
use crate::train::config::TrainDataConfig;
use crate::types::EvalConfig;

/// The folder of the shipped states, relative to the site root and to the checkout.
pub const FOLDER: &str = "static/kolmogorov";
/// The first bytes of a state file.
pub const MAGIC: &[u8; 8] = b"ULKSPUN1";
/// The frame of the probe: the first training run's state after 2 coarse frames (8 fine steps),
/// cheap to make again, so a test can check that the files are this solver's.
pub const PROBE_FRAME: usize = 2;
/// Bytes before the spectrum.
const HEADER_BYTES: usize = 8 + Run::BYTES + 8;

/// A run's spectrum at one coarse frame.
#[derive(Debug, Clone, PartialEq)]
pub struct SpunUpState {
    /// The run.
    pub run: Run,
    /// The coarse frame (Δt = 0.02 each) of the state.
    pub frame: usize,
    /// The spectrum `[N²]`.
    pub spectrum: Vec<Complex64>,
}

/// The path of the file of `run`'s state at `frame`, relative to the site root.
pub fn path_of(run: &Run, frame: usize) -> String {
    format!(
        "{FOLDER}/re{}-seed{}-frame{frame}.bin",
        run.reynolds, run.seed
    )
}

impl SpunUpState {
    /// The file's bytes (the module's format).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + 16 * self.spectrum.len());
        out.extend_from_slice(MAGIC);
        self.run.encode(&mut out);
        out.extend_from_slice(&(self.frame as u64).to_le_bytes());
        for z in &self.spectrum {
            out.extend_from_slice(&z.re.to_le_bytes());
            out.extend_from_slice(&z.im.to_le_bytes());
        }
        out
    }

    /// The state of a file's bytes; an error says what is wrong with them.
    pub fn decode(bytes: &[u8]) -> Result<Self, KolmogorovError> {
        let bad = |why: String| KolmogorovError::BadStateFile(why);
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(bad(format!(
                "not a spun-up state file ({} bytes, expected the header {:?})",
                bytes.len(),
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let f64_at = |at: usize| f64::from_bits(u64_at(at));
        let run = Run::decode(&bytes[8..]).expect("the header's length is checked");
        let resolution = run.resolution;
        let frame = u64_at(44) as usize;
        let modes = resolution * resolution;
        if bytes.len() != HEADER_BYTES + 16 * modes {
            return Err(bad(format!(
                "a {resolution}² state has {} bytes, this file {}",
                HEADER_BYTES + 16 * modes,
                bytes.len()
            )));
        }
        let spectrum = (0..modes)
            .map(|m| {
                let at = HEADER_BYTES + 16 * m;
                Complex64::new(f64_at(at), f64_at(at + 8))
            })
            .collect::<Vec<_>>();
        if spectrum
            .iter()
            .any(|z| !z.re.is_finite() || !z.im.is_finite())
        {
            return Err(bad("the spectrum holds a value that is not finite".into()));
        }
        Ok(Self {
            run,
            frame,
            spectrum,
        })
    }
}

/// The installed states.
static INSTALLED: Mutex<Vec<SpunUpState>> = Mutex::new(Vec::new());

/// Installs a state file's bytes: data made from then on start from it where it helps.
pub fn install(bytes: &[u8]) -> Result<(), KolmogorovError> {
    let state = SpunUpState::decode(bytes)?;
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    installed.retain(|s| !(s.run == state.run && s.frame == state.frame));
    installed.push(state);
    Ok(())
}

/// Natively, installs every state file of the checkout's [`FOLDER`] once (a file that does not
/// read or decode is skipped: the data are then made from the seeded field). In the browser the
/// worker fetches and installs the files a study needs ([`needed`]).
fn install_from_checkout() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        for_each_checkout_file(FOLDER, |bytes| {
            let _ = install(bytes);
        })
    });
}

/// Natively, calls `each` with the bytes of every file of the checkout's `folder` (relative to
/// the repository root) that reads; in the browser, nothing.
pub(super) fn for_each_checkout_file(folder: &str, each: impl Fn(&[u8])) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let folder =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(folder);
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in entries.flatten() {
            if let Ok(bytes) = std::fs::read(entry.path()) {
                each(&bytes);
            }
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (folder, each);
}

/// The latest installed state of `run` at or before `frame`: its frame and spectrum.
pub(super) fn shipped_at_most(run: &Run, frame: usize) -> Option<(usize, Vec<Complex64>)> {
    install_from_checkout();
    let installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    installed
        .iter()
        .filter(|s| s.run == *run && s.frame <= frame)
        .max_by_key(|s| s.frame)
        .map(|s| (s.frame, s.spectrum.clone()))
}

/// The runs and frames of the shipped states: each training run at the paper's spin-up, each
/// of the paper's test starts of the two long test runs, and the probe.
pub fn shipped() -> Result<Vec<(Run, usize)>, KolmogorovError> {
    let mut out = training_starts(&TRAIN_REYNOLDS, PAPER_SPINUP_FRAMES)?;
    out.extend(test_starts(
        &TEST_REYNOLDS,
        0,
        PAPER_SPINUP_FRAMES,
        TESTS_PER_RE,
    )?);
    out.push((Run::study(TRAIN_REYNOLDS[0], TRAIN_SEED)?, PROBE_FRAME));
    Ok(out)
}

/// The first frame of each training run at `reynolds` (seeded as the data seed them:
/// [`super::run::training_seed`]).
pub fn training_starts(
    reynolds: &[f64],
    spinup_frames: usize,
) -> Result<Vec<(Run, usize)>, KolmogorovError> {
    reynolds
        .iter()
        .enumerate()
        .map(|(index, &re)| Ok((Run::study(re, training_seed(re, index))?, spinup_frames)))
        .collect()
}

/// The start of each of `tests` test windows of the long test run of each Reynolds number.
pub fn test_starts(
    reynolds: &[f64],
    test_seed: u64,
    start: usize,
    tests: usize,
) -> Result<Vec<(Run, usize)>, KolmogorovError> {
    let mut out = Vec::new();
    for (size, &re) in reynolds.iter().enumerate() {
        let run = Run::study(re, TEST_SEED + test_seed + 100 * size as u64)?;
        out.extend((0..tests).map(|test| (run, test_start(start, test))));
    }
    Ok(out)
}

/// The shipped files among the states `wanted`: what a worker fetches before making data.
pub fn needed(wanted: &[(Run, usize)]) -> Result<Vec<String>, KolmogorovError> {
    let shipped = shipped()?;
    Ok(wanted
        .iter()
        .filter(|w| shipped.contains(w))
        .map(|(run, frame)| path_of(run, *frame))
        .collect())
}

/// The shipped files that the data of `data` (training) and `eval` (tests) start from.
pub fn needed_by(
    data: &TrainDataConfig,
    eval: &EvalConfig,
) -> Result<Vec<String>, KolmogorovError> {
    let mut wanted = training_starts(&data.scales, data.warmup_steps)?;
    wanted.extend(test_starts(
        &eval.scales,
        eval.test_seed,
        eval.start_frame,
        eval.tests_per_size,
    )?);
    needed(&wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kolmogorov::data::{coarse_frames, forget_kept};
    use crate::kolmogorov::run::Sampling;

    fn state(seed: u64, frame: usize) -> SpunUpState {
        let run = Run::study(500.0, seed).expect("run");
        SpunUpState {
            run,
            frame,
            spectrum: crate::kolmogorov::data::spectrum_from_scratch(&run, frame)
                .expect("spectrum"),
        }
    }

    /// A study run's identity is the one its solver gives.
    #[test]
    fn a_study_run_is_its_solvers_run() {
        use crate::kolmogorov::config::{FINE_DT, FINE_RESOLUTION};
        use crate::kolmogorov::SpectralSolver;
        let solver = SpectralSolver::new(FINE_RESOLUTION, 700.0, FINE_DT).expect("solver");
        let run = Run::study(700.0, 9).expect("run");
        assert_eq!(
            (run.resolution, run.reynolds, run.dt, run.forcing),
            (
                solver.resolution(),
                solver.reynolds(),
                solver.dt(),
                solver.forcing()
            )
        );
        assert!(Run::study(-1.0, 9).is_err());
    }

    #[test]
    fn a_state_file_round_trips_and_bad_bytes_say_why() {
        let made = state(31_001, 1);
        let bytes = made.encode();
        assert_eq!(bytes.len(), HEADER_BYTES + 16 * 128 * 128);
        assert_eq!(SpunUpState::decode(&bytes).expect("decodes"), made);
        let short = SpunUpState::decode(&bytes[..20]).unwrap_err().to_string();
        assert!(short.contains("not a spun-up state file"), "{short}");
        let cut = SpunUpState::decode(&bytes[..bytes.len() - 16])
            .unwrap_err()
            .to_string();
        assert!(cut.contains("128² state has"), "{cut}");
        let mut nan = bytes.clone();
        nan[HEADER_BYTES..HEADER_BYTES + 8].copy_from_slice(&f64::NAN.to_le_bytes());
        let nan = SpunUpState::decode(&nan).unwrap_err().to_string();
        assert!(nan.contains("not finite"), "{nan}");
    }

    /// Data made from an installed state equal the data made from the seeded field, and the
    /// state is really used: a wrong state under the same name changes them.
    #[test]
    fn data_from_an_installed_state_are_the_data_from_scratch() {
        let (seed, reynolds) = (31_002, 500.0);
        let run = Run::study(reynolds, seed).expect("run");
        let from_scratch =
            coarse_frames(reynolds, seed, 3, 2, Sampling::FaceAverage).expect("data");
        forget_kept(&run);
        install(&state(seed, 2).encode()).expect("install");
        let shipped = coarse_frames(reynolds, seed, 3, 2, Sampling::FaceAverage).expect("data");
        assert_eq!(shipped, from_scratch);
        forget_kept(&run);
        let mut wrong = state(seed + 1, 2);
        wrong.run = run;
        install(&wrong.encode()).expect("install");
        let changed = coarse_frames(reynolds, seed, 3, 2, Sampling::FaceAverage).expect("data");
        assert_ne!(changed, from_scratch);
    }

    /// The committed files are this solver's: the probe, stepped again from the seeded field,
    /// is equal bit for bit; every shipped state is there, with its run and frame.
    #[test]
    fn the_committed_states_are_this_solvers() {
        let folder = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let read = |path: &str| {
            let bytes = std::fs::read(folder.join(path))
                .unwrap_or_else(|e| panic!("{path}: {e} (make them: unroll-lab assets)"));
            SpunUpState::decode(&bytes).expect("decodes")
        };
        let shipped = shipped().expect("shipped");
        for (run, frame) in &shipped {
            let state = read(&path_of(run, *frame));
            assert_eq!((state.run, state.frame), (*run, *frame));
        }
        let probe = Run::study(TRAIN_REYNOLDS[0], TRAIN_SEED).expect("run");
        let again =
            crate::kolmogorov::data::spectrum_from_scratch(&probe, PROBE_FRAME).expect("probe");
        assert_eq!(read(&path_of(&probe, PROBE_FRAME)).spectrum, again);
    }

    #[test]
    fn a_study_needs_the_states_its_data_start_from() {
        let config = crate::kolmogorov::preset::config(crate::system::config::Preset::Quick, 1);
        let needed = needed_by(&config.base.data, &config.eval).expect("needed");
        // Six training runs and two tests of each of the two test Re.
        assert_eq!(needed.len(), 6 + 2 * 2, "{needed:?}");
        assert!(needed.contains(&"static/kolmogorov/re600-seed2000-frame3750.bin".to_string()));
        let mut shorter = config.base.data.clone();
        shorter.warmup_steps = 100;
        let tests_only = needed_by(&shorter, &config.eval).expect("needed");
        assert_eq!(
            tests_only.len(),
            4,
            "a spin-up that is not shipped needs no training file"
        );
    }
}
