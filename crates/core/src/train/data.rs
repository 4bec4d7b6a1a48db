//! The training trajectories on the training device, one `[trajectories · frames, N]` tensor per
//! domain size, and the gathering of a minibatch of windows from them (indices uploaded, no
//! readback).

use burn::tensor::{Device, Int, Tensor, TensorData};

use super::error::TrainError;
use crate::types::Trajectory;

/// The trajectories of one domain size on the device.
#[derive(Debug, Clone)]
pub struct SizeData {
    /// Scale `s` (L = 8·s).
    pub scale: f64,
    /// Number of trajectories.
    pub trajectories: usize,
    /// Frames per trajectory (the shortest, if they differ).
    pub frames: usize,
    /// `[trajectories · frames, N]`, f32.
    pub values: Tensor<2>,
}

/// All training data, grouped by size.
#[derive(Debug, Clone)]
pub struct TrainingData {
    /// One entry per size, in the order of the config's scales.
    pub sizes: Vec<SizeData>,
    /// Grid points `N`.
    pub resolution: usize,
    device: Device,
}

impl TrainingData {
    /// Uploads `trajectories` (grouped by equal scale, in order of first appearance).
    pub fn upload(trajectories: &[Trajectory], device: &Device) -> Result<Self, TrainError> {
        let resolution = trajectories
            .first()
            .map(|t| t.resolution)
            .ok_or_else(|| TrainError::invalid("data", "no training trajectories"))?;
        let mut scales: Vec<f64> = Vec::new();
        for trajectory in trajectories {
            if !scales.contains(&trajectory.scale) {
                scales.push(trajectory.scale);
            }
        }
        let mut sizes = Vec::with_capacity(scales.len());
        for scale in scales {
            let group: Vec<&Trajectory> =
                trajectories.iter().filter(|t| t.scale == scale).collect();
            let frames = group.iter().map(|t| t.frames()).min().unwrap_or(0);
            let mut values = Vec::with_capacity(group.len() * frames * resolution);
            for trajectory in &group {
                values.extend_from_slice(&trajectory.values[..frames * resolution]);
            }
            let tensor = Tensor::<2>::from_data(
                TensorData::new(values, [group.len() * frames, resolution]),
                device,
            );
            sizes.push(SizeData {
                scale,
                trajectories: group.len(),
                frames,
                values: tensor,
            });
        }
        Ok(Self {
            sizes,
            resolution,
            device: device.clone(),
        })
    }

    /// Frames `start..=start + span` of the windows `(trajectory, start)` of size `size`:
    /// `span + 1` tensors `[windows, N]` (frame offset 0 is the input).
    pub fn gather(&self, size: usize, windows: &[(usize, usize)], span: usize) -> Vec<Tensor<2>> {
        let data = &self.sizes[size];
        let count = windows.len();
        // Offset-major order: row `o · count + b` is frame `start_b + o` of window `b`.
        let indices: Vec<i64> = (0..=span)
            .flat_map(|offset| {
                windows.iter().map(move |&(trajectory, start)| {
                    (trajectory * data.frames + start + offset) as i64
                })
            })
            .collect();
        let indices = Tensor::<1, Int>::from_data(
            TensorData::new(indices, [(span + 1) * count]),
            &self.device,
        );
        let rows = data.values.clone().select(0, indices);
        let stacked = rows.reshape([span + 1, count, self.resolution]);
        (0..=span)
            .map(|offset| {
                stacked
                    .clone()
                    .slice([offset..offset + 1, 0..count, 0..self.resolution])
                    .reshape([count, self.resolution])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend;
    use crate::ks::data::generate;
    use crate::ks::tensor::read_rows;
    use crate::ks::KsConfig;
    use crate::train::config::TrainDataConfig;

    #[test]
    fn gather_returns_the_requested_frames() {
        let config = TrainDataConfig {
            scales: vec![1.0, 1.2],
            warmup_steps: 2,
            frames: 10,
        };
        let set = generate(&config, KsConfig::default()).expect("data");
        assert_eq!(set.len(), 12);
        let data = TrainingData::upload(&set, &backend::cpu()).expect("upload");
        assert_eq!(data.sizes.len(), 2);
        assert_eq!(data.sizes[1].trajectories, 6);
        let frames = data.gather(1, &[(2, 3), (5, 0)], 2);
        assert_eq!(frames.len(), 3);
        for (offset, frame) in frames.into_iter().enumerate() {
            let rows = read_rows(frame).expect("read");
            let want_a: Vec<f64> = set[6 + 2]
                .frame(3 + offset)
                .iter()
                .map(|&v| v as f64)
                .collect();
            let want_b: Vec<f64> = set[6 + 5].frame(offset).iter().map(|&v| v as f64).collect();
            assert_eq!(rows[0], want_a);
            assert_eq!(rows[1], want_b);
        }
    }
}
