//! The playground's figure: the rollouts' space–time maps side by side, then each model's error
//! against the truth over time (each part drawn in a short task of its own), and one line per
//! model.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::canvas_figure::CanvasFigure;
use unroll_browser::canvas as canvas_backend;
use unroll_browser::timer::sleep;
use unroll_report::charts::{draw_rollout_part, RolloutPart};
use unroll_report::experiment::playground::Rollout;

/// The figure of `rollouts` (the truth first); `status` hears a drawing failure.
#[component]
pub fn RolloutFigure(
    rollouts: ReadSignal<Vec<Rollout>>,
    status: WriteSignal<String>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    // The maps now, the error chart in the next task.
    Effect::new(move |_| {
        let Some(element) = canvas.get() else {
            return;
        };
        let draw = move |element: &_, part| {
            let outcome = rollouts.try_with_untracked(|r| {
                canvas_backend::draw_with(element, |area| draw_rollout_part(area, r, part))
            });
            if let Some(Err(err)) = outcome {
                let _ = status.try_set(format!("The figure could not be drawn: {err}"));
            }
        };
        rollouts.track();
        draw(&element, RolloutPart::Maps);
        leptos::task::spawn_local(async move {
            sleep(0).await;
            draw(&element, RolloutPart::Errors);
        });
    });
    view! {
        <CanvasFigure id="ic-chart" canvas size=(960, 460) class="chart"
            title="Rollouts from your state"
            caption="Space–time maps side by side (grid point across, step upwards, on the truth's colour scale; grey where a rollout blew up), then each model's relative error against the truth at every step (the study's per-frame summand, clipped at 30 as the study clips it)." />
        <ul id="ic-summary">
            {move || rollouts.get().into_iter().skip(1).map(|r| {
                let last_error = r.error.last().copied().unwrap_or(f64::NAN);
                view! { <li data-name=r.name.clone()>{format!("{}: relative error {last_error:.3e} after {} steps", r.name, r.frames.len().saturating_sub(1))}</li> }
            }).collect_view()}
        </ul>
    }
}
