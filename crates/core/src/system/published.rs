//! The paper's published numbers of a system, typed by what they measure: each system lists its
//! own ([`SystemDescription::published`](super::description::SystemDescription::published)), and
//! the report sets a run's results beside them.

use crate::nets::Architecture;
use crate::train::Modality;

/// A network of one size, as a published number names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PublishedNet {
    /// Its architecture.
    pub architecture: Architecture,
    /// Channels `C`.
    pub channels: usize,
    /// Depth `D`.
    pub depth: usize,
}

/// What a published number measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Claim {
    /// P-WIG's error over C-NOG's (how many times C-NOG beats P-WIG).
    HeadlineRatio,
    /// The mean over settings of a modality's error divided by ONE's.
    RelativeToOne(Modality),
    /// The mean error of `net` trained with `modality`, in the system's metric `metric`
    /// (`relative error`), shown with `decimals` decimals and compared with `against` (`the
    /// blog`).
    Error {
        net: PublishedNet,
        modality: Modality,
        metric: &'static str,
        decimals: usize,
        against: &'static str,
    },
    /// `modality`'s error over ONE's for `net`, which the table calls `network` (`2-D ResNet`).
    RatioToOne {
        net: PublishedNet,
        modality: Modality,
        network: &'static str,
    },
}

/// One published number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Published {
    /// What it measures.
    pub claim: Claim,
    /// The value.
    pub value: f64,
    /// Training epochs behind it (the system's `paper_iterations` turns them into iterations).
    pub epochs: usize,
    /// Where it is published.
    pub source: &'static str,
}
