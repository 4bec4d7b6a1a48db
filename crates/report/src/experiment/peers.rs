//! The experiment for the peers' tools: the paper's own script of its system (PyTorch +
//! PhiFlow, flags as docs/src/study.md lists them) and an APEBench (`apebench.run_experiment`, trainax
//! underneath) snippet, each built by the system from the study config
//! (`SystemDescription::peer_commands`). Both are honest about what they cannot express: every
//! setting without a flag or an equivalent is listed.

use super::Experiment;
pub use unroll_core::types::{PeerCommands, PeerExport};

impl Experiment {
    /// What the system exports for its peers; `None` where the paper has no script for it.
    pub fn peer_commands(&self) -> Option<PeerCommands> {
        self.system
            .description()
            .peer_commands(&self.study_config())
    }

    /// The paper's script of this experiment's system as its repository names it
    /// (`kuramoto-sivashinsky/ks_train.py`), or `None` where the paper did not study it.
    pub fn peer_script_label(&self) -> Option<String> {
        self.peer_commands().map(|peers| peers.script.to_string())
    }

    /// The closest lines of the paper's own script (training, then evaluation where it has
    /// one); for a system the paper did not study, no line and the reason.
    pub fn paper_script_command(&self) -> PeerExport {
        match self.peer_commands() {
            Some(peers) => peers.script_export,
            None => PeerExport {
                lines: Vec::new(),
                no_flag: vec![format!(
                    "the paper has no {} study, so there is no script to run",
                    self.system.title()
                )],
            },
        }
    }

    /// An APEBench snippet (`apebench.run_experiment`, trainax trainers) for the same modes,
    /// modalities, network and budget; `None` when nothing maps (another system, a graph
    /// network, or only the transition mode).
    pub fn apebench_snippet(&self) -> Option<PeerExport> {
        self.peer_commands().and_then(|peers| peers.apebench)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::nets::Architecture;
    use unroll_core::system::config::Preset;
    use unroll_core::system::System;
    use unroll_core::train::Mode;

    #[test]
    fn the_default_experiment_maps_to_ks_train_flags() {
        let experiment = Experiment::for_preset(Preset::Quick);
        let export = experiment.paper_script_command();
        assert_eq!(export.lines.len(), experiment.modes.len() + 2);
        let predict = &export.lines[0];
        assert!(predict.starts_with("python ks_train.py --learning_task predict --network_type CNN --channels 16 --depth 10 --predhori 3 --warmup_steps 0 --batch_size 16"), "{predict}");
        assert!(
            predict.contains("--train_onestep 1 --train_nog 1 --train_wig 1"),
            "{predict}"
        );
        assert!(predict.contains("--dataset_fraction 0.08"), "{predict}");
        assert!(
            predict.contains("--lr_factor 40 --lr_gamma 0.9"),
            "{predict}"
        );
        assert!(
            export.lines[1].contains("--learning_task correct")
                && export.lines[1].contains("--detach_interval 0")
        );
        assert!(export
            .no_flag
            .iter()
            .any(|n| n.contains("decay every 40 iterations")));
        assert!(export
            .no_flag
            .iter()
            .any(|n| n.contains("ks_train.py counts whole epochs")));
    }

    #[test]
    fn the_paper_preset_needs_no_epoch_note() {
        let mut experiment = Experiment::for_preset(Preset::Quick);
        let paper = System::Ks.description().preset(Preset::Paper, 1).base;
        experiment.iterations = paper.iterations;
        experiment.learning_rates = vec![paper.optimizer.learning_rate];
        // Same data fraction as the study: 1250 of 5000 frames.
        let export = experiment.paper_script_command();
        assert!(export.lines[0].contains("--epochs_override"));
    }

    #[test]
    fn settings_without_a_flag_are_named() {
        let mut experiment = Experiment::for_preset(Preset::Quick);
        experiment.architecture = Architecture::Fno;
        experiment.modes = vec![Mode::Transition];
        experiment.alpha = 0.25;
        experiment.seeds = 3;
        let export = experiment.paper_script_command();
        assert!(export.lines[0].contains("--learning_task corr-pred-transition --dtpartial 0.25"));
        assert!(export
            .no_flag
            .iter()
            .any(|n| n.contains("architecture fno")));
        assert!(export.no_flag.iter().any(|n| n.contains("3 seeds")));
        assert_eq!(
            experiment.apebench_snippet(),
            None,
            "transition only: no APEBench task"
        );
    }

    #[test]
    fn apebench_gets_the_train_strings_of_the_modalities() {
        let experiment = Experiment::for_preset(Preset::Quick);
        let snippet = experiment.apebench_snippet().expect("snippet");
        let code = snippet.lines.join("\n");
        assert!(
            code.contains("for task in [\"predict\", \"correct;parallel\"]:"),
            "{code}"
        );
        assert!(
            code.contains("[\"one\", \"sup;3;true\", \"sup;3\"]"),
            "{code}"
        );
        assert!(code.contains("net=\"Res;16;10;relu\""), "{code}");
        assert!(
            code.contains("optim_config=\"adam;900;exp;0.004;40;0.9;True\""),
            "{code}"
        );
        assert!(snippet.no_flag.iter().any(|n| n.contains("diff_ks")));
        let mut gcn = experiment.clone();
        gcn.architecture = Architecture::Gcn;
        assert_eq!(gcn.apebench_snippet(), None);
    }

    #[test]
    fn kolmogorov_exports_kolm_train_lines() {
        let (e, _) = Experiment::from_query("system=kolmogorov");
        let export = e.paper_script_command();
        assert_eq!(export.lines.len(), 3);
        assert!(export.lines[0].starts_with("python kolm_train.py --nogradient --step_counts 1 "));
        assert!(export.lines[2].contains("--gradient --step_counts 1 2 4"));
        assert!(export.lines[2].contains("--feat_selector 0"));
        assert!(export.no_flag.iter().any(|n| n.contains("frames per Re")));
        assert!(e.apebench_snippet().is_none());
        assert_eq!(
            e.peer_script_label().as_deref(),
            Some("kolmogorov/kolm_train.py")
        );
    }

    #[test]
    fn the_script_label_is_the_systems() {
        let ks = Experiment::for_preset(Preset::Quick);
        assert_eq!(
            ks.peer_script_label().as_deref(),
            Some("kuramoto-sivashinsky/ks_train.py")
        );
        let (burgers, _) = Experiment::from_query("system=burgers");
        assert_eq!(burgers.peer_script_label(), None);
        let export = burgers.paper_script_command();
        assert!(export.lines.is_empty());
        assert_eq!(
            export.no_flag,
            vec![
                "the paper has no Viscous Burgers study, so there is no script to run".to_string()
            ]
        );
        assert!(burgers.apebench_snippet().is_none());
    }
}
