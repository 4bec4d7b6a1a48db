//! `unroll-lab study slurm`: the `sbatch` scripts of a plan — a job array with one task per cell
//! (`--array=0-(n-1)%K`, the task id picks the cell) and a merge job that runs after every task
//! succeeded (`afterok`; it is cancelled when one fails, and the `status` subcommand prints the
//! one command that resubmits the failed cells with a new merge job).

use std::path::{Path, PathBuf};

use clap::Args;

use super::cells::read_plan;
use super::knobs::DeviceArg;
use super::CliError;
use unroll_core::backend::NativeDevice;
use unroll_core::study::cells::plan::StudyPlan;

/// The job array's script in the output directory.
const CELLS_SCRIPT: &str = "cells.sbatch";
/// The merge job's script in the output directory.
const MERGE_SCRIPT: &str = "merge.sbatch";

#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The plan file.
    #[arg(long)]
    plan: PathBuf,
    /// The output directory (cells, scripts, logs and the merged results.json).
    #[arg(long)]
    out: PathBuf,
    /// Slurm partition (the cluster's default when absent).
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per cell, in Slurm's format (e.g. 02:00:00); by default three times the
    /// plan's largest cell estimate plus 10 minutes, or 4 hours without an estimate.
    #[arg(long)]
    time: Option<String>,
    /// CPUs per cell.
    #[arg(long, default_value_t = 1)]
    cpus: usize,
    /// GPUs per cell (`#SBATCH --gpus-per-task`); needs `--device wgpu` (or cuda), which the
    /// cells then train on.
    #[arg(long, default_value_t = 0)]
    gpus_per_task: usize,
    #[command(flatten)]
    device: DeviceArg,
    /// Most cells running at once (`%K` of the array).
    #[arg(long, default_value_t = 16)]
    max_parallel: usize,
    /// The unroll-lab binary the jobs run (this one by default); must exist on the nodes.
    #[arg(long)]
    binary: Option<PathBuf>,
}

fn absolute(path: &Path) -> Result<PathBuf, CliError> {
    std::path::absolute(path).map_err(|err| CliError::Usage(format!("{}: {err}", path.display())))
}

/// `path` quoted for a POSIX shell.
fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Slurm's `HH:MM:SS` (days as extra hours).
fn slurm_time(secs: f64) -> String {
    let secs = secs.max(60.0).ceil() as u64;
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The default time limit per cell.
fn default_time(plan: &StudyPlan) -> String {
    let largest = plan
        .cells
        .iter()
        .filter_map(|c| c.estimated_secs)
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
    largest.map_or("04:00:00".to_string(), |s| slurm_time(3.0 * s + 600.0))
}

/// Indices as Slurm array ranges: `[0, 1, 2, 5, 7, 8]` → `0-2,5,7-8`.
pub fn array_ranges(indices: &[usize]) -> String {
    let mut sorted = indices.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        while i + 1 < sorted.len() && sorted[i + 1] == sorted[i] + 1 {
            i += 1;
        }
        out.push(if sorted[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", sorted[i])
        });
        i += 1;
    }
    out.join(",")
}

/// The commands that submit the array (all of it, or `--array=ARRAY`) and a merge job after it.
fn submit_commands(dir: &Path, array: Option<&str>) -> String {
    let array = array.map(|a| format!(" --array={a}")).unwrap_or_default();
    format!(
        "jid=$(sbatch --parsable{array} {}) && sbatch --dependency=afterok:$jid {}",
        quote(&dir.join(CELLS_SCRIPT)),
        quote(&dir.join(MERGE_SCRIPT)),
    )
}

/// The resubmission command of the cells `array` (with the throttle of the written script),
/// when `dir` holds the scripts.
pub fn resubmit_command(dir: &Path, array: &str) -> Option<String> {
    let dir = absolute(dir).ok()?;
    let script = std::fs::read_to_string(dir.join(CELLS_SCRIPT)).ok()?;
    let throttle = script
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .and_then(|a| a.split_once('%'))
        .map(|(_, k)| format!("%{k}"))
        .unwrap_or_default();
    Some(submit_commands(&dir, Some(&format!("{array}{throttle}"))))
}

