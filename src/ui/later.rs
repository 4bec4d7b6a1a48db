//! Content mounted a task after the page's first: the first screen mounts at once, and each
//! `Later` below the fold in a task of its own, so no main-thread task of the load is long.

use leptos::prelude::*;

use crate::platform::timer::sleep;

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
