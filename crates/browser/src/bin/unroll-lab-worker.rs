//! The CPU Web Worker (built for wasm32 by trunk, `data-type="worker"`): runs its share of a
//! study's cells and the playground's rollouts on burn's CPU backend, and posts what happens to
//! the page ([`unroll_browser::worker`]).

fn main() {
    unroll_browser::worker::start();
}
