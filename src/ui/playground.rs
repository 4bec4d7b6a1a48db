//! "Your own initial state", for the selected system when it offers a playground
//! ([`SystemDescription::playground`]; otherwise the section says it has none): draw a state
//! with the mouse or a finger (or pick one of the system's families of initial states and set
//! its coefficients from the keyboard), pick the parameter, and see the truth, the coarse solver
//! alone and every trained variant with weights at hand rolled out from it (inference only):
//! their space–time maps side by side and the error over time. The state lives in the URL
//! (`ic=`, `ic-s=`); weights come from the run on the page or from imported `.bpk` files beside
//! an imported results file.

use leptos::prelude::*;

use super::draw_surface::DrawSurface;
use super::rollout_figure::RolloutFigure;
use super::state_controls::StateControls;
use unroll_browser::files;
use unroll_browser::inference::InferenceWorker;
use unroll_browser::timer::sleep;
use unroll_core::study::data::results::StudyResults;
use unroll_core::system::playground::Playground as SystemPlayground;
use unroll_core::system::{System, SystemDescription};
use unroll_report::experiment::initial_state::{InitialState, MODES, SCALE_KEY, STATE_KEY};
use unroll_report::experiment::playground::{
    models_for, reference_rollouts, rollout_request, scored, status_line, Rollout,
};

/// Weights at hand: `(file label or name, burnpack bytes)`.
type Weights = Vec<(String, Vec<u8>)>;

/// The playground of the selected `system`. `results` and `weights` are the run's on the page
/// (or imported); the trained variants roll out in an inference worker.
#[component]
pub fn Playground(
    system: Signal<System>,
    results: ReadSignal<Option<StudyResults>>,
    weights: ReadSignal<Weights>,
) -> impl IntoView {
    let inference = StoredValue::new_local(InferenceWorker::default());
    move || {
        let description = system.get().description();
        match description.playground() {
            Some(playground) => view! {
                <PlaygroundOf description playground results weights inference />
            }
            .into_any(),
            None => view! {
                <section id="playground" class="panel">
                    <h2>"Your own initial state"</h2>
                    <p class="hint" id="playground-none">
                        {format!("{}: this system has no playground (no families of initial states to draw from). Pick a system that offers one to roll the trained models out from your own state.", description.title())}
                    </p>
                </section>
            }
            .into_any(),
        }
    }
}

/// The playground of one system.
#[component]
fn PlaygroundOf(
    description: &'static dyn SystemDescription,
    playground: &'static dyn SystemPlayground,
    results: ReadSignal<Option<StudyResults>>,
    weights: ReadSignal<Weights>,
    inference: StoredValue<InferenceWorker, LocalStorage>,
) -> impl IntoView {
    let (initial, problems) = InitialState::from_query(
        playground,
        files::query_text(STATE_KEY).as_deref(),
        files::query_text(SCALE_KEY).as_deref(),
    );
    let state = RwSignal::new(initial);
    let (notice, set_notice) = signal(problems.join("; "));
    let (imported, set_imported) = signal(Weights::new());
    let steps = RwSignal::new(80usize);
    let (rollouts, set_rollouts) = signal(Vec::<Rollout>::new());
    let (status, set_status) = signal(String::new());
    keep_in_url(playground, state);
    let job = Job {
        description,
        playground,
        inference,
        rollouts: set_rollouts,
        status: set_status,
    };
    // Roll out whenever the state, the length or the models change.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let (current, n, on_page) = (state.get(), steps.get(), results.get());
        let mut all_weights = weights.get();
        all_weights.extend(imported.get());
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let stale = move || generation.try_get_value() != Some(mine);
        leptos::task::spawn_local(job.run(current, n, on_page, all_weights, stale));
    });
    view! {
        <section id="playground" class="panel">
            <h2>"Your own initial state"</h2>
            <p class="hint" id="draw-hint">
                "Draw a state with the mouse or a finger across the box (one period of the domain), or pick one of the "
                "paper's IC families and set its coefficients. The truth, the coarse solver alone and every trained "
                "variant with weights are rolled out from it — inference only — and the link in the address bar "
                {format!("shares the state (as its lowest {MODES} Fourier modes).")}
            </p>
            <p id="ic-notice" class="notice" role="status" class:hidden=move || notice.get().is_empty()>{notice}</p>
            <DrawSurface playground state />
            <StateControls playground state steps notice=set_notice imported=set_imported />
            <p id="ic-status" role="status">{status}</p>
            <RolloutFigure rollouts status=set_status />
        </section>
    }
}

/// Mirrors `state` in the URL (`ic=`, `ic-s=`; none for the playground's first state).
fn keep_in_url(playground: &'static dyn SystemPlayground, state: RwSignal<InitialState>) {
    Effect::new(move |_| {
        let current = state.get();
        let query = if current == InitialState::first(playground) {
            Vec::new()
        } else {
            current.to_query(playground)
        };
        let get = |key: &str| {
            query
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
        };
        files::set_query_keys(&[(STATE_KEY, get(STATE_KEY)), (SCALE_KEY, get(SCALE_KEY))]);
    });
}

/// Where one playground's rollouts come from and go.
#[derive(Clone, Copy)]
struct Job {
    description: &'static dyn SystemDescription,
    playground: &'static dyn SystemPlayground,
    inference: StoredValue<InferenceWorker, LocalStorage>,
    rollouts: WriteSignal<Vec<Rollout>>,
    status: WriteSignal<String>,
}

impl Job {
    /// Rolls the truth, the coarse solver and every model with weights out from `state` over
    /// `steps` steps, then shows them (in a task after the one that computed them); gives up
    /// once `stale`.
    async fn run(
        self,
        state: InitialState,
        steps: usize,
        results: Option<StudyResults>,
        weights: Weights,
        stale: impl Fn() -> bool,
    ) {
        sleep(0).await;
        let mut out = match reference_rollouts(self.description, &state, steps) {
            Ok(out) => out,
            Err(err) => {
                let _ = self.status.try_set(format!("The rollout failed: {err}"));
                return;
            }
        };
        let truth = out[0].frames.clone();
        let (models, mut notes) = models_for(self.description, results.as_ref(), &weights);
        let Some(worker) = self.inference.try_get_value() else {
            return;
        };
        let mut done = 0;
        for model in &models {
            if stale() {
                return;
            }
            let request = rollout_request(self.description, model, &state, &truth, steps);
            match request {
                Ok(request) => match worker.rollout(request.clone()).await {
                    Ok(frames) => {
                        out.push(scored(&request, frames, &truth));
                        done += 1;
                    }
                    Err(err) => notes.push(err),
                },
                Err(err) => notes.push(err),
            }
        }
        sleep(0).await;
        if stale() {
            return;
        }
        let line = status_line(self.playground, &state, steps, done, &notes);
        let _ = self.status.try_set(line);
        let _ = self.rollouts.try_set(out);
    }
}
