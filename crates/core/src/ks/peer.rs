//! A KS study as its peers would run it: the paper's `ks_train.py` / `ks_eval.py` lines
//! (PyTorch and PhiFlow, flags as docs/src/study.md lists them) and an APEBench snippet
//! (`apebench.run_experiment`, trainax underneath), each with every setting that has no flag or
//! equivalent there.

use crate::nets::Architecture;
use crate::system::config::{Preset, StudyConfig};
use crate::system::description::SystemDescription;
use crate::train::epochs::mean_epoch_iterations;
use crate::train::{Modality, Mode};
use crate::types::peer_export::flag_number as trim;
use crate::types::{PeerCommands, PeerExport};

/// The paper's training script, as its repository names it.
pub const SCRIPT: &str = "kuramoto-sivashinsky/ks_train.py";
/// Frames the study simulates per trajectory (its `--dataset_fraction` is of these).
const STUDY_FRAMES: usize = 5000;
/// ks_train.py decays the learning rate every this many iterations (no flag).
const STUDY_DECAY_EVERY: usize = 2000;

/// Both exports of a KS study `config`.
pub fn peer_commands(system: &dyn SystemDescription, config: &StudyConfig) -> PeerCommands {
    PeerCommands {
        script: SCRIPT,
        script_export: ks_train_command(system, config),
        apebench: apebench_snippet(config),
    }
}

/// ks_train.py's base learning rate of a network type (its `--lr_factor` multiplies it).
fn base_rate(architecture: Architecture) -> f64 {
    if architecture == Architecture::Gcn {
        1e-3
    } else {
        1e-4
    }
}

/// ks_train.py's `--network_type` for `architecture` (CNN where it has none).
fn network_type(architecture: Architecture, no_flag: &mut Vec<String>) -> &'static str {
    match architecture {
        Architecture::Resnet => "CNN",
        Architecture::Gcn => "GCN",
        other => {
            no_flag.push(format!(
                "architecture {other} (ks_train.py has CNN and GCN only; CNN shown)"
            ));
            "CNN"
        }
    }
}

/// The budget in ks_train.py's whole epochs (`--epochs_override`), noting a rounding.
fn whole_epochs(
    system: &dyn SystemDescription,
    config: &StudyConfig,
    no_flag: &mut Vec<String>,
) -> usize {
    let base = &config.base;
    let per_size = system.training_trajectories(&base.data) / base.data.scales.len().max(1);
    let span = base.unroll.warmup + base.unroll.horizon;
    let (frames, sizes) = (base.data.frames, base.data.scales.len());
    let epoch = mean_epoch_iterations(sizes, per_size, frames, span, base.batch, 16);
    let epochs = base.iterations as f64 / epoch.max(1.0);
    let whole = epochs.round().max(1.0) as usize;
    if (epochs - whole as f64).abs() > 0.01 {
        no_flag.push(format!(
            "{} iterations = {} epochs of this data (ks_train.py counts whole epochs: {whole} ≈ {} iterations)",
            base.iterations,
            trim((epochs * 100.0).round() / 100.0),
            (whole as f64 * epoch).round()
        ));
    }
    whole
}

/// The settings of `config` that ks_train.py fixes: decay interval, domain sizes, seeds, grid.
fn fixed_settings(system: &dyn SystemDescription, config: &StudyConfig, no_flag: &mut Vec<String>) {
    let base = &config.base;
    if base.optimizer.decay_every != STUDY_DECAY_EVERY {
        no_flag.push(format!(
            "learning-rate decay every {} iterations (ks_train.py: every {STUDY_DECAY_EVERY}, no flag)",
            base.optimizer.decay_every
        ));
    }
    if base.data.scales != system.preset(Preset::Paper, 1).base.data.scales {
        let scales: Vec<String> = base.data.scales.iter().map(|s| trim(*s)).collect();
        no_flag.push(format!(
            "training domain sizes s = {} (ks_train.py's are fixed: 0.9–1.3)",
            scales.join(", ")
        ));
    }
    let seeds = config.seeds.len();
    if seeds > 1 {
        no_flag.push(format!(
            "{seeds} seeds: one ks_train.py run per seed (--seed 0 … {})",
            seeds - 1
        ));
    }
    no_flag.extend(match (config.sizes.len(), config.horizons.len()) {
        (1, 1) => None,
        (sizes, 1) => Some(format!(
            "{sizes} network sizes: one run per --channels/--depth"
        )),
        (_, horizons) => Some(format!(
            "{horizons} unroll horizons: one run per --predhori"
        )),
    });
}

