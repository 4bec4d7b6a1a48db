//! "Your equation": the editor of a reader's equation, shown while the selected system is one —
//! a number box per coefficient beside its term, `L`, `N`, `Δt`, the parameter to vary and its
//! training and test values, the equation as written, and "Use this equation", which runs
//! every check ([`EquationForm::system`]: the text's, then growth at the highest mode, the
//! truth and the coarse solver bounded) and names the first refusal before anything trains.
//! The chosen equation is the experiment's system, so it is in the URL (`system=custom:…`).

use leptos::prelude::*;

use unroll_core::types::Term;
use unroll_report::experiment::equation_form::{exponax_snippet, EquationForm};
use unroll_report::experiment::Experiment;

/// Reads one box of the form.
type ReadBox = fn(&EquationForm) -> String;
/// Writes one box of the form.
type WriteBox = fn(&mut EquationForm, String);

/// One coefficient's box, `#equation-<name>`, beside its term.
fn coefficient(form: RwSignal<EquationForm>, index: usize, term: Term) -> impl IntoView {
    view! {
        <label class="term">
            <input type="number" step="any" size="6" id=format!("equation-{}", term.name())
                placeholder="0"
                prop:value=move || form.with(|f| f.coefficients[index].clone())
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    form.update(|f| f.coefficients[index] = value);
                } />
            " · " {term.written()}
        </label>
    }
}

/// One setting's text box `#<id>`.
fn setting(
    form: RwSignal<EquationForm>,
    (id, label): (&'static str, &'static str),
    get: ReadBox,
    set: WriteBox,
) -> impl IntoView {
    view! {
        <label>{label} " "
            <input type="text" size="10" id=id
                prop:value=move || form.with(get)
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    form.update(|f| set(f, value));
                } />
        </label>
    }
}

/// The varied parameter's menu `#equation-vary`.
fn vary_menu(form: RwSignal<EquationForm>) -> impl IntoView {
    view! {
        <label>"Parameter to vary "
            <select id="equation-vary" on:change=move |ev| {
                let value = event_target_value(&ev);
                form.update(|f| f.vary = value);
            }>
                {Term::ALL.into_iter().map(|term| view! {
                    <option value=term.name() selected=move || form.with(|f| f.vary == term.name())>
                        {term.name()}
                    </option>
                }).collect_view()}
            </select>
        </label>
    }
}

/// The editor (hidden unless the system is a reader's equation).
#[component]
pub fn EquationEditor(experiment: RwSignal<Experiment>) -> impl IntoView {
    let form = RwSignal::new(EquationForm::of(&Default::default()));
    let (message, set_message) = signal(String::new());
    // The system chosen elsewhere (the URL, the menu, this editor) refills the boxes.
    Effect::new(move |_| {
        if let Some(equation) = experiment.with(|e| e.system.equation()) {
            form.set(EquationForm::of(equation));
        }
    });
    let apply = move |_| match form.get_untracked().system() {
        Ok(system) => {
            set_message.set(String::new());
            experiment.update(|e| e.set_system(system));
        }
        Err(why) => set_message.set(why),
    };
    let written = move || form.with(|f| f.written().unwrap_or_else(|why| why));
    let hidden = move || experiment.with(|e| e.system.equation().is_none());
    let exponax = move || {
        experiment
            .with(|e| e.system.equation().and_then(exponax_snippet))
            .map_or_else(
                || "no single exponax stepper holds it".into(),
                |l| l.join("\n"),
            )
    };
    view! {
        <fieldset id="equation" class:hidden=hidden>
            <legend>"Your equation"</legend>
            <p class="equation" id="equation-written">{written}</p>
            <div class="terms">
                {Term::COEFFICIENTS.into_iter().enumerate()
                    .map(|(index, term)| coefficient(form, index, term)).collect_view()}
            </div>
            {setting(form, ("equation-L", "L (period 2π·L)"), |f| f.length.clone(), |f, v| f.length = v)}
            {setting(form, ("equation-N", "N"), |f| f.points.clone(), |f, v| f.points = v)}
            {setting(form, ("equation-dt", "Δt"), |f| f.dt.clone(), |f, v| f.dt = v)}
            {vary_menu(form)}
            {setting(form, ("equation-train", "training values"), |f| f.train.clone(), |f, v| f.train = v)}
            {setting(form, ("equation-test", "test values"), |f| f.test.clone(), |f, v| f.test = v)}
            {setting(form, ("equation-rest", "solver settings"), |f| f.rest.clone(), |f, v| f.rest = v)}
            <button id="equation-apply" on:click=apply>"Use this equation"</button>
            <p class="field-error" id="equation-error" role="status">{message}</p>
            <p class="cli">"exponax, the same equation:"</p>
            <pre><code id="equation-exponax">{exponax}</code></pre>
        </fieldset>
    }
}
