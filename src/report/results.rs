//! The results file `unroll-lab/results@1`. Defined next to the study that writes it
//! ([`crate::numerics::study::results`]) so that `numerics` never imports `report`; re-exported
//! here, where the other file schemas live.

pub use crate::numerics::study::results::*;