/// The `python ks_train.py …` line of `mode`.
fn train_line(
    config: &StudyConfig,
    mode: Mode,
    network: &str,
    whole: usize,
    no_flag: &mut Vec<String>,
) -> String {
    let base = &config.base;
    let task = match mode {
        Mode::Predict => "predict".to_string(),
        Mode::Correct => "correct".to_string(),
        Mode::Transition => format!("corr-pred-transition --dtpartial {}", trim(base.alpha)),
    };
    let mut line = format!(
        "python ks_train.py --learning_task {task} --network_type {network} --channels {} --depth {} --predhori {} --warmup_steps {}",
        base.net.channels, base.net.depth, base.unroll.horizon, base.unroll.warmup
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
    let flag = |modality| u8::from(config.modalities.contains(&modality));
    line.push_str(&format!(
        " --batch_size {} --lr_factor {} --lr_gamma {} --dataset_fraction {} --epochs_override {whole} --seed {} --train_onestep {} --train_nog {} --train_wig {} --cpu 1 --compile 0 --do_gendata 1",
        base.batch,
        trim(base.optimizer.learning_rate / base_rate(base.net.architecture)),
        trim(base.optimizer.decay),
        trim(base.data.frames as f64 / STUDY_FRAMES as f64),
        config.seeds.first().copied().unwrap_or(0),
        flag(Modality::One),
        flag(Modality::Nog),
        flag(Modality::Wig),
    ));
    line
}

/// The equivalent `python ks_train.py …` lines (one per mode) and `ks_eval.py` lines.
fn ks_train_command(system: &dyn SystemDescription, config: &StudyConfig) -> PeerExport {
    let mut no_flag = Vec::new();
    let network = network_type(config.base.net.architecture, &mut no_flag);
    let whole = whole_epochs(system, config, &mut no_flag);
    fixed_settings(system, config, &mut no_flag);
    let mut lines: Vec<String> = config
        .modes
        .iter()
        .map(|&mode| train_line(config, mode, network, whole, &mut no_flag))
        .collect();
    lines.push("python ks_eval.py --numtests 20 --horizon 12 --metric rellinf".into());
    lines.push(format!(
        "python ks_eval.py --numtests 20 --horizon {} --metric divtime",
        config.eval.rollout_steps
    ));
    no_flag.push(
        "evaluation: ours scores 10 tests at each of 4 test sizes; ks_eval.py's --numtests as the book's chapter The study lists it"
            .into(),
    );
    no_flag.push(
        "upstream ks_train.py's data generation references an undefined x (NameError): define the grid in units of 2π as its evaluation code does"
            .into(),
    );
    PeerExport { lines, no_flag }
}

/// The APEBench code of `config` (tasks, train strings and optimiser as its strings).
fn apebench_lines(config: &StudyConfig, net: &str, tasks: &[&str]) -> Vec<String> {
    let base = &config.base;
    let m = base.unroll.horizon;
    let trains: Vec<String> = config
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
        base.iterations,
        trim(base.optimizer.learning_rate),
        base.optimizer.decay_every,
        trim(base.optimizer.decay)
    );
    vec![
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
            config.seeds.len(),
            base.batch
        ),
        format!("            optim_config=\"{optim}\","),
        "        )".to_string(),
    ]
}

/// An APEBench snippet (`apebench.run_experiment`, trainax trainers) for the same modes,
/// modalities, network and budget; `None` when nothing maps (a graph network, or only the
/// transition mode).
fn apebench_snippet(config: &StudyConfig) -> Option<PeerExport> {
    let base = &config.base;
    let net = base
        .net
        .architecture
        .facts()
        .apebench?
        .replace("{C}", &base.net.channels.to_string())
        .replace("{D}", &base.net.depth.to_string());
    let tasks: Vec<&str> = config
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
    let mut no_flag = vec![
        "APEBench's diff_ks is its own difficulty-scaled KS (its ICs, ETDRK reference and coarse stepper), not the study's data at L = 8·s: no domain-size input channel".to_string(),
        "its networks use 1×1 lifting and ReLU/GELU (ours: 3-tap lifting, LeakyReLU in the ResNet)".to_string(),
        "correct;parallel adds the network output unscaled (ours: ETD1 + 0.5·network)".to_string(),
        "ONE at batch ×m (the study's rule) has no switch there".to_string(),
    ];
    if base.unroll.warmup > 0 || base.unroll.detach_interval > 0 {
        no_flag.push("warm-up and detach interval have no train string".into());
    }
    if config.modes.contains(&Mode::Transition) {
        no_flag.push("the transition mode has no APEBench task".into());
    }
    Some(PeerExport {
        lines: apebench_lines(config, &net, &tasks),
        no_flag,
    })
}
