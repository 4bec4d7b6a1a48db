//! The experiment for the peers' tools: the paper's own `ks_train.py` (PyTorch + PhiFlow, flags
//! as PAPER.md lists them) and an APEBench (`apebench.run_experiment`, trainax underneath)
//! snippet. Both are honest about what they cannot express: every setting without a flag or an
//! equivalent is listed.

use super::Experiment;
use crate::numerics::nets::{resnet2d, Architecture};
use crate::numerics::study::contract::config::Preset;
use crate::numerics::system::System;
use crate::numerics::train::config::{Curriculum, TrainDataConfig};
use crate::numerics::train::preset::iterations_for_epochs;
use crate::numerics::train::{Modality, Mode};

/// Frames the study simulates per trajectory (its `--dataset_fraction` is of these).
const STUDY_FRAMES: usize = 5000;
/// ks_train.py decays the learning rate every this many iterations (no flag).
const STUDY_DECAY_EVERY: usize = 2000;

/// Commands for a peer tool and the settings they cannot carry.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerExport {
    /// The command lines or the code, one entry per line.
    pub lines: Vec<String>,
    /// Settings of this experiment without a flag or an equivalent there.
    pub no_flag: Vec<String>,
}

fn trim(value: f64) -> String {
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// ks_train.py's base learning rate of a network type (its `--lr_factor` multiplies it).
fn base_rate(architecture: Architecture) -> f64 {
    if architecture == Architecture::Gcn {
        1e-3
    } else {
        1e-4
    }
}

impl Experiment {
    /// The training data of the paper's set-up of this experiment's system.
    fn paper_data(&self) -> TrainDataConfig {
        self.system.description().preset(Preset::Paper, 1).base.data
    }

    /// The equivalent `python ks_train.py …` lines (one per mode) and `ks_eval.py` lines.
    pub fn ks_train_command(&self) -> PeerExport {
        match self.system {
            System::Ks => {}
            System::Kolmogorov => return self.kolm_train_command(),
            // A system the paper did not study has no script there.
            other => {
                return PeerExport {
                    lines: Vec::new(),
                    no_flag: vec![format!(
                        "the paper has no {} study, so there is no script to run",
                        other.title()
                    )],
                }
            }
        }
        let config = self.study_config();
        let base = &config.base;
        let mut no_flag = Vec::new();
        let network = match base.net.architecture {
            Architecture::Resnet => "CNN",
            Architecture::Gcn => "GCN",
            other => {
                no_flag.push(format!(
                    "architecture {other} (ks_train.py has CNN and GCN only; CNN shown)"
                ));
                "CNN"
            }
        };
        let horizon = base.unroll.horizon;
        let trajectories = self.system.description().training_trajectories(&base.data);
        let windows_per_epoch =
            iterations_for_epochs(trajectories, base.data.frames, horizon, base.batch, 1);
        let epochs = self.iterations as f64 / windows_per_epoch.max(1) as f64;
        let whole = epochs.round().max(1.0) as usize;
        if (epochs - whole as f64).abs() > 1e-9 {
            no_flag.push(format!(
                "{} iterations = {} epochs of this data (ks_train.py counts whole epochs: {whole} = {} iterations)",
                self.iterations,
                trim((epochs * 100.0).round() / 100.0),
                whole * windows_per_epoch
            ));
        }
        if base.optimizer.decay_every != STUDY_DECAY_EVERY {
            no_flag.push(format!(
                "learning-rate decay every {} iterations (ks_train.py: every {STUDY_DECAY_EVERY}, no flag)",
                base.optimizer.decay_every
            ));
        }
        if base.data.scales != self.paper_data().scales {
            no_flag.push(format!(
                "training domain sizes s = {} (ks_train.py's are fixed: 0.9–1.3)",
                base.data
                    .scales
                    .iter()
                    .map(|s| trim(*s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if self.seeds > 1 {
            no_flag.push(format!(
                "{} seeds: one ks_train.py run per seed (--seed 0 … {})",
                self.seeds,
                self.seeds - 1
            ));
        }
        let grid = match (config.sizes.len(), config.horizons.len()) {
            (1, 1) => None,
            (sizes, 1) => Some(format!(
                "{sizes} network sizes: one run per --channels/--depth"
            )),
            (_, horizons) => Some(format!(
                "{horizons} unroll horizons: one run per --predhori"
            )),
        };
        no_flag.extend(grid);
        let flag = |on: bool| u8::from(on);
        let modalities = format!(
            "--train_onestep {} --train_nog {} --train_wig {}",
            flag(self.modalities.contains(&Modality::One)),
            flag(self.modalities.contains(&Modality::Nog)),
            flag(self.modalities.contains(&Modality::Wig))
        );
        let mut lines = Vec::new();
        for &mode in &self.modes {
            let task = match mode {
                Mode::Predict => "predict".to_string(),
                Mode::Correct => "correct".to_string(),
                Mode::Transition => {
                    format!("corr-pred-transition --dtpartial {}", trim(self.alpha))
                }
            };
            let mut line = format!(
                "python ks_train.py --learning_task {task} --network_type {network} --channels {} --depth {} --predhori {horizon} --warmup_steps {}",
                base.net.channels, base.net.depth, base.unroll.warmup
            );
            if mode == Mode::Correct && network == "CNN" {
                line.push_str(&format!(
                    " --detach_interval {}",
                    base.unroll.detach_interval
                ));
            } else if base.unroll.detach_interval > 0 {
                no_flag.push(format!(
                    "detach interval {} in {mode} mode (ks_train.py's --detach_interval: correction + CNN only)",
                    base.unroll.detach_interval
                ));
            }
            line.push_str(&format!(
                " --batch_size {} --lr_factor {} --lr_gamma {} --dataset_fraction {} --epochs_override {whole} --seed {} {modalities} --cpu 1 --compile 0 --do_gendata 1",
                base.batch,
                trim(base.optimizer.learning_rate / base_rate(base.net.architecture)),
                trim(base.optimizer.decay),
                trim(base.data.frames as f64 / STUDY_FRAMES as f64),
                config.seeds.first().copied().unwrap_or(0),
            ));
            lines.push(line);
        }
        lines.push("python ks_eval.py --numtests 20 --horizon 12 --metric rellinf".into());
        lines.push(format!(
            "python ks_eval.py --numtests 20 --horizon {} --metric divtime",
            self.rollout
        ));
        no_flag.push(
            "evaluation: ours scores 10 tests at each of 4 test sizes; ks_eval.py's --numtests as PAPER.md lists it"
                .into(),
        );
        no_flag.push(
            "upstream ks_train.py's data generation references an undefined x (NameError): define the grid in units of 2π as its evaluation code does"
                .into(),
        );
        PeerExport { lines, no_flag }
    }

    /// The equivalent `python kolm_train.py …` lines of a Kolmogorov experiment (one per
    /// modality: ONE is the 1-step stage, NOG `--nogradient` and WIG `--gradient` the
    /// curriculum), with the settings the script has no flag for.
    pub fn kolm_train_command(&self) -> PeerExport {
        let config = self.study_config();
        let base = &config.base;
        let mut no_flag = Vec::new();
        let selector = resnet2d::PAPER_SIZES
            .iter()
            .position(|(c, d, _)| (*c, *d) == (base.net.channels, base.net.depth));
        let sizes: Vec<usize> = config
            .sizes
            .iter()
            .filter_map(|size| {
                resnet2d::PAPER_SIZES
                    .iter()
                    .position(|(c, d, _)| (*c, *d) == (size.channels, size.depth))
            })
            .collect();
        let sizes = if sizes.is_empty() {
            selector.into_iter().collect()
        } else {
            sizes
        };
        let curriculum = base.curriculum.clone().unwrap_or_else(|| Curriculum {
            horizons: vec![base.unroll.horizon],
            stage_iterations: base.iterations,
            learning_rates: vec![base.optimizer.learning_rate],
            ramp: false,
            restart: true,
        });
        let paper = self.paper_data();
        let epoch = base.data.scales.len()
            * paper
                .frames
                .saturating_sub(curriculum.horizons.last().copied().unwrap_or(1) + 1);
        let epochs = curriculum.stage_iterations as f64 / epoch.max(1) as f64;
        let whole = epochs.round().max(1.0) as usize;
        if (epochs - whole as f64).abs() > 1e-9 {
            no_flag.push(format!(
                "{} iterations per stage = {epochs:.4} epochs of 6 Re × 6000 frames (--epochs is whole: {whole} shown)",
                curriculum.stage_iterations
            ));
        }
        if base.data.frames != paper.frames {
            no_flag.push(format!(
                "{} frames per Re (the script reads its 6000-frame data set)",
                base.data.frames
            ));
        }
        if base.data.scales != paper.scales {
            no_flag.push(format!(
                "training Re {:?} (fixed in the script)",
                base.data.scales
            ));
        }
        no_flag.push("the data set DS6000.npz is made by the notebook, not by a flag".into());
        let seeds = config
            .seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let rates = |stages: usize| {
            curriculum
                .learning_rates
                .iter()
                .take(stages)
                .map(|lr| format!("{lr:e}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let steps = |one: bool| {
            curriculum
                .horizons
                .iter()
                .map(|&m| if one { 1 } else { m }.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let stages = curriculum.horizons.len();
        let mut lines = Vec::new();
        for feat in sizes {
            for modality in &self.modalities {
                let gradient = match modality {
                    Modality::One | Modality::Nog => "--nogradient",
                    Modality::Wig => "--gradient",
                };
                lines.push(format!(
                    "python kolm_train.py {gradient} --step_counts {} --start_learning_rate {} --epochs {whole} --feat_selector {feat} --batch_size {} --seeds {seeds}  # {}",
                    steps(*modality == Modality::One),
                    rates(stages),
                    base.batch,
                    modality.label()
                ));
            }
        }
        PeerExport { lines, no_flag }
    }

    /// An APEBench snippet (`apebench.run_experiment`, trainax trainers) for the same modes,
    /// modalities, network and budget; `None` when nothing maps (a graph network, or only the
    /// transition mode).
    pub fn apebench_snippet(&self) -> Option<PeerExport> {
        if self.system != System::Ks {
            return None;
        }
        let config = self.study_config();
        let base = &config.base;
        let (c, d) = (base.net.channels, base.net.depth);
        let net = base
            .net
            .architecture
            .facts()
            .apebench?
            .replace("{C}", &c.to_string())
            .replace("{D}", &d.to_string());
        let tasks: Vec<&str> = self
            .modes
            .iter()
            .filter_map(|mode| match mode {
                Mode::Predict => Some("\"predict\""),
                Mode::Correct => Some("\"correct;parallel\""),
                Mode::Transition => None,
            })
            .collect();
        if tasks.is_empty() {
            return None;
        }
        let m = base.unroll.horizon;
        let trains: Vec<String> = self
            .modalities
            .iter()
            .map(|modality| match modality {
                Modality::One => "\"one\"".to_string(),
                Modality::Nog => format!("\"sup;{m};true\""),
                Modality::Wig => format!("\"sup;{m}\""),
            })
            .collect();
        let optim = format!(
            "adam;{};exp;{};{};{};True",
            self.iterations,
            trim(base.optimizer.learning_rate),
            base.optimizer.decay_every,
            trim(base.optimizer.decay)
        );
        let lines = vec![
            "import apebench".to_string(),
            format!("for task in [{}]:", tasks.join(", ")),
            format!(
                "    for train in [{}]:  # ONE, NOG (cut_bptt), WIG",
                trains.join(", ")
            ),
            "        data, nets = apebench.run_experiment(".to_string(),
            format!("            scenario=\"diff_ks\", task=task, net=\"{net}\", train=train,"),
            format!(
                "            start_seed={}, num_seeds={}, num_points=48, batch_size={},",
                config.seeds.first().copied().unwrap_or(0),
                self.seeds,
                base.batch
            ),
            format!("            optim_config=\"{optim}\","),
            "        )".to_string(),
        ];
        let mut no_flag = vec![
            "APEBench's diff_ks is its own difficulty-scaled KS (its ICs, ETDRK reference and coarse stepper), not the study's data at L = 8·s: no domain-size input channel".to_string(),
            "its networks use 1×1 lifting and ReLU/GELU (ours: 3-tap lifting, LeakyReLU in the ResNet)".to_string(),
            "correct;parallel adds the network output unscaled (ours: ETD1 + 0.5·network)".to_string(),
            "ONE at batch ×m (the study's rule) has no switch there".to_string(),
        ];
        if base.unroll.warmup > 0 || base.unroll.detach_interval > 0 {
            no_flag.push("warm-up and detach interval have no train string".into());
        }
        if self.modes.contains(&Mode::Transition) {
            no_flag.push("the transition mode has no APEBench task".into());
        }
        Some(PeerExport { lines, no_flag })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::study::contract::config::Preset;

    #[test]
    fn the_default_experiment_maps_to_ks_train_flags() {
        let experiment = Experiment::for_preset(Preset::Quick);
        let export = experiment.ks_train_command();
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
        let export = experiment.ks_train_command();
        assert!(export.lines[0].contains("--epochs_override"));
    }

    #[test]
    fn settings_without_a_flag_are_named() {
        let mut experiment = Experiment::for_preset(Preset::Quick);
        experiment.architecture = Architecture::Fno;
        experiment.modes = vec![Mode::Transition];
        experiment.alpha = 0.25;
        experiment.seeds = 3;
        let export = experiment.ks_train_command();
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
        let export = e.ks_train_command();
        assert_eq!(export.lines.len(), 3);
        assert!(export.lines[0].starts_with("python kolm_train.py --nogradient --step_counts 1 "));
        assert!(export.lines[2].contains("--gradient --step_counts 1 2 4"));
        assert!(export.lines[2].contains("--feat_selector 0"));
        assert!(export.no_flag.iter().any(|n| n.contains("frames per Re")));
        assert!(e.apebench_snippet().is_none());
    }
}
