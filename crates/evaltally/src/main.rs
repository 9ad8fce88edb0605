//! `evaltally`: the command-line front end (see the library half, `lib.rs`).

fn main() -> std::process::ExitCode {
    keep_freed_memory();
    evaltally::main()
}

/// Tells glibc's allocator to keep memory the program frees for its next allocations.
/// Reading thousands of files on every core allocates and frees buffers and vectors per
/// file: by default glibc maps the larger ones afresh each time (page faults on every
/// reuse), grows each thread's arena a few pages at a time (thousands of `mprotect` calls)
/// and gives freed memory back at once. With these settings the largest workloads ran
/// 5-12% faster with the same peak memory (`docs/performance.md`). Only the binary chooses;
/// the library crates and the Python module leave their allocator to their user.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn keep_freed_memory() {
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_TOP_PAD: i32 = -2;
    const M_MMAP_THRESHOLD: i32 = -3;
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: `mallopt` only sets glibc's allocator parameters (a value it refuses leaves the
    // default); it is called first thing in `main`, before any other thread exists.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TOP_PAD, 16 << 20);
        mallopt(M_TRIM_THRESHOLD, 64 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
