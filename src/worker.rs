//! Web Worker entry point (built for wasm32 by trunk, `data-type="worker"`): runs its share of a
//! study's cells and posts what happens to the page (see `platform::worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    unroll_lab::platform::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "unroll-lab-worker is the browser's Web Worker: the page starts it (`scripts/serve.sh`). \
         The native command-line tool is `unroll-lab`."
    );
    std::process::exit(2);
}
