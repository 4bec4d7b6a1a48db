//! The page's entry point, built for wasm32 by trunk (`index.html`): starts the browser glue and
//! mounts the app.

fn main() {
    unroll_browser::start(|| leptos::mount::mount_to_body(unroll_lab::ui::App));
}
