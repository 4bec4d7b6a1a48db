//! What a system shows people: the words of its metric, its baseline, its parameter and the kind
//! of maps its results keep. Plain data, given by each system's
//! `PhysicalSystem::facts`; the results table, the charts'
//! titles, axes and captions, the form's labels and the limits' messages read them, so no
//! layer above names a system to choose its words.

/// The words of a system (every field a fixed phrase).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemFacts {
    /// The error metric of the tests.
    pub metric: MetricWords,
    /// The coarse solver run without a network.
    pub baseline: BaselineWords,
    /// The maps of the sample tests.
    pub maps: MapWords,
    /// The physical parameter varied between cases.
    pub parameter: ParameterWords,
    /// `Some(sentence)` when the network corrects the coarse solver's output (the gradient-flow
    /// diagram then draws the solver-then-network step, the transition mode's graph), with the
    /// sentence shown above the diagram; `None` when the modes are the paper's 1-D ones.
    pub solver_first: Option<&'static str>,
    /// The paper's C-NOG / P-WIG error ratio for this system (KS: ≈ 4.5), shown beside a run's;
    /// `None` where the paper has none.
    pub paper_c_nog_over_p_wig: Option<&'static str>,
    /// The measures beside the error metric that the system's results have and show.
    pub measures: Measures,
}

/// Which measures beside the error metric a system's results carry: a table column, CSV column
/// group, chart or verdict line of a measure the system lacks is not shown at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Measures {
    /// The study's correlation time (steps until the correlation with the truth drops below
    /// its threshold; KS's threshold, made for 1-D chaos).
    pub correlation_time: bool,
    /// The study's stability classes (static / unstable / recurring / regular; KS's thresholds).
    pub stability_classes: bool,
    /// Kochkov et al.'s vorticity measures (2-D flows; not the paper's metrics).
    pub vorticity: bool,
}

impl Measures {
    /// The study's 1-D measures: correlation time and stability classes.
    pub const ONE_D: Self = Self {
        correlation_time: true,
        stability_classes: true,
        vorticity: false,
    };
    /// A 2-D flow's: Kochkov et al.'s vorticity measures only.
    pub const FLOW: Self = Self {
        correlation_time: false,
        stability_classes: false,
        vorticity: true,
    };
}

/// The error metric's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetricWords {
    /// In table headers (`rel. error`, `velocity MSE`).
    pub short: &'static str,
    /// On chart axes and in sentences (`relative error`, `velocity MSE`).
    pub axis: &'static str,
    /// Starting a chart title (`Relative error`, `Velocity MSE`).
    pub title: &'static str,
}

/// The coarse-solver baseline's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaselineWords {
    /// In tables and legends (`ETD1 only`).
    pub name: &'static str,
    /// In chart titles, before "baseline" (`ETD1`, `coarse-solver`).
    pub short: &'static str,
}

/// The kind of map a results file keeps for its sample tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapKind {
    /// One 1-D state per row: a space–time picture of the whole rollout (`[frames][N]`).
    SpaceTime,
    /// Snapshots of a 2-D field (`[snapshots][N²]`, rows = y), one at a time on a slider.
    FieldSnapshots,
}

/// The sample maps' words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapWords {
    /// Space–time picture or field snapshots.
    pub kind: MapKind,
    /// Starting the chart title (`Space–time`, `Vorticity maps`).
    pub title: &'static str,
    /// The figure caption's detail (axes, colour scale, missing values).
    pub caption: &'static str,
    /// The slider's label (field snapshots; `Vorticity snapshot`).
    pub snapshot_label: &'static str,
    /// The mapped quantity's symbol, the colour bar's label (`u`, `ω`).
    pub quantity: &'static str,
}

/// The varied parameter's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParameterWords {
    /// One value in messages (`domain scale`, `Reynolds number`).
    pub name: &'static str,
    /// Naming the value of a test (`size s`, `Re`: "size s = 0.93").
    pub test: &'static str,
    /// The form's label of the training values (`Training domain sizes s (L = 8·s)`).
    pub training_label: &'static str,
    /// One training value in messages (`training domain size`).
    pub training_unit: &'static str,
}

impl MetricWords {
    /// The study's relative error (KS, and any 1-D system scored like it).
    pub const RELATIVE_ERROR: Self = Self {
        short: "rel. error",
        axis: "relative error",
        title: "Relative error",
    };
}

impl BaselineWords {
    /// Exponential Euler alone.
    pub const ETD1_ONLY: Self = Self {
        name: "ETD1 only",
        short: "ETD1",
    };
}

impl MapWords {
    /// The space–time picture of a 1-D rollout.
    pub const SPACE_TIME: Self = Self {
        kind: MapKind::SpaceTime,
        title: "Space–time",
        caption: "Grid point horizontally, rollout step upwards; one symmetric colour scale (the \
                  truth's max |u|); grey where the rollout was not finite.",
        snapshot_label: "Snapshot",
        quantity: "u",
    };
}
