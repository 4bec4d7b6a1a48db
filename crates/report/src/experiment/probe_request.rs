//! What the page's start-up probe times for an experiment: its costliest training (counted FLOPs
//! per iteration) and the trainings that would share that training's ensemble.

use super::Experiment;
use unroll_core::train::ensemble::shares_model;
use unroll_core::train::flops::flops_per_iteration;
use unroll_core::train::TrainConfig;
use unroll_core::types::System;
use unroll_pool::device_choice::ProbeRequest;

impl Experiment {
    /// The probe of this experiment's study: its costliest training (the base training when the
    /// grid is empty), WebGPU probed when `webgpu`, within `timeout_ms`.
    pub fn probe_request(&self, webgpu: bool, timeout_ms: u32) -> ProbeRequest {
        let config = self.study_config();
        let variants = config.variants();
        let timed = costliest(&variants, config.system).unwrap_or_else(|| config.base.clone());
        ProbeRequest {
            system: config.system,
            members: ensemble_members(&variants, &timed, config.seeds.len()),
            config: timed,
            webgpu,
            timeout_ms,
        }
    }
}

/// Trainings in `timed`'s ensemble when every variant runs `seeds` seeds: the seeds of each of
/// `variants` that shares its model ([`shares_model`]; `timed` among them).
fn ensemble_members(variants: &[TrainConfig], timed: &TrainConfig, seeds: usize) -> usize {
    let sharing = variants.iter().filter(|v| shares_model(v, timed)).count();
    seeds * sharing.max(1)
}

/// The variant of `variants` with the most counted FLOPs per iteration (the probe times it).
fn costliest(variants: &[TrainConfig], system: System) -> Option<TrainConfig> {
    let description = system.description();
    let n = description.state_shape().values();
    let flops = |v: &TrainConfig| {
        flops_per_iteration(v, n, description.solver_flops_per_state(v.mode, v.alpha))
    };
    variants
        .iter()
        .max_by(|a, b| flops(a).total_cmp(&flops(b)))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_times_the_costliest_training_with_its_ensemble() {
        let experiment = Experiment {
            seeds: 2,
            ..Experiment::default()
        };
        let request = experiment.probe_request(true, 1000);
        let config = experiment.study_config();
        let description = config.system.description();
        let n = description.state_shape().values();
        let flops = |v: &TrainConfig| {
            flops_per_iteration(v, n, description.solver_flops_per_state(v.mode, v.alpha))
        };
        let most = config.variants().iter().map(flops).fold(0.0, f64::max);
        assert_eq!(flops(&request.config), most);
        assert_eq!((request.system, request.webgpu), (config.system, true));
        assert_eq!(request.timeout_ms, 1000);
        let sharing = config
            .variants()
            .iter()
            .filter(|v| shares_model(v, &request.config))
            .count();
        assert!(sharing >= 1);
        assert_eq!(request.members, 2 * sharing);
    }

    #[test]
    fn no_variants_time_the_base_training_alone() {
        let base = Experiment::default().study_config().base;
        assert_eq!(ensemble_members(&[], &base, 3), 3);
        assert!(costliest(&[], System::default()).is_none());
    }
}
