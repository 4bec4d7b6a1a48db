//! A chart's `<figure>`: its canvas and a caption — the chart's title in bold, its sentence, a
//! PNG download where offered, and the drawing error where there is one.

use leptos::html::Canvas;
use leptos::prelude::*;

use unroll_browser::canvas as canvas_backend;

/// The figure of `canvas` (`#<id>`, `size` px, the figure's `class`). With `png` a button
/// offers the canvas as that file; `error` is shown in the caption (a failed download too).
#[component]
pub fn CanvasFigure(
    #[prop(into)] id: String,
    canvas: NodeRef<Canvas>,
    size: (u32, u32),
    #[prop(into)] class: String,
    #[prop(into)] title: String,
    #[prop(into)] caption: String,
    #[prop(optional, into)] png: Option<String>,
    #[prop(optional)] error: Option<RwSignal<String>>,
) -> impl IntoView {
    let download = move |file: &str| {
        let outcome = match canvas.get() {
            Some(element) => canvas_backend::download_png(&element, file),
            None => Err("the chart is not on the page yet".into()),
        };
        if let (Err(err), Some(error)) = (outcome, error) {
            error.set(err);
        }
    };
    view! {
        <figure class=class>
            <canvas id=id node_ref=canvas width=size.0.to_string() height=size.1.to_string()></canvas>
            <figcaption>
                <strong>{title}</strong>". "{caption}" "
                {png.map(|file| view! {
                    <button class="png" title="Download this chart as PNG" on:click=move |_| download(&file)>"PNG"</button>
                })}
                {error.map(|error| view! { <span class="chart-error" role="alert">{move || error.get()}</span> })}
            </figcaption>
        </figure>
    }
}
