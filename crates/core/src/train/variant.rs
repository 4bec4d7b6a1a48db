//! Which variant a training is: mode, modality, architecture, size, horizon, and its labels.

use serde::{Deserialize, Serialize};

use super::config::{Modality, Mode, TrainConfig};
use crate::nets::Architecture;

/// Which variant: mode, modality, architecture, size and horizon. Flattened into
/// [`VariantResult`](crate::study::data::results::VariantResult), so the file keeps the keys `mode`, `modality`, `architecture`,
/// `channels`, `depth`, `horizon` it always had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantId {
    /// Prediction, correction or transition.
    pub mode: Mode,
    /// ONE, NOG or WIG.
    pub modality: Modality,
    /// The network architecture.
    pub architecture: Architecture,
    /// Channels C.
    pub channels: usize,
    /// Depth D.
    pub depth: usize,
    /// Unroll horizon m.
    pub horizon: usize,
}

impl VariantId {
    /// The paper's tag: `P-ONE`, `C-NOG`, `T-WIG`.
    pub fn label(&self) -> String {
        format!("{}-{}", self.mode.letter(), self.modality.label())
    }

    /// The tag with size and horizon, and the architecture unless it is the paper's ResNet1D:
    /// `P-ONE 16×10 m=3`, `C-WIG fno 24×4 m=3` (tables).
    pub fn long_label(&self) -> String {
        format!(
            "{} {} m={}",
            self.label(),
            self.network_label(),
            self.horizon
        )
    }

    /// The network: its size, after its architecture unless it is the paper's ResNet1D:
    /// `16×10`, `resnet2d 8×5`, `fno 24×4`.
    pub fn network_label(&self) -> String {
        match self.architecture {
            Architecture::Resnet => format!("{}×{}", self.channels, self.depth),
            other => format!("{other} {}×{}", self.channels, self.depth),
        }
    }

    /// The tag with size and horizon for file names: `P-ONE-16x10-m3`.
    pub fn file_label(&self) -> String {
        format!(
            "{}-{}x{}-m{}",
            self.label(),
            self.channels,
            self.depth,
            self.horizon
        )
    }

    /// Whether `self` is `mode` × `modality` (any size, horizon, architecture).
    pub fn is(&self, mode: Mode, modality: Modality) -> bool {
        self.mode == mode && self.modality == modality
    }
}

impl TrainConfig {
    /// Which variant this trains (mode, modality, architecture, size, horizon); its
    /// [`VariantId::label`] is the `C-NOG`-style tag.
    pub fn variant_id(&self) -> VariantId {
        VariantId {
            mode: self.mode,
            modality: self.modality,
            architecture: self.net.architecture,
            channels: self.net.channels,
            depth: self.net.depth,
            horizon: self.unroll.horizon,
        }
    }
}
