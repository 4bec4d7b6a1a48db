//! The paper's published Kolmogorov numbers: its figure's C-ONE velocity MSE and the NOG and
//! WIG ratios to it for the four 2-D ResNets, read off ±3 % (docs/src/study.md).

use crate::nets::Architecture;
use crate::system::published::{Claim, Published, PublishedNet};
use crate::train::Modality;

const FIGURE: &str =
    "the paper's Kolmogorov figure, read off ±3 % (the book's chapter The study), 5 epochs per curriculum stage";

/// Epochs per curriculum stage behind the figure.
const FIGURE_EPOCHS: usize = 5;

const fn net(channels: usize, depth: usize) -> PublishedNet {
    PublishedNet {
        architecture: Architecture::Resnet2d,
        channels,
        depth,
    }
}

const fn one(channels: usize, depth: usize, value: f64) -> Published {
    Published {
        claim: Claim::Error {
            net: net(channels, depth),
            modality: Modality::One,
            metric: "velocity MSE",
            decimals: 4,
            against: "the paper",
        },
        value,
        epochs: FIGURE_EPOCHS,
        source: FIGURE,
    }
}

const fn ratio(channels: usize, depth: usize, modality: Modality, value: f64) -> Published {
    Published {
        claim: Claim::RatioToOne {
            net: net(channels, depth),
            modality,
            network: "2-D ResNet",
        },
        value,
        epochs: FIGURE_EPOCHS,
        source: FIGURE,
    }
}

/// Every published Kolmogorov number the page compares with.
pub const PUBLISHED: [Published; 12] = [
    one(8, 5, 0.040),
    one(8, 7, 0.030),
    one(16, 7, 0.016),
    one(16, 9, 0.0104),
    ratio(8, 5, Modality::Nog, 1.0),
    ratio(8, 7, Modality::Nog, 0.85),
    ratio(16, 7, Modality::Nog, 0.85),
    ratio(16, 9, Modality::Nog, 0.83),
    ratio(8, 5, Modality::Wig, 0.89),
    ratio(8, 7, Modality::Wig, 0.82),
    ratio(16, 7, Modality::Wig, 0.87),
    ratio(16, 9, Modality::Wig, 0.79),
];
