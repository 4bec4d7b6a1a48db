//! The one-command `study`'s work directory, beside its output (`results.json.cells/`) or where
//! `--work` names it: the plan, each finished cell's result and each running training's
//! checkpoint, written as `study plan` and `run-cell` write them, and the seconds the earlier
//! runs took. Run again with the same arguments, the study finds its plan there and resumes:
//! the done cells are kept, the checkpointed trainings go on from their last save, the rest
//! start. Once every cell is done they are merged into the results (what `study merge` writes)
//! and the directory is removed.

use std::path::{Path, PathBuf};

use super::cells::{read_plan, read_states, to_json, write_atomic};
use super::checkpoints::checkpoint_holding;
use super::CliError;
use unroll_core::study::cells::merge::{self, CellState};
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::study::data::results::StudyResults;

/// A study's work directory, opened for its plan.
pub struct StudyWork {
    /// The directory.
    pub dir: PathBuf,
}

impl StudyWork {
    /// The work directory of `plan`, whose results go to `out`: `work`, else `out` with
    /// `.cells` appended. Made with the plan where there is none; where it holds this plan, what
    /// is done and saved is said on stderr; where it holds another plan, a usage error (nothing
    /// is removed).
    pub fn open(out: &Path, work: Option<&Path>, plan: &StudyPlan) -> Result<Self, CliError> {
        let dir = work.map_or_else(|| beside(out), Path::to_path_buf);
        let this = Self { dir };
        let plan_path = this.plan_path();
        if !plan_path.exists() {
            std::fs::create_dir_all(&this.dir).map_err(|err| {
                CliError::Usage(format!("cannot make {}: {err}", this.dir.display()))
            })?;
            write_atomic(&plan_path, &to_json(plan)?)?;
            eprintln!(
                "the study's cells and checkpoints go to {} (a rerun resumes from them; removed \
                 once the results are written)",
                this.dir.display()
            );
            return Ok(this);
        }
        let held = read_plan(&plan_path)?;
        if held.hash != plan.hash {
            return Err(CliError::Usage(format!(
                "{} holds the cells of another study (plan {}; this one is {}): rerun that \
                 study with its arguments to finish it, or remove the directory, or pass \
                 --work DIR",
                this.dir.display(),
                held.hash,
                plan.hash
            )));
        }
        eprintln!("{}", this.resuming(plan)?);
        Ok(this)
    }

    /// `resuming the study in DIR: 3 of 8 cells done, 2 checkpointed (at iterations 40, 20 of
    /// 60)`.
    fn resuming(&self, plan: &StudyPlan) -> Result<String, CliError> {
        let done = plan.cells.len() - self.todo(plan)?.len();
        let saved: Vec<String> = (0..plan.cells.len())
            .filter_map(|cell| match checkpoint_holding(plan, cell, &self.dir) {
                Ok(Some((holder, c))) if holder == cell => Some(format!(
                    "cell {cell} at iteration {} of {}",
                    c.training.trainer.iteration,
                    plan.cells[cell].config.total_iterations()
                )),
                _ => None,
            })
            .collect();
        let saved = match saved.len() {
            0 => String::new(),
            _ => format!(", checkpointed: {}", saved.join(", ")),
        };
        Ok(format!(
            "resuming the study in {}: {done} of {} cells done{saved}",
            self.dir.display(),
            plan.cells.len()
        ))
    }

    /// The cells not done yet, in plan order (a failed cell runs again).
    pub fn todo(&self, plan: &StudyPlan) -> Result<Vec<usize>, CliError> {
        let states = read_states(plan, &self.dir)?;
        let mut todo = Vec::new();
        for (cell, state) in states.iter().enumerate() {
            match state {
                CellState::Done(_) => {}
                CellState::Missing | CellState::Failed(_) => todo.push(cell),
                other => {
                    let why = other.problem().unwrap_or_default();
                    return Err(CliError::Usage(format!(
                        "cell {cell} in {} is in the way ({why}): remove the directory",
                        self.dir.display()
                    )));
                }
            }
        }
        Ok(todo)
    }

    /// The seconds the earlier runs of this study took, then `secs` more are added for the
    /// next run to read (a failed write only costs the total's accuracy, and says so).
    pub fn add_seconds(&self, secs: f64) -> f64 {
        let path = self.dir.join("wall_secs");
        let before: f64 = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(0.0);
        if let Err(err) = write_atomic(&path, &format!("{}\n", before + secs)) {
            eprintln!("could not keep the study's time so far: {err}");
        }
        before
    }

    /// Every cell merged into the results (what `study merge` writes).
    pub fn merge(&self, plan: &StudyPlan) -> Result<StudyResults, CliError> {
        let states = read_states(plan, &self.dir)?;
        merge::merge(plan, plan.config.system.physics(), &states, false)
            .map_err(|err| CliError::Merge(err.to_string()))
    }

    /// Removes the directory once the results are written.
    pub fn remove(self) {
        if let Err(err) = std::fs::remove_dir_all(&self.dir) {
            eprintln!("could not remove {}: {err}", self.dir.display());
        }
    }

    fn plan_path(&self) -> PathBuf {
        self.dir.join("plan.json")
    }
}

/// `results.json` → `results.json.cells`.
fn beside(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".cells");
    PathBuf::from(name)
}
