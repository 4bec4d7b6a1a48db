//! `unroll-lab study`: a whole grid (modes × modalities × sizes × horizons × seeds) trained,
//! evaluated on the test set and printed in the paper's layout; results JSON and CSV written.
//! The knobs are the browser's (one table, [`super::knobs`]); the study runs through the same
//! driver as the page, its events drive the progress bar.

use std::path::PathBuf;
use std::rc::Rc;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::knobs::KnobArgs;
use super::CliError;
use unroll_lab::experiment::{Experiment, Target};
use unroll_lab::numerics::backend;
use unroll_lab::numerics::cost::{calibrate, cost};
use unroll_lab::numerics::study::driver::{Driver, RunEvent, TickPolicy};
use unroll_lab::numerics::study::Preset;
use unroll_lab::report::results::ResultsText;
use unroll_lab::report::units::cost_summary;

#[derive(Debug, Args)]
pub struct StudyArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: Preset,
    #[command(flatten)]
    knobs: KnobArgs<false>,
    /// Results JSON (schema unroll-lab/results@1).
    #[arg(long, default_value = "results.json")]
    out: PathBuf,
    /// Also write a CSV view.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// No progress bar and no estimate.
    #[arg(long)]
    quiet: bool,
}

/// Training iterations per driver tick (one loss readback each).
const ITERATIONS_PER_TICK: usize = 20;

pub fn study(args: &StudyArgs) -> Result<(), CliError> {
    let mut experiment = Experiment::defaults(args.preset, Target::Native);
    experiment
        .apply(&args.knobs.overrides)
        .map_err(|(knob, problem)| {
            let text = args
                .knobs
                .overrides
                .get(knob)
                .map(ToString::to_string)
                .unwrap_or_default();
            CliError::Usage(problem.for_cli(knob, &text))
        })?;
    let config = experiment.study_config();
    config.validate()?;
    let clock = Instant::now();
    let now: Rc<dyn Fn() -> f64> = Rc::new(move || clock.elapsed().as_secs_f64());
    let device = backend::cpu();
    if !args.quiet {
        let rate = pollster::block_on(calibrate(&device, &*now)).ok();
        eprintln!("estimate: {}", cost_summary(&cost(&config), rate));
    }
    let mut driver = Driver::new(
        config,
        &device,
        now.clone(),
        TickPolicy::Fixed(ITERATIONS_PER_TICK),
    )?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(1000)
    };
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {percent:>3}%  ETA {eta}  {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut results = None;
    while !driver.stopped() {
        for event in pollster::block_on(driver.tick()) {
            match event {
                RunEvent::Progress(progress) => {
                    bar.set_position((progress.fraction * 1000.0) as u64);
                    bar.set_message(progress.description);
                }
                RunEvent::Losses(_) => {}
                RunEvent::VariantFinished(done) => bar.println(format!(
                    "{}: relative error {:.3e} ± {:.1e}",
                    done.id.label(),
                    done.metrics.relative_error.mean,
                    done.metrics.relative_error.std
                )),
                RunEvent::Finished { results: r, .. } => results = Some(*r),
                RunEvent::Error(message) => return Err(CliError::Run(message)),
            }
        }
    }
    bar.finish_and_clear();
    let results = results.ok_or_else(|| CliError::Run("the study ended without results".into()))?;
    write(
        &args.out,
        &serde_json::to_string(&results).map_err(|e| CliError::Output(e.to_string()))?,
    )?;
    if let Some(csv) = &args.csv {
        write(csv, &results.to_csv())?;
    }
    println!("{}", results.table());
    if args.preset == Preset::Sizes {
        super::slopes::print_slopes(&results);
    }
    println!(
        "study '{}' with {} seed(s): {:.1} s; wrote {}",
        results.preset,
        experiment.seeds,
        results.wall_secs,
        args.out.display()
    );
    Ok(())
}

fn write(path: &PathBuf, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|err| CliError::Output(format!("{}: {err}", path.display())))
}