/// The job array's script.
fn cells_script(plan: &StudyPlan, args: &SlurmArgs, paths: &Paths) -> String {
    let mut lines = vec![
        "#!/bin/bash".to_string(),
        format!("#SBATCH --job-name=unroll-lab-{}", plan.hash),
        format!(
            "#SBATCH --array=0-{}%{}",
            plan.cells.len() - 1,
            args.max_parallel.max(1)
        ),
        format!("#SBATCH --cpus-per-task={}", args.cpus.max(1)),
    ];
    if args.gpus_per_task > 0 {
        lines.push(format!("#SBATCH --gpus-per-task={}", args.gpus_per_task));
    }
    lines.extend([
        format!(
            "#SBATCH --time={}",
            args.time.clone().unwrap_or_else(|| default_time(plan))
        ),
        format!("#SBATCH --output={}/logs/cell-%a.out", paths.dir.display()),
    ]);
    if let Some(partition) = &args.partition {
        lines.push(format!("#SBATCH --partition={partition}"));
    }
    let device = match args.device.device {
        NativeDevice::Cpu => String::new(),
        other => format!(" --device {}", other.name()),
    };
    lines.extend([
        format!(
            "# {} cells of study plan {}; the task id picks the cell.",
            plan.cells.len(),
            plan.hash
        ),
        "set -euo pipefail".to_string(),
        format!(
            "exec {} study run-cell --plan {} --cell \"$SLURM_ARRAY_TASK_ID\" --out {}{device}",
            quote(&paths.binary),
            quote(&paths.plan),
            quote(&paths.dir)
        ),
    ]);
    lines.join("\n") + "\n"
}

/// The merge job's script.
fn merge_script(plan: &StudyPlan, args: &SlurmArgs, paths: &Paths) -> String {
    let mut lines = vec![
        "#!/bin/bash".to_string(),
        format!("#SBATCH --job-name=unroll-lab-{}-merge", plan.hash),
        "#SBATCH --cpus-per-task=1".to_string(),
        "#SBATCH --time=00:30:00".to_string(),
        "#SBATCH --kill-on-invalid-dep=yes".to_string(),
        format!("#SBATCH --output={}/logs/merge.out", paths.dir.display()),
    ];
    if let Some(partition) = &args.partition {
        lines.push(format!("#SBATCH --partition={partition}"));
    }
    lines.extend([
        "set -euo pipefail".to_string(),
        format!(
            "exec {} study merge --plan {} --out {} --csv {} {}",
            quote(&paths.binary),
            quote(&paths.plan),
            quote(&paths.dir.join("results.json")),
            quote(&paths.dir.join("results.csv")),
            quote(&paths.dir)
        ),
    ]);
    lines.join("\n") + "\n"
}

/// Absolute paths the jobs use.
struct Paths {
    binary: PathBuf,
    plan: PathBuf,
    dir: PathBuf,
}

pub fn slurm(args: &SlurmArgs) -> Result<(), CliError> {
    let plan = read_plan(&args.plan)?;
    if let Some(time) = &args.time {
        let valid = !time.is_empty()
            && time
                .chars()
                .all(|c| c.is_ascii_digit() || c == ':' || c == '-');
        if !valid {
            return Err(CliError::Usage(format!(
                "--time must be in Slurm's format (e.g. 02:00:00 or 1-00:00:00), got '{time}'"
            )));
        }
    }
    if args.gpus_per_task > 0 && args.device.device == NativeDevice::Cpu {
        return Err(CliError::Usage(
            "--gpus-per-task needs a GPU device for the cells: add --device wgpu (the binary \
             built with --features gpu)"
                .to_string(),
        ));
    }
    let binary = match &args.binary {
        Some(path) => absolute(path)?,
        None => std::env::current_exe()
            .map_err(|err| CliError::Usage(format!("cannot locate this binary: {err}")))?,
    };
    let paths = Paths {
        binary,
        plan: absolute(&args.plan)?,
        dir: absolute(&args.out)?,
    };
    std::fs::create_dir_all(paths.dir.join("logs"))
        .map_err(|err| CliError::Output(format!("{}: {err}", paths.dir.display())))?;
    for (name, text) in [
        (CELLS_SCRIPT, cells_script(&plan, args, &paths)),
        (MERGE_SCRIPT, merge_script(&plan, args, &paths)),
    ] {
        let path = paths.dir.join(name);
        std::fs::write(&path, text)
            .map_err(|err| CliError::Output(format!("{}: {err}", path.display())))?;
    }
    println!(
        "wrote {} ({} cells) and {}; submit both with:",
        paths.dir.join(CELLS_SCRIPT).display(),
        plan.cells.len(),
        paths.dir.join(MERGE_SCRIPT).display()
    );
    println!("{}", submit_commands(&paths.dir, None));
    println!(
        "then: unroll-lab study status --plan {} {}",
        quote(&paths.plan),
        quote(&paths.dir)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_become_slurm_ranges() {
        assert_eq!(array_ranges(&[7, 0, 1, 2, 5, 8]), "0-2,5,7-8");
        assert_eq!(array_ranges(&[3]), "3");
        assert_eq!(array_ranges(&[]), "");
    }

    #[test]
    fn times_are_slurm_durations() {
        assert_eq!(slurm_time(59.0), "00:01:00");
        assert_eq!(slurm_time(3661.2), "01:01:02");
        assert_eq!(slurm_time(90000.0), "25:00:00");
    }

    #[test]
    fn paths_are_shell_quoted() {
        assert_eq!(quote(Path::new("/a b/it's")), r"'/a b/it'\''s'");
    }
}
