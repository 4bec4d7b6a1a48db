//! The ring graph's directional edge convolution (the GCN): its parameters and its composite
//! forward in plain burn ops. Its forward, fused where it can be, is the network's
//! ([`crate::nets::gcn`]); the fused op is [`crate::nets::fused::edge`].

use burn::module::{Module, Param};
use burn::tensor::Tensor;

use crate::counted::matmul;
use crate::nets::fusion::leaky_relu;
use crate::nets::grid::{tap_indices, TAPS};

/// Neighbour offsets `j − i` of the ring graph.
pub const NEIGHBOUR_OFFSETS: [isize; 3] = [-1, 0, 1];

/// Directional edge convolution on the ring: `[C_in, N, B] → [C_out, N, B]`.
#[derive(Module, Debug)]
pub struct EdgeConv {
    /// `[2·C_in + 1, C_out]`: rows `0..C_in` act on `x_i`, rows `C_in..2·C_in` on `x_j − x_i`,
    /// the last row on `sign(i − j)`.
    pub weight: Param<Tensor<2>>,
    /// `[C_out]`.
    pub bias: Param<Tensor<1>>,
}

impl EdgeConv {
    /// [`EdgeConv::forward`] in plain burn ops, its messages LeakyReLU'd with `slope` where
    /// given (what [`edge_conv`](crate::nets::fused::edge::edge_conv) runs where the fused op does not apply).
    pub fn forward_composite(&self, x: Tensor<3>, slope: Option<f64>) -> Tensor<3> {
        let [channels_in, n, batch] = x.dims();
        let (device, dtype) = (x.device(), x.dtype());
        let columns = n * batch;
        let x = x.reshape([channels_in, columns]);
        let indices = tap_indices(n, batch, 1, &device);
        // x_j with j = i + offset, for the three offsets in order.
        let neighbours = x.clone().select(1, indices);
        let centres = x
            .reshape([channels_in, 1, columns])
            .expand([channels_in, TAPS, columns])
            .reshape([channels_in, TAPS * columns]);
        let signs = NEIGHBOUR_OFFSETS
            .iter()
            .map(|&offset| Tensor::<2>::full([1, columns], -offset as f32, (&device, dtype)))
            .collect();
        let features = Tensor::cat(
            vec![centres.clone(), neighbours - centres, Tensor::cat(signs, 1)],
            0,
        );
        let weight = self.weight.val();
        let channels_out = weight.dims()[1];
        let out = matmul(weight.transpose(), features) + self.bias.val().reshape([channels_out, 1]);
        let out = match slope {
            Some(slope) => leaky_relu(out, slope),
            None => out,
        };
        out.reshape([channels_out, TAPS, columns])
            .mean_dim(1)
            .reshape([channels_out, n, batch])
    }
}
