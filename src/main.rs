//! Web entry point (built for wasm32 by trunk): installs the panic hook and logger, mounts the app.

#[cfg(target_arch = "wasm32")]
fn main() {
    unroll_lab::platform::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "unroll-lab-web is the browser entry point: serve it with `scripts/serve.sh` (trunk). \
         The native command-line tool is `unroll-lab`."
    );
    std::process::exit(2);
}
