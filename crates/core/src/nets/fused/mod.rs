//! The networks' fused CPU operations (burn backend extensions: burn-flex by hand, the cubecl
//! backends their composite default): ResNet1D's residual block, the dilated ResNet's and the
//! U-Net's convolutions, the GCN's edge convolution and the 2-D ResNet's block and output
//! convolution, each one autodiff node whose backward is hand-written ([`node`]). Whether they
//! run is the thread's [`crate::nets::fusion::Fusion`] level.

pub mod block;
pub mod block2d;
pub mod conv;
pub mod conv2d;
pub mod edge;
pub mod node;

#[cfg(test)]
mod block2d_tests;
#[cfg(test)]
pub(crate) mod tests;
