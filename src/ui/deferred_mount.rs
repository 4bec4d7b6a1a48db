//! Content mounted a task after the page's first, so no main-thread task of the load is long:
//! the first screen mounts in a few tasks, hidden until [`WhenMounted`] says it is complete, and
//! each section below the fold in a task of its own.

use leptos::prelude::*;

use unroll_browser::timer::sleep;

/// Sets `done` when it mounts: placed after `Later`s, once they have all mounted (they mount in
/// document order).
#[component]
pub fn WhenMounted(done: WriteSignal<bool>) -> impl IntoView {
    done.set(true);
}

/// Mounts `children` in a later task (a `setTimeout(0)` after the one that mounts the page; each
/// `Later` in its own, in document order). Nothing of `children` runs before: not even their
/// components' bodies.
#[component]
pub fn Later(children: Children) -> impl IntoView {
    let (shown, set_shown) = signal(false);
    leptos::task::spawn_local(async move {
        sleep(0).await;
        // `None`: the page was torn down before (nothing left to show).
        let _ = set_shown.try_set(true);
    });
    let mut children = Some(children);
    move || shown.get().then(|| children.take().map(|build| build()))
}
