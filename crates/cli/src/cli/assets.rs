//! `unroll-lab assets`: makes the files the systems ship beside the page (Kolmogorov's spun-up
//! states and coarse frames), the same bytes the study's data paths would compute, into a
//! site-root folder.

use std::path::{Path, PathBuf};

use clap::Args;

use unroll_core::types::System;

use super::output::writable_dir;
use super::CliError;

#[derive(Debug, Args)]
pub struct AssetsArgs {
    /// The checkout or site root the files are written under (their paths, e.g.
    /// `static/kolmogorov/…`, are relative to it).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
}

/// Makes and writes every system's shipped files, printing each path.
pub fn assets(args: &AssetsArgs) -> Result<(), CliError> {
    writable_dir(&args.out, "out")?;
    for system in System::ALL {
        for (path, bytes) in system.physics().make_data_assets()? {
            write(&args.out, &path, &bytes)?;
            println!("{path} ({} bytes)", bytes.len());
        }
    }
    Ok(())
}

/// Writes `bytes` at `root/path`, making its folders.
fn write(root: &Path, path: &str, bytes: &[u8]) -> Result<(), CliError> {
    let target = root.join(path);
    let fail = |err: std::io::Error| CliError::Output(format!("{}: {err}", target.display()));
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder).map_err(fail)?;
    }
    std::fs::write(&target, bytes).map_err(fail)
}
