//! The "Paper-budget & committed runs" entry: on first opening it fetches `results/index.json`
//! (the committed runs, served with the page), lists each run with its title, budget, seeds and
//! commit, and loads one without training: into every view as an import is
//! ([`ResultsSinks::show`]), or, when the page already shows another run of the same study,
//! beside it ([`super::committed_beside::CommittedBeside`]). Fetch and parse failures are
//! messages in the entry.

use leptos::prelude::*;

use super::show_results::ResultsSinks;
use unroll_browser::fetch::fetch_text;
use unroll_core::study::data::results::StudyResults;
use unroll_report::beside::{comparable, same_run};
use unroll_report::committed::{CommittedIndex, CommittedRun};

/// The index's address, relative to the page.
const INDEX_URL: &str = "results/index.json";

/// A loaded committed run: its index entry and its results.
#[derive(Clone)]
pub struct Committed {
    /// The entry of `results/index.json`.
    pub run: CommittedRun,
    /// Its merged results.
    pub results: StudyResults,
}

/// Where the list stands.
#[derive(Clone, PartialEq)]
enum ListState {
    /// Not asked for yet.
    Idle,
    /// The index is on its way.
    Loading,
    /// The index's runs.
    Loaded(Vec<CommittedRun>),
    /// Why there is no list.
    Failed(String),
}

/// The index's runs, or why there are none.
async fn fetch_index() -> ListState {
    let outcome = fetch_text(INDEX_URL)
        .await
        .and_then(|text| CommittedIndex::from_json(&text).map_err(|e| e.to_string()));
    match outcome {
        Ok(index) => ListState::Loaded(index.runs),
        Err(err) => ListState::Failed(format!(
            "The committed runs could not be listed: {err}. Close and reopen to try again."
        )),
    }
}

/// Where a loaded run goes and what is said about it.
#[derive(Clone, Copy)]
struct Loader {
    results: ReadSignal<Option<StudyResults>>,
    reference: RwSignal<Option<Committed>>,
    sinks: ResultsSinks,
    message: WriteSignal<String>,
}

impl Loader {
    /// Fetches `run`'s results and shows them: beside the page's own results of the same study
    /// (which stay in every view), else in every view (a committed run shown alone is replaced).
    async fn load(self, run: CommittedRun) {
        self.message.set(format!("Loading {}…", run.title));
        let url = format!("results/{}", run.results);
        let loaded = fetch_text(&url).await.and_then(|text| {
            StudyResults::from_json(&text)
                .map_err(|e| format!("{url} is not a readable results file: {e}"))
        });
        let committed = match loaded {
            Ok(results) => Committed { run, results },
            Err(err) => {
                self.message
                    .set(format!("{} could not be loaded: {err}", run.title));
                return;
            }
        };
        let beside = self.results.with_untracked(|here| {
            here.as_ref().is_some_and(|here| {
                let shown_committed = self
                    .reference
                    .with_untracked(|r| r.as_ref().is_some_and(|r| same_run(here, &r.results)));
                !shown_committed && comparable(here, &committed.results)
            })
        });
        let title = committed.run.title.clone();
        self.reference.set(Some(committed.clone()));
        if beside {
            self.message.set(format!(
                "{title}: shown beside this page's results of the same study, under the results table."
            ));
        } else {
            self.message
                .set(format!("{title}: shown in every view below."));
            self.sinks.show(committed.results).await;
        }
    }
}

/// The entry. `results` is what the page shows; `reference` the committed run last loaded.
#[component]
pub fn CommittedRuns(
    results: ReadSignal<Option<StudyResults>>,
    reference: RwSignal<Option<Committed>>,
    sinks: ResultsSinks,
) -> impl IntoView {
    let (list, set_list) = signal(ListState::Idle);
    let (message, set_message) = signal(String::new());
    let open = move |_| {
        if matches!(
            list.get_untracked(),
            ListState::Loading | ListState::Loaded(_)
        ) {
            return;
        }
        set_list.set(ListState::Loading);
        leptos::task::spawn_local(async move { set_list.set(fetch_index().await) });
    };
    let loader = Loader {
        results,
        reference,
        sinks,
        message: set_message,
    };
    view! {
        <details id="committed-runs" class="committed-runs">
            <summary on:click=open>"Paper-budget & committed runs"</summary>
            <p class="hint">
                "Long studies run once natively (study plan → run-cell → merge) at the paper's budget and shipped with the page: "
                "loading one shows its results without training, or beside this page's run of the same study."
            </p>
            {move || listing(list.get(), loader)}
            <p id="committed-message" role="status" class="notice">{message}</p>
        </details>
    }
}

/// The list as it stands; each run's Load button hands it to `loader`.
fn listing(list: ListState, loader: Loader) -> AnyView {
    match list {
        ListState::Idle => view! { <p class="hint">"Open to list the committed runs."</p> }.into_any(),
        ListState::Loading => view! { <p class="hint">"Fetching the list…"</p> }.into_any(),
        ListState::Failed(err) => view! { <p id="committed-error" class="notice">{err}</p> }.into_any(),
        ListState::Loaded(runs) if runs.is_empty() => view! {
            <p id="committed-empty">"There are no committed runs yet: the paper-budget runs appear here once they have run and are committed under results/."</p>
        }
        .into_any(),
        ListState::Loaded(runs) => view! {
            <ul id="committed-list">
                {runs.into_iter().map(|run| {
                    let seeds = format!("{} seed{}", run.seeds, if run.seeds == 1 { "" } else { "s" });
                    let entry = run.clone();
                    view! {
                        <li class="committed-run" data-id=run.id.clone()>
                            <strong>{run.title.clone()}</strong>" — "{run.budget.clone()}"; "{seeds}
                            "; commit "<code>{run.commit.clone()}</code>" "
                            <button class="load-committed" on:click=move |_| leptos::task::spawn_local(loader.load(entry.clone()))>"Load"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
        .into_any(),
    }
}
