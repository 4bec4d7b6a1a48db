//! The floating-point precision of a tensor solver (any system).

use burn::tensor::DType;

/// Floating-point precision of a tensor solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// `f32`: training, the browser.
    F32,
    /// `f64`: tests against the reference.
    F64,
}

impl Precision {
    /// The burn dtype.
    pub fn dtype(self) -> DType {
        match self {
            Precision::F32 => DType::F32,
            Precision::F64 => DType::F64,
        }
    }
}
