//! `unroll-lab site-results`: the committed runs as the published page reads them: the index
//! (`index.json`, each run's results file renamed `<id>/results.json.gz`) and each run's page
//! copy ([`page_copy`]: the weights the page cannot use dropped), gzipped, so no static host
//! has to compress them. Each copy is read back and checked to be the committed results but
//! for the dropped weights before it is kept.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use flate2::{write::GzEncoder, Compression};

use super::cells::{to_json, write_atomic};
use super::CliError;
use unroll_core::study::data::results::StudyResults;
use unroll_report::committed::CommittedIndex;
use unroll_report::page_copy::{page_copy, same_but_weights};

#[derive(Debug, Args)]
pub struct SiteResultsArgs {
    /// The committed runs' folder (its `index.json` lists them).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// The site's results folder to write (created; files in it are replaced).
    #[arg(long)]
    out: PathBuf,
}

/// Writes the index and every run's page copy, printing each copy's size beside the full file's.
pub fn site_results(args: &SiteResultsArgs) -> Result<(), CliError> {
    let index_path = args.results.join("index.json");
    let mut index = CommittedIndex::from_json(&read(&index_path)?)
        .map_err(|err| CliError::Usage(format!("{}: {err}", index_path.display())))?;
    let (mut full_bytes, mut site_bytes) = (0, 0);
    for run in &mut index.runs {
        let full_path = args.results.join(&run.results);
        let text = read(&full_path)?;
        let full = StudyResults::from_json(&text)
            .map_err(|err| CliError::Usage(format!("{}: {err}", full_path.display())))?;
        let rolls_out = full.config.system.physics().playground().is_some();
        let copy = to_json(&page_copy(&full, rolls_out))?;
        let read_back = StudyResults::from_json(&copy)
            .map_err(|err| CliError::Output(format!("{}'s page copy: {err}", run.id)))?;
        if !same_but_weights(&full, &read_back) {
            return Err(CliError::Output(format!(
                "{}'s page copy differs from its results beyond the weights",
                run.id
            )));
        }
        run.results = format!("{}/results.json.gz", run.id);
        let gzipped = gzip(copy.as_bytes())?;
        let path = args.out.join(&run.results);
        write_bytes(&path, &gzipped)?;
        println!(
            "{}: {:.2} MB → page copy {:.2} MB, gzipped {:.2} MB",
            run.id,
            megabytes(text.len()),
            megabytes(copy.len()),
            megabytes(gzipped.len())
        );
        full_bytes += text.len();
        site_bytes += gzipped.len();
    }
    write_atomic(
        &args.out.join("index.json"),
        &serde_json::to_string_pretty(&index).map_err(|e| CliError::Output(e.to_string()))?,
    )?;
    println!(
        "{} runs: {:.1} MB of results → {:.1} MB in {}",
        index.runs.len(),
        megabytes(full_bytes),
        megabytes(site_bytes),
        args.out.display()
    );
    Ok(())
}

fn megabytes(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|err| CliError::File {
        path: path.display().to_string(),
        message: err.to_string(),
    })
}

/// `bytes` gzipped at the highest level (the files are written once, read by every visitor).
fn gzip(bytes: &[u8]) -> Result<Vec<u8>, CliError> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(|err| CliError::Output(format!("gzip: {err}")))
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let fail = |err: std::io::Error| CliError::Output(format!("{}: {err}", path.display()));
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(fail)?;
    }
    std::fs::write(path, bytes).map_err(fail)
}
