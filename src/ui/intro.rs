//! The study explained in two paragraphs: the three modalities and the two modes.

use leptos::prelude::*;

/// Two paragraphs: what is compared (ONE / NOG / WIG) and where (prediction / correction).
#[component]
pub fn Intro() -> impl IntoView {
    view! {
        <section id="intro" class="intro">
            <h2>"The study in two paragraphs"</h2>
            <p>
                "A neural time-stepper learns to advance a physical state by one step. Training it "
                "on several unrolled steps changes two things at once: the network sees its own, "
                "imperfect outputs as inputs, and gradients can flow back through time. The study "
                "separates the two with three training modalities: "
                <strong>"ONE"</strong>" trains on single steps from ground truth; "
                <strong>"NOG"</strong>" unrolls m steps but cuts the gradient between them, so each "
                "step learns only from its own loss; "<strong>"WIG"</strong>" unrolls m steps and "
                "back-propagates through all of them, network and solver alike."
            </p>
            <p>
                "Each modality is tried in two simulation modes. In "<strong>"prediction"</strong>
                " the network alone produces the next state. In "<strong>"correction"</strong>
                " (solver-in-the-loop) a cheap, inaccurate numerical solver advances the state and "
                "the network adds a learned correction. The study's headline: correction beats "
                "prediction by a wide margin, and unrolling helps even without differentiating "
                "the solver (NOG) — while full gradients (WIG) are best. Here you can regenerate "
                "its Kuramoto–Sivashinsky data, retrain the six variants on your own device and "
                "compare them in the paper's metrics. "<a href="book/index.html">"The book"</a>" explains the page, the CLI and every measurement."
            </p>
        </section>
    }
}
