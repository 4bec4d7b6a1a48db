//! The horizon lens beside the results: the error horizon every view judges at (1 to the
//! rollout, the paper's 12 marked; in the URL as `eval_h=`) and the aggregation of ratios to
//! ONE (`ks_eval.py`'s ratio of means, or the paired alternative). Re-scoring is exact, from
//! the per-test curves the results keep ([`Lens`]).

use leptos::prelude::*;

use unroll_browser::files;
use unroll_core::study::data::results::{Aggregation, StudyResults};
use unroll_report::lens::{Lens, HORIZON_KEY};

/// The lens the URL asks for (a refused `eval_h` value is named in the first notice with the
/// other URL keys: `experiment::url_keys`).
pub fn lens_from_url() -> Lens {
    let horizon =
        files::query_value(HORIZON_KEY).and_then(|value| Lens::parse_horizon(&value).ok());
    Lens {
        horizon,
        aggregation: Aggregation::RatioOfMeans,
    }
}

/// The horizon field (`#eval-h`) and the aggregation switch (`#aggregation-paired`) for
/// `results` (shown only where they keep every test; the switch always).
#[component]
pub fn HorizonLens(lens: RwSignal<Lens>, results: StudyResults) -> impl IntoView {
    let longest = results.longest_horizon();
    let own = results.config.eval.error_horizon;
    let on_horizon = move |ev: leptos::ev::Event| {
        if let Ok(h) = Lens::parse_horizon(&event_target_value(&ev)) {
            lens.update(|l| l.horizon = Some(h));
            files::set_query_keys(&[(HORIZON_KEY, Some(h.to_string()))]);
        }
    };
    let on_paired = move |ev: leptos::ev::Event| {
        let paired = event_target_checked(&ev);
        lens.update(|l| {
            l.aggregation = if paired {
                Aggregation::Paired
            } else {
                Aggregation::RatioOfMeans
            }
        });
    };
    let value = move || lens.with(|l| l.horizon.unwrap_or(own)).to_string();
    let paired = move || lens.with(|l| l.aggregation == Aggregation::Paired);
    let horizon = longest.map(|longest| view! {
        <label>"Error horizon H "
            <input id="eval-h" type="number" min="1" max=longest.to_string() prop:value=value on:change=on_horizon />
            {format!(" steps (the paper's: 12; this run's rollout: {longest}); every test re-scored exactly")}
        </label>
    });
    let no_curves = longest.is_none().then(|| view! {
        <span class="note">"This file keeps no per-test curves: its horizon is fixed at H = "{own}"."</span>
    });
    view! {
        <div id="horizon-lens" class="controls">
            {horizon}
            {no_curves}
            <label>
                <input id="aggregation-paired" type="checkbox" prop:checked=paired on:change=on_paired />
                " ratios to ONE as the paired mean of per-seed ratios (default: ks_eval.py's ratio of means)"
            </label>
        </div>
    }
}
