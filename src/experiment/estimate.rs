//! The one estimate of a run on the page: how many workers train at once and how long the run
//! takes there. The panel's estimate lines and the long-run confirmation read it; the run starts
//! with its worker count. A thin layer over the cost model
//! ([`crate::numerics::study::cells::cost::cost`], through [`Experiment::workload`]).

use super::Experiment;
use crate::numerics::study::cells::cost::Cost;
use crate::numerics::study::workers::device_choice::WEBGPU_PARALLEL;
use crate::numerics::study::workers::pool::pool_size;
use crate::report::units::{format_seconds, pool_cost_summary};

/// A run the estimate puts above this many seconds asks for confirmation first.
pub const CONFIRM_ABOVE_SECS: f64 = 1800.0;

/// Where the page trains: what the start-up probe and the browser say.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// True when the run trains on WebGPU (one training at a time: [`WEBGPU_PARALLEL`]).
    pub webgpu: bool,
    /// The browser's logical cores (`navigator.hardwareConcurrency`).
    pub cores: usize,
    /// Workers asked for (`?workers=N`), if any.
    pub requested: Option<usize>,
    /// The training device's measured FLOP/s per training (`None` before calibration).
    pub flop_rate: Option<f64>,
}

impl Machine {
    /// Workers that train `trainings` trainings at once: one on WebGPU, else the pool's size
    /// for the cores ([`pool_size`]).
    pub fn workers(&self, trainings: usize) -> usize {
        if self.webgpu {
            WEBGPU_PARALLEL
        } else {
            pool_size(self.cores, trainings, self.requested)
        }
    }
}

/// An experiment's run on a [`Machine`].
#[derive(Debug, Clone, PartialEq)]
pub struct RunEstimate {
    /// Trainings, iterations, counted FLOPs and memory of the study.
    pub cost: Cost,
    /// Workers training at once (a plan has one cell per training).
    pub workers: usize,
    /// The training device's measured FLOP/s per training.
    pub flop_rate: Option<f64>,
}

impl RunEstimate {
    /// The estimate of `experiment` on `machine`; `None` while a knob is invalid.
    pub fn of(experiment: &Experiment, machine: &Machine) -> Option<Self> {
        let cost = experiment.workload()?;
        Some(Self {
            workers: machine.workers(cost.trainings),
            flop_rate: machine.flop_rate,
            cost,
        })
    }

    /// Wall-clock seconds: the cost at the measured rate shared by the workers (`None` before
    /// calibration).
    pub fn seconds(&self) -> Option<f64> {
        self.cost
            .seconds(self.flop_rate)
            .map(|s| s / self.workers.max(1) as f64)
    }

    /// True when the run should ask first ([`CONFIRM_ABOVE_SECS`]).
    pub fn needs_confirmation(&self) -> bool {
        self.seconds().is_some_and(|s| s > CONFIRM_ABOVE_SECS)
    }

    /// The question a long run asks before it starts, offering the same study natively as
    /// `cli_command`; `None` for a run that starts at once.
    pub fn long_run_question(&self, cli_command: &str) -> Option<String> {
        let seconds = self.seconds().filter(|_| self.needs_confirmation())?;
        Some(format!(
            "This run is estimated at {} in this browser ({} worker(s)). The same study runs natively, faster, with: {cli_command}",
            format_seconds(seconds),
            self.workers,
        ))
    }

    /// One line: trainings, iterations, FLOPs, memory and the time on the workers.
    pub fn summary(&self) -> String {
        pool_cost_summary(&self.cost, self.flop_rate, self.workers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(webgpu: bool, cores: usize, flop_rate: Option<f64>) -> Machine {
        Machine {
            webgpu,
            cores,
            requested: None,
            flop_rate,
        }
    }

    #[test]
    fn the_cpu_shares_the_trainings_out_and_webgpu_trains_one_at_a_time() {
        let experiment = Experiment::default();
        let trainings = experiment.workload().expect("valid").trainings;
        assert_eq!(trainings, 6);
        let cpu = RunEstimate::of(&experiment, &machine(false, 4, None)).expect("valid");
        assert_eq!(cpu.workers, 3, "one core is left to the page");
        let many = RunEstimate::of(&experiment, &machine(false, 64, None)).expect("valid");
        assert_eq!(many.workers, trainings, "never more workers than trainings");
        let asked = Machine {
            requested: Some(2),
            ..machine(false, 64, None)
        };
        assert_eq!(
            RunEstimate::of(&experiment, &asked).expect("valid").workers,
            2
        );
        let gpu = RunEstimate::of(&experiment, &machine(true, 64, None)).expect("valid");
        assert_eq!(gpu.workers, WEBGPU_PARALLEL);
    }

    #[test]
    fn the_time_is_the_cost_at_the_rate_over_the_workers() {
        let experiment = Experiment::default();
        let cost = experiment.workload().expect("valid");
        let rate = cost.flops() / 600.0;
        let estimate = RunEstimate::of(&experiment, &machine(false, 4, Some(rate))).expect("ok");
        assert_eq!(estimate.cost, cost, "the cost model, unchanged");
        assert!((estimate.seconds().expect("rate") - 200.0).abs() < 1e-6);
        assert!(!estimate.needs_confirmation());
        assert!(
            estimate
                .summary()
                .contains("≈ 3 min on 3 worker(s) at the measured"),
            "{}",
            estimate.summary()
        );
        let slow = RunEstimate {
            flop_rate: Some(rate / 100.0),
            ..estimate.clone()
        };
        assert!(slow.needs_confirmation());
        let question = slow.long_run_question("unroll-lab study").expect("long");
        assert!(
            question.starts_with("This run is estimated at 5.6 h in this browser (3 worker(s)).")
        );
        assert!(question.ends_with("with: unroll-lab study"));
        assert_eq!(estimate.long_run_question("unroll-lab study"), None);
        let uncalibrated = RunEstimate {
            flop_rate: None,
            ..estimate
        };
        assert_eq!(uncalibrated.seconds(), None);
        assert!(!uncalibrated.needs_confirmation());
        assert!(uncalibrated
            .summary()
            .ends_with("time estimate after calibration."));
    }

    #[test]
    fn an_invalid_experiment_has_no_estimate() {
        let experiment = Experiment {
            seeds: 0,
            ..Experiment::default()
        };
        assert_eq!(RunEstimate::of(&experiment, &machine(false, 4, None)), None);
    }
}
