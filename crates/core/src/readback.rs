//! The one asynchronous readback: a tensor's values to the host as `f32`. Async so the same
//! code runs in the browser (WebGPU can only be read asynchronously); natively callers block
//! on it with `pollster`. The loss log, the evaluation rollouts, the weights export and the
//! device self-check all read through [`read_f32`].

use burn::tensor::Tensor;

/// Reading values back from the device failed (the device was lost, or the data had an
/// unexpected element type).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("reading back from the device failed: {0}")]
pub struct ReadbackError(pub String);

/// The values of `tensor`, row-major, as `f32` (one transfer).
pub async fn read_f32<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, ReadbackError> {
    tensor
        .into_data_async()
        .await
        .map_err(|err| ReadbackError(format!("{err:?}")))?
        .convert::<f32>()
        .try_into_vec::<f32>()
        .map_err(|err| ReadbackError(format!("unexpected element type: {err:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use burn::tensor::TensorData;

    #[test]
    fn reads_values_in_order() {
        let device = backend::cpu();
        let tensor = Tensor::<2>::from_data(
            TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]),
            &device,
        );
        assert_eq!(
            pollster::block_on(read_f32(tensor)),
            Ok(vec![1.0, 2.0, 3.0, 4.0])
        );
    }
}
