//! An experiment as the peers' tools would run it: the paper's own script of a system and an
//! APEBench snippet, each with the settings it has no flag for. Plain strings, built by each
//! system from a study config (`SystemDescription::peer_commands`).

/// Commands for a peer tool and the settings they cannot carry.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerExport {
    /// The command lines or the code, one entry per line.
    pub lines: Vec<String>,
    /// Settings of this experiment without a flag or an equivalent there.
    pub no_flag: Vec<String>,
}

/// What a system the paper studied exports for its peers.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerCommands {
    /// The paper's script, as its repository names it (`kuramoto-sivashinsky/ks_train.py`).
    pub script: &'static str,
    /// The script's closest command lines.
    pub script_export: PeerExport,
    /// The nearest APEBench set-up, where one maps.
    pub apebench: Option<PeerExport>,
}

/// `value` with at most six decimals and no trailing zeros (`0.25`, `40`), as a flag's value.
pub fn flag_number(value: f64) -> String {
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
