//! Trained weights as a burnpack file (the format `unroll-lab train` writes as `weights.bpk`),
//! read back asynchronously so it works on every device, WebGPU in the browser included
//! (burn's `into_record` reads tensors synchronously, which WebGPU in wasm cannot do).
//!
//! The parameters are read one by one with `into_data_async`, written into a fresh copy of the
//! network on the CPU backend (same structure, so the same visiting order) and packed there.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::store::ModuleRecord;
use burn::tensor::{Tensor, TensorData};

use super::{Net, NetConfig, NetError};
use crate::backend;
use crate::readback::read_f32;

/// Every float parameter of a module, flattened, with its shape (visiting order).
#[derive(Default)]
struct Flatten(Vec<(Tensor<1>, Vec<usize>)>);

impl ModuleVisitor for Flatten {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let tensor = param.val();
        let shape = tensor.dims().to_vec();
        let count = shape.iter().product::<usize>();
        self.0.push((tensor.reshape([count]), shape));
    }
}

/// Replaces every float parameter, in visiting order, by the next of `values` (on the CPU).
struct Replace {
    values: std::vec::IntoIter<(Vec<f32>, Vec<usize>)>,
    device: burn::tensor::Device,
}

impl ModuleMapper for Replace {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let Some((values, shape)) = self.values.next() else {
            return param;
        };
        let device = self.device.clone();
        param.map(move |old| {
            let dims: [usize; D] = shape.clone().try_into().unwrap_or(old.dims());
            Tensor::<D>::from_data(TensorData::new(values, dims), &device)
        })
    }
}

/// The weights of `net` (built from `config`) as burnpack bytes. One async readback per
/// parameter tensor.
pub async fn weights_bytes(net: &Net, config: &NetConfig) -> Result<Vec<u8>, NetError> {
    let mut flatten = Flatten::default();
    net.visit(&mut flatten);
    let mut values = Vec::with_capacity(flatten.0.len());
    for (tensor, shape) in flatten.0 {
        let data = read_f32(tensor)
            .await
            .map_err(|err| NetError::Export(err.to_string()))?;
        values.push((data, shape));
    }
    let device = backend::cpu();
    let copy = config.init(&device, 0)?.map(&mut Replace {
        values: values.into_iter(),
        device,
    });
    let bytes = copy
        .into_record()
        .into_bytes()
        .map_err(|err| NetError::Export(err.to_string()))?;
    Ok(bytes.to_vec())
}

/// Every parameter of `net`, flattened in visiting order (the form a results file keeps). One
/// async readback per parameter tensor.
pub async fn flat_weights(net: &Net) -> Result<Vec<f32>, NetError> {
    let mut flatten = Flatten::default();
    net.visit(&mut flatten);
    let mut values = Vec::new();
    for (tensor, _) in flatten.0 {
        let data = read_f32(tensor)
            .await
            .map_err(|err| NetError::Export(err.to_string()))?;
        values.extend(data);
    }
    Ok(values)
}

/// A network of `config` on `device` with the parameters [`flat_weights`] gave, refusing a
/// count that is not the network's.
pub fn load_flat_weights(
    values: &[f32],
    config: &NetConfig,
    device: &burn::tensor::Device,
) -> Result<Net, NetError> {
    let net = config.init(device, 0)?;
    let mut shapes = Flatten::default();
    net.visit(&mut shapes);
    let total: usize = shapes
        .0
        .iter()
        .map(|(_, shape)| shape.iter().product::<usize>())
        .sum();
    if total != values.len() {
        return Err(NetError::Export(format!(
            "{} weights given, the {} × {} network has {total}",
            values.len(),
            config.channels,
            config.depth
        )));
    }
    let mut rest = values;
    let parts: Vec<(Vec<f32>, Vec<usize>)> = shapes
        .0
        .into_iter()
        .map(|(_, shape)| {
            let (part, tail) = rest.split_at(shape.iter().product());
            rest = tail;
            (part.to_vec(), shape)
        })
        .collect();
    Ok(net.map(&mut Replace {
        values: parts.into_iter(),
        device: device.clone(),
    }))
}

/// Loads [`weights_bytes`] into a network of `config` on `device`.
pub fn load_weights(
    bytes: Vec<u8>,
    config: &NetConfig,
    device: &burn::tensor::Device,
) -> Result<Net, NetError> {
    let record = ModuleRecord::from_bytes(burn::tensor::Bytes::from_bytes_vec(bytes))
        .map_err(|err| NetError::Export(err.to_string()))?;
    config
        .init(device, 0)?
        .try_load_record(record)
        .map_err(|err| NetError::Export(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::Architecture;

    fn values(t: Tensor<2>) -> Vec<f32> {
        t.into_data()
            .convert::<f32>()
            .try_into_vec::<f32>()
            .expect("f32")
    }

    /// The exported bytes load back into a network that computes exactly what the original does.
    #[test]
    fn exported_weights_reload_into_the_same_function() {
        let device = backend::cpu();
        for architecture in Architecture::ONE_D {
            let config = NetConfig {
                architecture,
                channels: 4,
                depth: 2,
            };
            let net = config.init(&device, 11).expect("init");
            let bytes = pollster::block_on(weights_bytes(&net, &config)).expect("export");
            assert!(bytes.len() > 4 * config.parameter_count());
            let loaded = load_weights(bytes, &config, &device).expect("load");
            let u = Tensor::<2>::from_data(
                TensorData::new((0..24).map(|i| (i as f32 * 0.37).sin()).collect(), [2, 12]),
                &device,
            );
            let s = Tensor::<2>::ones([2, 1], &device);
            let a = values(net.forward(u.clone(), s.clone()));
            let b = values(loaded.forward(u, s));
            assert_eq!(a, b, "{architecture:?}");
            let flat = pollster::block_on(flat_weights(&net)).expect("flat");
            assert_eq!(flat.len(), config.parameter_count());
            let reloaded = load_flat_weights(&flat, &config, &device).expect("load flat");
            let u2 = Tensor::<2>::from_data(
                TensorData::new((0..24).map(|i| (i as f32 * 0.37).sin()).collect(), [2, 12]),
                &device,
            );
            let s2 = Tensor::<2>::ones([2, 1], &device);
            assert_eq!(
                values(reloaded.forward(u2.clone(), s2.clone())),
                values(net.forward(u2, s2))
            );
            assert!(load_flat_weights(&flat[1..], &config, &device).is_err());
            // A differently seeded net differs, so the check above can fail.
            let other = config.init(&device, 12).expect("init");
            let u = Tensor::<2>::ones([2, 12], &device);
            let s = Tensor::<2>::ones([2, 1], &device);
            assert_ne!(
                values(other.forward(u.clone(), s.clone())),
                values(net.forward(u, s))
            );
        }
    }
}
