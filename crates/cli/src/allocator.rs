//! The CLI's allocator settings. glibc serves every allocation above its mmap threshold (128 KiB,
//! raised adaptively to at most 32 MiB) with its own `mmap` and returns it to the kernel when
//! freed, so a training that allocates and frees the same large tensors every iteration has
//! the kernel map and zero them again each time (an ensemble of 18 networks spent 28 s of a 126 s
//! benchmark there: the book, docs/src/ensembles.md). Raising the threshold keeps freed memory in the heap
//! for the next iteration; the process keeps its peak memory until it exits.

/// Keeps freed memory for reuse (glibc on Linux; elsewhere nothing to do).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_freed_memory() {
    // Larger than any tensor of a training here, and within mallopt's `int`.
    const ONE_GIB: i32 = 1 << 30;
    // SAFETY: `mallopt` only sets parameters of glibc's allocator; it is called once, first
    // thing in `main`, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, ONE_GIB);
        libc::mallopt(libc::M_TRIM_THRESHOLD, ONE_GIB);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// Keeps freed memory for reuse (glibc on Linux; elsewhere nothing to do).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() {}
