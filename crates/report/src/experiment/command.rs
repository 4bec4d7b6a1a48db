//! The same study from the command line (`unroll-lab study …`, runnable as is: a test checks it
//! reproduces [`Experiment::study_config`]) and every deviation from the study's settings.

use super::{Experiment, Knob, KNOBS};

/// `text` as one shell word: as it is where every character is safe, else single-quoted (a
/// reader's equation carries `;`).
fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "._,:=/+-%@".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

impl Experiment {
    /// `unroll-lab study` with the preset, seeds and iterations, and a flag for every other
    /// applicable knob that differs from the preset's default, in [`KNOBS`] order.
    pub fn cli_command(&self) -> String {
        let mut command = format!(
            "unroll-lab study --preset {} --seeds {} --iterations {}",
            self.preset, self.seeds, self.iterations
        );
        let overrides = self.overrides();
        for knob in KNOBS {
            if matches!(knob, Knob::Seeds | Knob::Iterations) || !knob.applies(self) {
                continue;
            }
            if let Some(value) = overrides.get(knob) {
                command.push_str(&format!(
                    " --{} {}",
                    knob.flag(),
                    shell_word(&value.to_string())
                ));
            }
        }
        command
    }

    /// Every deviation from the study, for the label next to the Run button: the system's
    /// (solver substitutes, budgets, data) and the selection's (modes, modalities, α).
    pub fn deviations(&self) -> Vec<String> {
        let mut out = self
            .system
            .description()
            .config_deviations(&self.study_config());
        let defaults = self.preset_defaults();
        for knob in [Knob::Modes, Knob::Modalities] {
            let (ours, preset) = (knob.read(self), knob.read(&defaults));
            if ours != preset {
                out.push(format!("{} {ours} (preset: {preset})", knob.key()));
            }
        }
        if self.uses_alpha() && self.alpha != defaults.alpha {
            out.push(format!(
                "transition α {} (default {})",
                self.alpha, defaults.alpha
            ));
        }
        out
    }
}
