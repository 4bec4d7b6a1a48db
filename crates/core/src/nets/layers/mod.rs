//! The layers the networks share and their fused ops read: the 1-D and 2-D periodic
//! convolutions and the ring graph's edge convolution. Plain parameters and composite forwards;
//! no fused code.

pub mod conv1d;
pub mod conv2d;
pub mod edge_conv;
