//! The name of the paper's script the peer command runs, for the form's label. Read from the
//! command's own first line, so it names no system; a system without a script there has none.

use super::Experiment;

impl Experiment {
    /// The script the first line of [`Experiment::ks_train_command`] runs (`python X …` → `X`),
    /// or `None` when the paper has no script for this system.
    pub fn peer_script_label(&self) -> Option<String> {
        script_of(self.ks_train_command().lines.first()?)
    }
}

/// The script of a `python script.py --flag …` line.
fn script_of(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next()? == "python")
        .then(|| words.next().map(str::to_string))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::system::System;

    #[test]
    fn the_label_is_the_script_of_the_first_line() {
        assert_eq!(
            script_of("python ks_train.py --x 1"),
            Some("ks_train.py".into())
        );
        assert_eq!(script_of("import apebench"), None);
        assert_eq!(script_of(""), None);
        for system in System::ALL {
            let mut experiment = Experiment::default();
            experiment.set_system(system);
            let label = experiment.peer_script_label();
            let lines = experiment.ks_train_command().lines;
            match &label {
                Some(script) => assert!(lines[0].contains(script.as_str())),
                None => assert!(lines.is_empty(), "{system}"),
            }
        }
    }
}
