//! The browser glue: the only home of web-sys / js-sys, WebGPU start-up, the Web Workers (the
//! pool that starts them and the worker's own loop), scheduling, storage and files. The page's
//! components (the `unroll-lab` package) call it; it knows nothing of them.
#![cfg_attr(
    test,
    allow(
        clippy::too_many_lines,
        reason = "a unit test is one scenario, read top to bottom; the limit is for the product's code (checked in the build without cfg(test))"
    )
)]

pub mod assets;
pub mod canvas;
pub mod compute;
pub mod fetch;
pub mod files;
pub mod inference;
pub mod legacy_runs;
pub mod lifecycle;
pub mod pointer;
pub mod probe;
pub mod run_store;
pub mod site_address;
pub mod slide;
pub mod storage_quota;
pub mod timer;
pub mod worker;
pub mod workers;

/// Runs the module's static constructors (the `inventory` registrations burn → cubecl → pliron
/// bring) once, at start-up. A module whose entry point calls `__wasm_call_ctors` itself is not
/// "command-style" for wasm-ld, which then no longer wraps every export (every call from
/// JavaScript: event handlers, timers, worker messages) in a call to them.
/// Idempotent: later calls do nothing (running them twice would register every entry twice).
pub fn run_static_constructors() {
    extern "C" {
        fn __wasm_call_ctors();
    }
    static DONE: std::sync::Once = std::sync::Once::new();
    // SAFETY: the linker-synthesised constructor list, run once (`Once`), before any code that
    // reads what the constructors register.
    DONE.call_once(|| unsafe { __wasm_call_ctors() });
}

/// Starts the page: static constructors, panic hook (shows the panic in the page, never a silent
/// blank), logger, then `mount` in a task of its own (`index.html`'s static first screen stays
/// until the app's is complete: [`hide_boot_message`]).
pub fn start(mount: impl FnOnce() + 'static) {
    run_static_constructors();
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_fatal(&format!(
            "The app hit an internal error and stopped: {info}"
        ));
    }));
    let _ = console_log::init_with_level(log::Level::Warn);
    // The mount in a task of its own, not in the one that instantiates the module and runs its
    // glue (index.html's static first screen shows until the app's is complete).
    wasm_bindgen_futures::spawn_local(async {
        timer::sleep(0).await;
        mount();
    });
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|window| window.document())
}

/// Removes `index.html`'s static first screen (the app shows its own in the same task).
pub fn hide_boot_message() {
    if let Some(boot) = document().and_then(|doc| doc.get_element_by_id("boot")) {
        boot.remove();
    }
}

/// True while the page's tab is hidden.
pub fn document_hidden() -> bool {
    document().is_some_and(|d| d.hidden())
}

/// Whether the reader asked for less motion (`prefers-reduced-motion: reduce`).
pub fn prefers_reduced_motion() -> bool {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Some(match_media) = js_sys::Reflect::get(&window, &"matchMedia".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    match_media
        .call1(&window, &"(prefers-reduced-motion: reduce)".into())
        .ok()
        .and_then(|list| js_sys::Reflect::get(&list, &"matches".into()).ok())
        .and_then(|matches| matches.as_bool())
        .unwrap_or(false)
}

/// Writes `message` into the page's `#fatal` box (present in `index.html`).
pub fn show_fatal(message: &str) {
    if let Some(fatal) = document().and_then(|doc| doc.get_element_by_id("fatal")) {
        fatal.set_text_content(Some(message));
        let _ = fatal.set_attribute("style", "display:block");
    }
}
