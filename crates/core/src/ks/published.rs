//! The paper's published KS numbers (docs/src/study.md, "Headline results") and the iterations of its
//! training at a number of epochs.

use super::preset::official_iterations;
use crate::nets::Architecture;
use crate::system::published::{Claim, Published, PublishedNet};
use crate::train::Modality;

/// Epochs of the KS study at its default dataset fraction, 25 % (docs/src/study.md).
const PAPER_EPOCHS: usize = 16;

const BLOG: &str = "the group's blog, 40 KS tests, 20 epochs (mode not stated in our notes)";

const fn blog(channels: usize, depth: usize, modality: Modality, value: f64) -> Published {
    Published {
        claim: Claim::Error {
            net: PublishedNet {
                architecture: Architecture::Resnet,
                channels,
                depth,
            },
            modality,
            metric: "relative error",
            decimals: 5,
            against: "the blog",
        },
        value,
        epochs: 20,
        source: BLOG,
    }
}

/// Every published KS number the page compares with.
pub const PUBLISHED: [Published; 9] = [
    Published {
        claim: Claim::HeadlineRatio,
        value: 4.5,
        epochs: PAPER_EPOCHS,
        source: "the first version's abstract (\"4.5-fold\"; the blog says around 5×)",
    },
    Published {
        claim: Claim::RelativeToOne(Modality::Nog),
        value: 0.77,
        epochs: PAPER_EPOCHS,
        source: "one version's average improvement of NOG over ONE (23 %)",
    },
    Published {
        claim: Claim::RelativeToOne(Modality::Wig),
        value: 0.62,
        epochs: PAPER_EPOCHS,
        source: "one version's average improvement of WIG over ONE (38 %)",
    },
    blog(26, 8, Modality::One, 0.00728),
    blog(26, 8, Modality::Nog, 0.00797),
    blog(26, 8, Modality::Wig, 0.00582),
    blog(52, 12, Modality::One, 0.00318),
    blog(52, 12, Modality::Nog, 0.00255),
    blog(52, 12, Modality::Wig, 0.00204),
];

/// Iterations of `epochs` official epochs of the KS study's data (m = 3, batch 16; 16 epochs =
/// 42,475).
pub fn paper_iterations(epochs: usize) -> usize {
    official_iterations(epochs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_studys_budget_is_its_16_epochs() {
        assert_eq!(paper_iterations(16), 42_475);
        assert_eq!(paper_iterations(20), 53_094);
    }
}
