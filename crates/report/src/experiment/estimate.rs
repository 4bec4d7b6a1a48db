//! The one estimate of a run on the page: how many workers train at once and how long the run
//! takes there, every phase counted: one worker makes the data (at the measured data rate),
//! then every worker trains and evaluates its share of the trainings (the pool's own partition,
//! at the measured training rate), so the run lasts the data plus the busiest share. The
//! panel's estimate lines and the long-run confirmation read it; the run starts with its worker
//! count. A thin layer over the cost model ([`unroll_core::study::cells::cost::cost`],
//! through [`Experiment::workload`]).

use super::Experiment;
use crate::units::{format_flops, format_seconds, with_time};
use unroll_core::study::cells::cost::Cost;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::system::System;
use unroll_pool::device_choice::WEBGPU_PARALLEL;
use unroll_pool::pool::{partition, pool_size};

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
    /// The CPU's measured FLOP/s making data (`None` before calibration).
    pub data_rate: Option<f64>,
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
    /// Counted FLOPs (training and evaluation) of the busiest worker's share of the trainings
    /// ([`partition`], as the pool shares them out).
    pub busiest_flops: f64,
    /// The training device's measured FLOP/s per training.
    pub flop_rate: Option<f64>,
    /// The CPU's measured FLOP/s making data.
    pub data_rate: Option<f64>,
}

impl RunEstimate {
    /// The estimate of `experiment` on `machine`; `None` while a knob is invalid.
    pub fn of(experiment: &Experiment, machine: &Machine) -> Option<Self> {
        let cost = experiment.workload()?;
        let workers = machine.workers(cost.trainings);
        let busiest_flops = StudyPlan::new(experiment.study_config(), System::description, None)
            .map(|plan| busiest_share(&plan, workers, machine.webgpu))
            .unwrap_or(cost.flops() / workers.max(1) as f64);
        Some(Self {
            workers,
            busiest_flops,
            flop_rate: machine.flop_rate,
            data_rate: machine.data_rate,
            cost,
        })
    }

    /// Seconds of making the data (`None` before the data rate is measured).
    pub fn data_seconds(&self) -> Option<f64> {
        self.cost.data_seconds(self.data_rate)
    }

    /// Seconds of the busiest worker's trainings and evaluations (`None` before calibration).
    pub fn training_seconds(&self) -> Option<f64> {
        self.flop_rate
            .filter(|r| r.is_finite() && *r > 0.0)
            .map(|rate| self.busiest_flops / rate)
    }

    /// Wall-clock seconds: the data, then the busiest share (`None` before calibration; the
    /// data count as nothing while their rate is unknown, and [`Self::summary`] says so).
    pub fn seconds(&self) -> Option<f64> {
        Some(self.training_seconds()? + self.data_seconds().unwrap_or(0.0))
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

    /// One line: trainings, iterations, FLOPs, memory and the time of each phase on the workers.
    pub fn summary(&self) -> String {
        let time = match (self.seconds(), self.flop_rate) {
            (Some(seconds), Some(rate)) => format!(
                "≈ {} on {} worker(s): {}, then the busiest worker's trainings ≈ {} at the measured {}/s each",
                format_seconds(seconds),
                self.workers,
                match self.data_seconds() {
                    _ if self.cost.data_flops == 0.0 => "data downloaded".to_string(),
                    Some(data) => format!("data ≈ {}", format_seconds(data)),
                    None => "data not timed".to_string(),
                },
                format_seconds(self.training_seconds().unwrap_or(0.0)),
                format_flops(rate),
            ),
            _ => "time estimate after calibration".to_string(),
        };
        with_time(&self.cost, &time)
    }
}

/// Counted FLOPs of the busiest of `workers` shares of `plan`'s cells ([`partition`];
/// `together` on WebGPU, where a variant's seeds train as one ensemble).
fn busiest_share(plan: &StudyPlan, workers: usize, together: bool) -> f64 {
    partition(plan, workers, together)
        .iter()
        .map(|share| {
            share
                .iter()
                .map(|&cell| plan.cells[cell].flops)
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
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
            data_rate: None,
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
    fn the_time_is_the_data_then_the_busiest_share() {
        let experiment = Experiment::default();
        let cost = experiment.workload().expect("valid");
        let rate = cost.flops() / 600.0;
        let timed = Machine {
            data_rate: Some(cost.data_flops / 20.0),
            ..machine(false, 4, Some(rate))
        };
        let estimate = RunEstimate::of(&experiment, &timed).expect("ok");
        assert_eq!(estimate.cost, cost, "the cost model, unchanged");
        // Three workers share six trainings: the busiest holds at least a third, not all.
        let busiest = estimate.busiest_flops;
        assert!(busiest >= cost.flops() / 3.0 * (1.0 - 1e-12) && busiest < cost.flops());
        let seconds = estimate.seconds().expect("rates");
        assert!(
            (seconds - (20.0 + busiest / rate)).abs() < 1e-6,
            "{seconds}"
        );
        assert!(!estimate.needs_confirmation());
        let summary = estimate.summary();
        assert!(
            summary.contains("on 3 worker(s): data ≈ 20 s, then the busiest worker's trainings ≈")
                && summary.contains("at the measured"),
            "{summary}"
        );
        let untimed_data = RunEstimate {
            data_rate: None,
            ..estimate.clone()
        };
        assert_eq!(untimed_data.seconds(), Some(busiest / rate));
        assert!(untimed_data.summary().contains("data not timed"));
        let mut downloaded = estimate.clone();
        downloaded.cost.data_flops = 0.0;
        assert!(downloaded.summary().contains("data downloaded"));
        let slow = RunEstimate {
            flop_rate: Some(rate / 100.0),
            ..estimate.clone()
        };
        assert!(slow.needs_confirmation());
        let question = slow.long_run_question("unroll-lab study").expect("long");
        assert!(
            question.starts_with("This run is estimated at "),
            "{question}"
        );
        assert!(
            question.contains(" h in this browser (3 worker(s))."),
            "{question}"
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
