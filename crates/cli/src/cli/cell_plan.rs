//! `unroll-lab study plan`: a study cut into cells, with their counted cost and, at this
//! machine's measured FLOP rate, their estimated time, written as one plan file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::cells::to_json;
use super::knobs::experiment;
use super::knobs::KnobArgs;
use super::size_choice::{keep_sizes, parse_sizes, SizeList};
use super::CliError;
use unroll_core::backend;
use unroll_core::study::cells::cost::calibrate;
use unroll_core::study::cells::plan::StudyPlan;
use unroll_core::system::config::Preset;
use unroll_core::system::System;
use unroll_report::units::{format_flops, format_seconds};

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// quick | paper | sizes | horizons.
    #[arg(long, default_value = "quick")]
    preset: Preset,
    #[command(flatten)]
    knobs: KnobArgs<false>,
    /// The plan file to write.
    #[arg(long)]
    out: PathBuf,
    /// Do not measure this machine's FLOP rate (no time estimates in the plan).
    #[arg(long)]
    no_estimate: bool,
    /// Only these of the grid's network sizes, `C×D` comma-separated (e.g. `8x5,8x7`: the
    /// Kolmogorov `paper` preset's two smallest).
    #[arg(long, value_name = "C×D,…", value_parser = parse_sizes)]
    sizes: Option<SizeList>,
}

pub fn plan(args: &PlanArgs) -> Result<(), CliError> {
    let mut config = experiment(args.preset, &args.knobs)?.study_config();
    if let Some(sizes) = &args.sizes {
        keep_sizes(&mut config, sizes)?;
    }
    config.validate(config.system.physics())?;
    let rate = if args.no_estimate {
        None
    } else {
        let clock = Instant::now();
        pollster::block_on(calibrate(config.system.physics(), &backend::cpu(), &|| {
            clock.elapsed().as_secs_f64()
        }))
        .ok()
    };
    let plan = StudyPlan::new(config, System::description, rate)?;
    std::fs::write(&args.out, to_json(&plan)?)
        .map_err(|err| CliError::Output(format!("{}: {err}", args.out.display())))?;
    let each = plan.cells.iter().map(|c| c.flops).fold(0.0, f64::max);
    let time = |secs: Option<f64>| secs.map_or("not estimated".to_string(), format_seconds);
    println!(
        "plan {}: {} cells, {} in all ({}); the largest cell {} ({})",
        plan.hash,
        plan.cells.len(),
        format_flops(plan.flops),
        time(plan.estimated_secs),
        format_flops(each),
        time(plan.flop_rate.map(|r| each / r)),
    );
    println!(
        "estimates at this machine's measured rate; data generation (every cell makes the study's data) is not included"
    );
    println!("wrote {}", args.out.display());
    Ok(())
}
